"""Live updates over the websocket: catch-up, each new event once and in order, redaction, reconnecting."""

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from dvorak_kit.eventstore import store
from dvorak_site.asgi import application
from games import services

pytestmark = [pytest.mark.django_db(transaction=True)]


async def connect(game_id, query: str) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(application, f"/ws/games/{game_id}/?{query}")
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    return communicator


async def closed_with(communicator) -> int:
    """The close code the server sent (it accepts first so that a code can be sent at all)."""
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    message = await communicator.receive_output(timeout=5)
    assert message["type"] == "websocket.close"
    return message["code"]


async def wait_until(check, seconds: float = 5.0) -> None:
    for _ in range(int(seconds / 0.05)):
        if check():
            return
        await asyncio.sleep(0.05)
    assert check()


async def receive_events(communicator, count: int) -> list[dict]:
    messages = [await communicator.receive_json_from(timeout=5) for _ in range(count)]
    assert all(m["type"] == "event" for m in messages)
    return [m["event"] for m in messages]


def version_of(game_id) -> int:
    return store.current_version(f"game-{game_id}")


def hidden_titles(game_id, seat: int) -> set[str]:
    state = services.state_at(f"game-{game_id}", version_of(game_id))
    return {state.table.cards[c].title for p in state.table.players if p.seat != seat for c in p.hand}


async def test_a_seat_catches_up_then_receives_each_new_event_once_in_order_redacted(table):
    game_id, seated = await sync_to_async(table)(2)
    (user0, client0), (user1, client1) = seated
    version = await sync_to_async(version_of)(game_id)
    socket = await connect(game_id, f"token={user1.api_token}&after=0")
    caught_up = await receive_events(socket, version)
    assert [e["version"] for e in caught_up] == list(range(1, version + 1))
    secrets = await sync_to_async(hidden_titles)(game_id, 1)
    assert not any(title in json.dumps(caught_up) for title in secrets)

    state = await sync_to_async(client0.get)(f"/api/v1/games/{game_id}/")
    seat = state.json()["turn"]["seat"]
    mover = seated[seat][1]
    response = await sync_to_async(mover.post)(f"/api/v1/games/{game_id}/commands/", {"type": "draw"}, format="json")
    assert response.status_code == 201
    new_version = response.json()["version"]
    live = await receive_events(socket, new_version - version)
    assert [e["version"] for e in live] == list(range(version + 1, new_version + 1))
    drawn = next(e for e in live if e["type"] == "card.drawn")
    assert ("card" in drawn["data"]) == (seat == 1)  # only the drawer learns which card
    assert await socket.receive_nothing(timeout=0.3)
    await socket.disconnect()


async def test_sockets_of_one_process_share_one_redaction_per_viewer_and_each_sees_only_its_own(table, make_user):
    """Two sockets of each seat and two spectators in one process: a draw is read and folded once, shown once per
    viewer (the drawer, the other seat, the spectators), each socket getting its own viewer's redaction."""
    from games.consumers import LiveHub

    game_id, seated = await sync_to_async(table)(2)
    watchers = [await sync_to_async(make_user)() for _ in range(2)]
    version = await sync_to_async(version_of)(game_id)
    users = [seated[0][0], seated[0][0], seated[1][0], seated[1][0], *watchers]
    sockets = [await connect(game_id, f"token={user.api_token}&after={version}") for user in users]

    state = (await sync_to_async(seated[0][1].get)(f"/api/v1/games/{game_id}/")).json()
    seat = state["turn"]["seat"]
    drew = await sync_to_async(seated[seat][1].post)(f"/api/v1/games/{game_id}/commands/", {"type": "draw"},
                                                     format="json")
    assert drew.status_code == 201
    new_version = drew.json()["version"]
    seen = [await receive_events(socket, new_version - version) for socket in sockets]
    drawn = [next(e for e in events if e["type"] == "card.drawn") for events in seen]
    card = drew.json()["events"][0]["data"]["card"]
    viewers = [0, 0, 1, 1, None, None]
    for viewer, event in zip(viewers, drawn, strict=True):
        assert (event["data"].get("card") == card) == (viewer == seat), (viewer, event)
        assert (card["title"] in json.dumps(event)) == (viewer == seat)
    assert seen[0] == seen[1] and seen[2] == seen[3] and seen[4] == seen[5]

    tail = LiveHub.tails_of_this_loop()[f"game-{game_id}"]
    assert len(tail.readers) == len(sockets)
    drawn_version = drawn[0]["version"]
    assert sorted((key[1] for key in tail.shown if key[0] == drawn_version), key=str) == [0, 1, None]
    for socket in sockets:
        await socket.disconnect()
    await wait_until(lambda: f"game-{game_id}" not in LiveHub.tails_of_this_loop())  # the last reader gone, it goes


