"""Game commands answered by the ASGI app itself (games/api/fast.py) answer exactly as Django's view does, and
every request it is not sure of goes on to Django.

Each request is sent through the ASGI application twice over: through the fast path, whose Django behind it is
watched (so a test knows which of the two answered), and straight to Django's own ASGI handler; a refusal
changes nothing, so both must give the same status, headers and bytes.
"""

import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import HttpCommunicator, WebsocketCommunicator
from django.db import connection
from rest_framework.throttling import UserRateThrottle

from dvorak_kit.eventstore import store
from dvorak_site.asgi import application, django_asgi_app
from games.api.fast import CommandFastPath

pytestmark = [pytest.mark.django_db(transaction=True)]


class WatchedDjango:
    """Django's ASGI handler, counting the requests that reach it."""

    def __init__(self):
        self.seen: list[str] = []

    async def __call__(self, scope, receive, send):
        self.seen.append(scope["path"])
        return await django_asgi_app(scope, receive, send)


def headers_for(token: str | None = None, **extra: str) -> list[tuple[bytes, bytes]]:
    # The same request id for both routes, so that their answers' X-Request-ID and error bodies compare equal.
    headers = {"host": "testserver", "content-type": "application/json", "accept": "*/*",
               "x-request-id": "compared", **extra}
    if token:
        headers["authorization"] = f"Token {token}"
    return [(name.replace("_", "-").encode(), value.encode()) for name, value in headers.items()]


async def post(app, game_id, body, headers) -> dict:
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    headers = [*headers, (b"content-length", str(len(raw)).encode())]
    communicator = HttpCommunicator(app, "POST", f"/api/v1/games/{game_id}/commands/", body=raw, headers=headers)
    response = await communicator.get_response(timeout=10)
    headers = sorted((name.lower(), value) for name, value in response["headers"])
    # What the client may still send, and when the count goes down, differ from one request to the next (each is
    # counted): kept aside, so that two answers compare header for header.
    response["rate_limit"] = {name: int(value) for name, value in headers if name.startswith(b"ratelimit-")}
    response["headers"] = without(headers, b"ratelimit-remaining", b"ratelimit-reset")
    return response


def without(headers, *names: bytes):
    return [(name, value) for name, value in headers if name not in names]


def version_of(game_id) -> int:
    return store.current_version(f"game-{game_id}")


async def seats(table):
    game_id, seated = await sync_to_async(table)(2)
    state = (await sync_to_async(seated[0][1].get)(f"/api/v1/games/{game_id}/")).json()
    turn = state["turn"]["seat"]
    return game_id, seated[turn][0].api_token, seated[1 - turn][0].api_token


async def test_an_ordinary_command_is_answered_without_django_and_with_the_view_s_headers(table):
    game_id, mover, _ = await seats(table)
    django = WatchedDjango()
    version = await sync_to_async(version_of)(game_id)
    fast = await post(CommandFastPath(django), game_id, {"type": "draw"}, headers_for(mover))
    assert django.seen == []
    assert fast["status"] == 201, fast["body"]
    body = json.loads(fast["body"])
    assert body["version"] > version and body["version"] == await sync_to_async(version_of)(game_id)
    assert [e["version"] for e in body["events"]] == list(range(version + 1, body["version"] + 1))
    drawn = next(e for e in body["events"] if e["type"] == "card.drawn")
    assert "title" in drawn["data"]["card"]  # the drawer is shown the card drawn
    assert dict(fast["headers"])[b"etag"] == f'"{body["version"]}"'.encode()
    assert dict(fast["headers"])[b"location"].decode().endswith(f"/api/v1/games/{game_id}/events/?after={version}")
    assert set(fast["rate_limit"]) == {b"ratelimit-limit", b"ratelimit-remaining", b"ratelimit-reset"}

    # The same kind of answer from Django's view: the next command of the turn, straight to Django.
    played = await post(django_asgi_app, game_id, {"type": "play", "card": drawn["data"]["card"]["id"]},
                        headers_for(mover))
    assert played["status"] == 201, played["body"]
    assert dict(played["headers"])[b"location"].decode().endswith(f"/events/?after={body['version']}")
    assert (without(fast["headers"], b"etag", b"location", b"content-length")
            == without(played["headers"], b"etag", b"location", b"content-length"))
    # Each counted, the second after the first.
    assert played["rate_limit"][b"ratelimit-remaining"] == fast["rate_limit"][b"ratelimit-remaining"] - 1


