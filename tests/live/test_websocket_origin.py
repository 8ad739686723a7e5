"""A page on another origin opens a game's websocket with its token or ticket, as it calls the API; a socket with
no credential keeps the browser origin check (refused at the handshake from a foreign page)."""

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from dvorak_site.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True)]

ELSEWHERE = [(b"origin", b"https://example.org")]


def socket(game_id, query: str, headers=ELSEWHERE) -> WebsocketCommunicator:
    return WebsocketCommunicator(application, f"/ws/games/{game_id}/?{query}", headers=headers)


async def test_a_token_or_a_ticket_opens_a_socket_from_a_page_of_any_origin(table):
    game_id, seated = await sync_to_async(table)(2)
    (user, client), _ = seated
    ticket = (await sync_to_async(client.post)("/api/v1/auth/ticket/")).json()["ticket"]
    for query in (f"token={user.api_token}", f"ticket={ticket}"):
        opened = socket(game_id, query)
        connected, _ = await opened.connect(timeout=5)
        assert connected, query
        first = await opened.receive_json_from(timeout=5)
        assert first["type"] == "event" and first["event"]["version"] == 1
        await opened.disconnect()


async def test_without_a_credential_a_foreign_page_is_refused_at_the_handshake(table):
    game_id, _ = await sync_to_async(table)(2)
    for query in ("", "token=not-a-token"):
        refused = socket(game_id, query)
        connected, _ = await refused.connect(timeout=5)
        assert not connected, query
    # The site's own pages, and programs that send no Origin, are let through to be told why (4401).
    for headers in ([(b"origin", b"http://testserver")], []):
        own = socket(game_id, "", headers)
        connected, _ = await own.connect(timeout=5)
        assert connected
        assert (await own.receive_output(timeout=5))["code"] == 4401