async def test_a_socket_further_behind_than_the_shared_tail_catches_up_alone_then_follows(table, monkeypatch):
    from games.consumers import GameTail

    monkeypatch.setattr(GameTail, "KEEP", 2)
    game_id, seated = await sync_to_async(table)(2)
    (user0, client0), (user1, _) = seated
    ahead = await connect(game_id, f"token={user0.api_token}")  # keeps the tail at the game's version
    version = await sync_to_async(version_of)(game_id)
    await receive_events(ahead, version)
    behind = await connect(game_id, f"token={user1.api_token}&after=1")
    caught_up = await receive_events(behind, version - 1)
    assert [e["version"] for e in caught_up] == list(range(2, version + 1))
    secrets = await sync_to_async(hidden_titles)(game_id, 1)
    assert not any(title in json.dumps(caught_up) for title in secrets)

    seat = (await sync_to_async(client0.get)(f"/api/v1/games/{game_id}/")).json()["turn"]["seat"]
    drew = await sync_to_async(seated[seat][1].post)(f"/api/v1/games/{game_id}/commands/", {"type": "draw"},
                                                     format="json")
    new_version = drew.json()["version"]
    live = await receive_events(behind, new_version - version)
    assert [e["version"] for e in live] == list(range(version + 1, new_version + 1))
    for socket in (ahead, behind):
        await socket.disconnect()


async def test_reconnecting_with_after_fills_the_gap(table):
    game_id, seated = await sync_to_async(table)(2)
    user0, client0 = seated[0]
    socket = await connect(game_id, f"token={user0.api_token}&after=0")
    version = await sync_to_async(version_of)(game_id)
    await receive_events(socket, version)
    await socket.disconnect()

    state = (await sync_to_async(client0.get)(f"/api/v1/games/{game_id}/")).json()
    mover = seated[state["turn"]["seat"]][1]
    await sync_to_async(mover.post)(f"/api/v1/games/{game_id}/commands/", {"type": "draw"}, format="json")
    missed_up_to = await sync_to_async(version_of)(game_id)
    assert missed_up_to > version

    again = await connect(game_id, f"token={user0.api_token}&after={version}")
    filled = await receive_events(again, missed_up_to - version)
    assert [e["version"] for e in filled] == list(range(version + 1, missed_up_to + 1))
    assert await again.receive_nothing(timeout=0.3)
    await again.disconnect()


async def test_a_ticket_opens_a_socket_and_no_credential_is_refused(table):
    game_id, seated = await sync_to_async(table)(2)
    user0, client0 = seated[0]
    refused = WebsocketCommunicator(application, f"/ws/games/{game_id}/")
    assert await closed_with(refused) == 4401
    bad_token = WebsocketCommunicator(application, f"/ws/games/{game_id}/?token=not-a-token")
    assert await closed_with(bad_token) == 4401

    ticket = (await sync_to_async(client0.post)("/api/v1/auth/ticket/")).json()["ticket"]
    socket = await connect(game_id, f"ticket={ticket}")
    first = await socket.receive_json_from(timeout=5)
    assert first["event"]["version"] == 1
    await socket.disconnect()
    # Spent: the same URL, copied out of a log or a history, opens nothing, though the minute is not over.
    again = WebsocketCommunicator(application, f"/ws/games/{game_id}/?ticket={ticket}")
    assert await closed_with(again) == 4401