@pytest.mark.parametrize("body", [
    {"type": "end_turn"},  # the other seat's turn: 409 not_your_turn
    {"type": "no_such_command"},  # 400 unknown_command
    {"type": "play"},  # 400 invalid: no card
    {"type": "draw", "quietly": True},  # 400 invalid: a field no draw takes
    [1, 2],  # 400: not an object
    b'{"type": "draw"',  # 400: not JSON
    b'{"type": NaN}',  # 400: not strict JSON
    b"[" * 5000 + b"]" * 5000,  # 400: nested too deeply
], ids=["not-your-turn", "unknown", "invalid", "unknown-field", "array", "truncated", "nan", "deep"])
async def test_a_refusal_is_answered_byte_for_byte_as_django_answers_it_and_changes_nothing(table, body):
    game_id, _, waiting = await seats(table)
    version = await sync_to_async(version_of)(game_id)
    django = WatchedDjango()
    fast = await post(CommandFastPath(django), game_id, body, headers_for(waiting))
    direct = await post(django_asgi_app, game_id, body, headers_for(waiting))
    # Sent again: a body the fast path has seen and found well formed is not checked again, and still refused.
    again = await post(CommandFastPath(django), game_id, body, headers_for(waiting))
    assert django.seen == []
    assert fast["status"] in {400, 409} and "error" in json.loads(fast["body"])
    assert (fast["status"], fast["headers"], fast["body"]) == (direct["status"], direct["headers"], direct["body"])
    assert (again["status"], again["headers"], again["body"]) == (direct["status"], direct["headers"], direct["body"])
    assert fast["rate_limit"][b"ratelimit-remaining"] - 2 == again["rate_limit"][b"ratelimit-remaining"]
    assert await sync_to_async(version_of)(game_id) == version


@pytest.mark.parametrize("headers", [
    lambda token: headers_for(None),  # no credentials: 401
    lambda token: headers_for("not-a-token"),  # a token nobody has: 401
    lambda token: headers_for(token, idempotency_key="k-1"),  # the view's receipts
    lambda token: headers_for(token, if_match='"1"'),  # the view's version check: 412
    lambda token: headers_for(token, content_type="text/plain"),  # 415
    lambda token: headers_for(token, accept="text/html"),  # DRF's negotiation
    lambda token: headers_for(token, host="evil.example"),  # a host the site does not serve: 400
    lambda token: headers_for(token, origin="https://example.org"),  # a page's: the CORS middleware answers it
], ids=["anonymous", "unknown-token", "idempotency-key", "if-match", "text-plain", "html", "host", "origin"])
async def test_a_request_the_fast_path_is_not_sure_of_goes_to_django_with_its_body(table, headers):
    game_id, mover, _ = await seats(table)
    django = WatchedDjango()
    response = await post(CommandFastPath(django), game_id, {"type": "draw"}, headers(mover))
    assert django.seen == [f"/api/v1/games/{game_id}/commands/"]
    assert response["status"] in {201, 400, 401, 406, 412, 415}, response["body"]
    if response["status"] == 201:  # the body Django read was the one sent
        assert b"card.drawn" in response["body"]
    if dict(headers(mover)).get(b"origin"):
        assert dict(response["headers"])[b"access-control-allow-origin"] == b"*"


async def test_the_view_s_throttle_counts_fast_commands_and_refuses_as_django_does(table, make_user, monkeypatch):
    game_id, _, _ = await seats(table)
    user = await sync_to_async(make_user)("outsider")
    outsider = user.api_token
    # No request counted yet, not even by an earlier run whose user had this id (the shared count lives a minute).
    await sync_to_async(UserRateThrottle.cache.delete)(f"throttle_user_{user.pk}")
    monkeypatch.setattr(UserRateThrottle, "THROTTLE_RATES", {"user": "2/min", "anon": "2/min"})
    django = WatchedDjango()
    app = CommandFastPath(django)
    answers = [await post(app, game_id, {"type": "end_turn"}, headers_for(outsider)) for _ in range(3)]
    assert [a["status"] for a in answers] == [403, 403, 429]
    assert django.seen == []
    refused = answers[-1]
    assert json.loads(refused["body"])["error"]["code"] == "throttled"
    assert int(dict(refused["headers"])[b"retry-after"]) > 0
    assert [a["rate_limit"][b"ratelimit-remaining"] for a in answers] == [1, 0, 0]
    assert refused["rate_limit"][b"ratelimit-reset"] == int(dict(refused["headers"])[b"retry-after"])
    # Django's view counts the same requests: it refuses the fourth too, with the same headers and body (the wait
    # it names aside, a second or so shorter by then).
    direct = await post(django_asgi_app, game_id, {"type": "end_turn"}, headers_for(outsider))
    assert direct["status"] == 429
    assert (without(direct["headers"], b"retry-after", b"content-length")
            == without(refused["headers"], b"retry-after", b"content-length"))
    assert json.loads(direct["body"])["error"]["code"] == "throttled"