async def test_a_spectator_socket_sees_no_hand(table, make_user):
    game_id, seated = await sync_to_async(table)(3)
    watcher = await sync_to_async(make_user)("watcher")
    version = await sync_to_async(version_of)(game_id)
    socket = await connect(game_id, f"token={watcher.api_token}")
    events = await receive_events(socket, version)
    state = await sync_to_async(services.state_at)(f"game-{game_id}", version)
    every_hand = {state.table.cards[c].title for p in state.table.players for c in p.hand}
    every_id = {c for p in state.table.players for c in p.hand} | set(state.table.draw_pile)
    text = json.dumps(events)
    assert not any(title in text for title in every_hand)
    assert not any(card_id in text for card_id in every_id)
    await socket.disconnect()


async def test_an_unknown_game_closes_the_socket(make_user):
    user = await sync_to_async(make_user)()
    socket = WebsocketCommunicator(application, f"/ws/games/{'0' * 8}-0000-0000-0000-{'0' * 12}/?token={user.api_token}")
    assert await closed_with(socket) == 4404


async def test_a_socket_to_a_game_closed_to_spectators_is_closed_4403_for_anyone_not_seated(
        archive_deck, make_user, client_for):
    def private_game():
        deck = archive_deck(40)
        ann, bob = make_user(), make_user()
        created = client_for(ann).post("/api/v1/games/", {"deck": deck.slug, "options": {"spectators": "players"}},
                                       format="json")
        return created.json()["id"], ann, bob

    game_id, ann, bob = await sync_to_async(private_game)()
    refused = WebsocketCommunicator(application, f"/ws/games/{game_id}/?token={bob.api_token}")
    assert await closed_with(refused) == 4403
    seated = await connect(game_id, f"token={ann.api_token}&after=0")
    assert [e["type"] for e in await receive_events(seated, 2)] == ["game.created", "player.joined"]
    await seated.disconnect()


async def test_a_game_that_has_not_moved_lets_its_state_go_and_its_next_event_still_reaches_every_socket(table):
    from games.consumers import LiveHub

    game_id, seated = await sync_to_async(table)(2)
    version = await sync_to_async(version_of)(game_id)
    sockets = [await connect(game_id, f"token={user.api_token}&after={version}") for user, _ in seated]
    # The socket is accepted before it follows its game.
    tails = LiveHub.tails_of_this_loop
    await wait_until(lambda: f"game-{game_id}" in tails() and len(tails()[f"game-{game_id}"].readers) == 2)
    tail = tails()[f"game-{game_id}"]
    # Sockets opened at the game's version: the process read the version, not the state.
    assert tail.cold and tail.state is None and tail.version == version

    async def a_move_reaches_both() -> list[list[dict]]:
        before = tail.version
        client, move = await sync_to_async(first_move)(game_id, seated)
        answer = await sync_to_async(client.post)(f"/api/v1/games/{game_id}/commands/", move, format="json")
        assert answer.status_code == 201, answer.content
        seen = [await receive_events(socket, answer.json()["version"] - before) for socket in sockets]
        for events in seen:
            assert [e["version"] for e in events] == list(range(before + 1, answer.json()["version"] + 1))
        return seen

    await a_move_reaches_both()  # the state read at the first event, and folded on
    assert not tail.cold and tail.state is not None
    assert LiveHub.of_this_loop().cool_idle(0) >= 1
    assert tail.cold and tail.state is None and tail.version == await sync_to_async(version_of)(game_id)
    await a_move_reaches_both()  # read again, at the version it kept
    assert not tail.cold and tail.version == await sync_to_async(version_of)(game_id)
    for socket in sockets:
        await socket.disconnect()


def first_move(game_id, seated):
    """The first ordinary move the moves listing offers any seat, with nothing to choose: (its client, its body)."""
    return next((client, move) for _, client in seated
                for move in client.get(f"/api/v1/games/{game_id}/moves/").json()["moves"]
                if move["type"] in {"draw", "end_turn", "discard", "play"}
                and not any(isinstance(value, dict) for value in move.values()))