async def test_a_fast_command_reaches_the_game_s_sockets(table):
    game_id, mover, waiting = await seats(table)
    version = await sync_to_async(version_of)(game_id)
    socket = WebsocketCommunicator(application, f"/ws/games/{game_id}/?token={waiting}&after={version}")
    connected, _ = await socket.connect(timeout=5)
    assert connected
    answer = await post(application, game_id, {"type": "draw"}, headers_for(mover))
    assert answer["status"] == 201
    event = (await socket.receive_json_from(timeout=5))["event"]
    assert event["version"] == version + 1 and event["type"] == "card.drawn"
    assert "card" not in event["data"]  # the other seat is not shown the card drawn
    await socket.disconnect()


async def test_behind_a_tls_proxy_it_sends_django_s_security_headers_and_leaves_plain_http_to_django(table, settings):
    """Production's settings (HSTS, the proxy's X-Forwarded-Proto, the HTTPS redirect): Django's middleware reads
    them when it is built, so a handler built under them is the one compared with."""
    from django.core.handlers.asgi import ASGIHandler

    game_id, _, waiting = await seats(table)
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_HSTS_SECONDS, settings.SECURE_HSTS_INCLUDE_SUBDOMAINS = 3600, True
    settings.SECURE_SSL_REDIRECT = True
    production_django = ASGIHandler()
    watched: list[str] = []

    async def django(scope, receive, send):
        watched.append(scope["path"])
        return await production_django(scope, receive, send)

    over_tls = headers_for(waiting, x_forwarded_proto="https")
    fast = await post(CommandFastPath(django), game_id, {"type": "end_turn"}, over_tls)
    direct = await post(production_django, game_id, {"type": "end_turn"}, over_tls)
    assert watched == [] and fast["status"] == 409
    assert dict(fast["headers"])[b"strict-transport-security"] == b"max-age=3600; includeSubDomains"
    assert (fast["status"], fast["headers"], fast["body"]) == (direct["status"], direct["headers"], direct["body"])

    plain = await post(CommandFastPath(django), game_id, {"type": "end_turn"}, headers_for(waiting))
    assert watched == [f"/api/v1/games/{game_id}/commands/"] and plain["status"] == 301


@pytest.mark.postgres
async def test_a_command_thread_keeps_its_pooled_connection_between_commands_until_its_time_is_up(table, settings):
    """Each command taking a connection from the pool and handing it back cost as much as one of its statements:
    the command threads keep theirs for COMMAND_CONNECTION_SECONDS, and then hand it back."""
    game_id, _, waiting = await seats(table)
    django = WatchedDjango()
    pool = connection.pool

    async def requests_for_six_commands() -> int:
        before = pool.get_stats().get("requests_num", 0)
        for _ in range(6):  # refused (not this seat's turn), each after reading the game
            answer = await post(CommandFastPath(django), game_id, {"type": "end_turn"}, headers_for(waiting))
            assert answer["status"] == 409, answer["body"]
        return pool.get_stats().get("requests_num", 0) - before

    # Kept: at most one checkout a command thread (and one for a snapshot the process's writer may take meanwhile).
    assert await requests_for_six_commands() <= settings.COMMAND_THREADS + 1
    settings.COMMAND_CONNECTION_SECONDS = 0
    await requests_for_six_commands()  # a connection kept until now goes back after its thread's next command
    assert await requests_for_six_commands() >= 6  # and then every command takes one and hands it back
    assert django.seen == []
