"""Rock Paper Scissors Extreme, played by the server through the real API: created from its seed deck, a throw
hidden from the opponent until both are in (state, events, moves, websocket), a whole game played by the moves
the API offers, and every past state rebuilt from the events alone."""

from __future__ import annotations

import json
import random

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator

import dvorak_engine as engine
from dvorak_kit.eventstore import store
from dvorak_site.asgi import application
from games import services
from tests.engine.test_legal_moves import filled
from tests.seeds import seed_deck_json

SLUG = "rock-paper-scissors-extreme-deck"
NAME = "rock_paper_scissors_extreme"


@pytest.fixture
def rps_deck(db):
    from decks import services as deck_services

    [deck] = deck_services.deck_import(author=None, text=seed_deck_json(SLUG), format="json")
    return deck


@pytest.fixture
def rps_game(rps_deck, make_user, client_for):
    """A started game from the seed deck: (game id, [client of seat 0, client of seat 1])."""
    ann, bob = (client_for(make_user(name)) for name in ("ann", "bob"))
    created = ann.post("/api/v1/games/", {"deck": SLUG, "max_players": 2}, format="json")
    assert created.status_code == 201, created.content
    game_id = created.json()["id"]
    assert bob.post(f"/api/v1/games/{game_id}/join/", {}, format="json").status_code == 200
    assert ann.post(f"/api/v1/games/{game_id}/start/").status_code == 200
    return game_id, [ann, bob]


def send(client, game_id, command, status=201):
    response = client.post(f"/api/v1/games/{game_id}/commands/", command, format="json")
    assert response.status_code == status, (command, response.content)
    return response.json()


def moves_of(client, game_id) -> dict:
    response = client.get(f"/api/v1/games/{game_id}/moves/")
    assert response.status_code == 200, response.content
    return response.json()


def socket_events(game_id, token: str, count: int) -> list[dict]:
    """The first ``count`` events the websocket sends this user."""

    async def receive() -> list[dict]:
        socket = WebsocketCommunicator(application, f"/ws/games/{game_id}/?token={token}")
        assert (await socket.connect(timeout=5))[0]
        events = [(await socket.receive_json_from(timeout=5))["event"] for _ in range(count)]
        await socket.disconnect()
        return events

    return async_to_sync(receive)()


def token_of(client) -> str:
    return client._credentials["HTTP_AUTHORIZATION"].split()[1]


# --- creating --------------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_seed_deck_creates_a_game_of_its_own_ruleset(rps_deck, make_user, client_for):
    ann = client_for(make_user("ann"))
    created = ann.post("/api/v1/games/", {"deck": SLUG, "max_players": 2}, format="json")
    assert created.status_code == 201, created.content
    game = created.json()
    assert game["ruleset"] == NAME and game["status"] == "open" and game["you"] == 0 and game["board"] is None
    assert game["players"] == [{"seat": 0, "username": "ann", "team": None, "status": "playing",
                                "counters": {"points": 0}}]
    assert game["winners"] == [] and game["deck"] == {"slug": SLUG, "title": "Rock Paper Scissors Extreme deck"}
    assert moves_of(ann, game["id"]) == {"version": 2, "moves": [{"type": "cancel"}]}  # alone: no start yet


@pytest.mark.django_db
def test_a_deck_the_rules_cannot_read_is_refused_with_409_and_the_list(archive_deck, make_user, client_for):
    deck = archive_deck(3)
    client = client_for(make_user())
    titles = sorted(card["title"] for card in client.get(f"/api/v1/decks/{deck.slug}/").json()["cards"])
    refused = client.post("/api/v1/games/", {"deck": deck.slug, "ruleset": NAME, "max_players": 2}, format="json")
    assert refused.status_code == 409
    error = refused.json()["error"]
    assert error["code"] == "denied" and error["details"]["cards"] == titles and len(titles) == 3
    assert client.get("/api/v1/games/?mine=1").json()["count"] == 0


@pytest.mark.django_db
def test_a_third_player_is_refused_and_seat_0_starts(rps_deck, make_user, client_for):
    ann, bob, cy = (client_for(make_user(name)) for name in ("ann", "bob", "cy"))
    game_id = ann.post("/api/v1/games/", {"deck": SLUG, "max_players": 2}, format="json").json()["id"]
    assert bob.post(f"/api/v1/games/{game_id}/join/", {}, format="json").status_code == 200
    full = cy.post(f"/api/v1/games/{game_id}/join/", {}, format="json")
    assert full.status_code == 409 and full.json()["error"]["code"] == "limit_reached"
    assert moves_of(ann, game_id)["moves"] == [{"type": "start"}, {"type": "cancel"}]
    assert moves_of(bob, game_id)["moves"] == [{"type": "leave"}]
    started = ann.post(f"/api/v1/games/{game_id}/start/").json()
    assert started["status"] == "active" and started["board"]["phase"] == "throw"
    assert len(started["board"]["center"]) == 3 and started["board"]["supply"] == {"count": 27}


# --- secret throws ---------------------------------------------------------------------------------------------


def without(body: dict, *keys: str) -> dict:
    return {key: value for key, value in body.items() if key not in keys}


@pytest.mark.django_db(transaction=True)
def test_a_throw_is_hidden_from_the_opponent_until_both_are_in(rps_game, make_user, client_for):
    game_id, (ann, bob) = rps_game
    watcher = client_for(make_user("watcher"))
    bob_before = bob.get(f"/api/v1/games/{game_id}/").json()

    answer = send(ann, game_id, {"type": "throw", "sign": "paper"})
    [thrown] = answer["events"]
    assert thrown["type"] == "rpsx.thrown" and thrown["data"] == {"seat": 0, "sign": "paper"}
    assert ann.get(f"/api/v1/games/{game_id}/").json()["board"]["throws"] == [{"seat": 0, "sign": "paper"}]
    assert moves_of(ann, game_id)["moves"] == []

    version = answer["version"]
    for client, seat in ((bob, 1), (watcher, None)):
        state = client.get(f"/api/v1/games/{game_id}/").json()
        assert state["board"]["throws"] == [{"seat": 0}]
        assert state["board"]["waiting_for"] == [1]
        if seat == 1:
            # Ann's throw changed nothing else Bob can see.
            board = without(state["board"], "throws", "waiting_for")
            assert without(state, "version", "board") == without(bob_before, "version", "board")
            assert board == without(bob_before["board"], "throws", "waiting_for")
        events = client.get(f"/api/v1/games/{game_id}/events/").json()["events"]
        assert events[-1] == {**thrown, "data": {"seat": 0}}
        assert "paper" not in json.dumps([e["data"] for e in events if e["type"] == "rpsx.thrown"])
        moves = json.dumps(moves_of(client, game_id))
        assert "paper" not in moves.replace('["rock", "paper", "scissors"]', "")
        live = socket_events(game_id, token_of(client), version)
        assert live[-1]["type"] == "rpsx.thrown" and live[-1]["data"] == {"seat": 0}
    assert moves_of(bob, game_id)["moves"] == [
        {"type": "throw", "sign": {"choose": 1, "from": ["rock", "paper", "scissors"], "list": False}}]

    answer = send(bob, game_id, {"type": "throw", "sign": "scissors"})
    revealed = next(e for e in answer["events"] if e["type"] == "rpsx.revealed")
    both = [{"seat": 0, "sign": "paper"}, {"seat": 1, "sign": "scissors"}]
    assert revealed["data"] == {"throws": both}
    for client in (ann, bob, watcher):
        events = client.get(f"/api/v1/games/{game_id}/events/").json()["events"]
        assert next(e for e in events if e["type"] == "rpsx.revealed")["data"] == {"throws": both}
        assert next(e for e in events if e["type"] == "rpsx.won")["data"] == {"seat": 1, "sign": "scissors"}
    assert ann.get(f"/api/v1/games/{game_id}/").json()["board"]["revealed"] == both


@pytest.mark.django_db
def test_malformed_commands_are_400_invalid_and_change_nothing(rps_game):
    game_id, (ann, _) = rps_game
    version = ann.get(f"/api/v1/games/{game_id}/").json()["version"]
    for body in ({"type": "throw"}, {"type": "throw", "sign": 5}, {"type": "throw", "sign": ["rock"]},
                 {"type": "drink", "potion": {}}, {"type": "drink", "potion": "x", "simulate": 1},
                 {"type": "claim", "choice": [1]}, {"type": "claim", "choice": "take", "break": 2},
                 {"type": "draw", "card": 3}, {"type": "discard", "cards": "x"}, {"type": "discard", "cards": [1, 2]},
                 {"type": "discard", "card": "x"}):
        error = send(ann, game_id, body, status=400)["error"]
        assert error["code"] == "invalid", (body, error)
    wrong = send(ann, game_id, {"type": "claim", "choice": "take"}, status=409)["error"]
    assert wrong["code"] == "wrong_stage"
    unknown = send(ann, game_id, {"type": "end_turn"}, status=400)["error"]
    assert unknown["code"] == "unknown_command"
    assert ann.get(f"/api/v1/games/{game_id}/").json()["version"] == version


@pytest.mark.django_db
def test_the_mush_text_commands_refuse_a_game_without_a_table_of_dvorak_cards(rps_game):
    game_id, (ann, _) = rps_game
    answer = ann.post(f"/api/v1/games/{game_id}/mush/", {"line": "viewall"}, format="json")
    error = answer.json()["error"]
    assert answer.status_code == 400 and error["code"] == "mush_command_unavailable"
    assert error["message"].startswith("'viewall' is not available for this ruleset")
    assert error["details"]["available"] == ["help"]


# --- a whole game ----------------------------------------------------------------------------------------------


def play_by_moves(game_id, clients, chooser: random.Random, max_commands: int = 3000) -> int:
    """Each step, one seat with moves sends one of them, its choices filled at random: every one is accepted."""
    for sent in range(max_commands):
        offers = [(client, moves_of(client, game_id)) for client in clients]
        offers = [(client, answer) for client, answer in offers if answer["moves"]]
        if not offers:
            return sent
        client, answer = chooser.choice(offers)
        command = filled(chooser.choice(answer["moves"]), chooser)
        response = client.post(f"/api/v1/games/{game_id}/commands/", command, format="json",
                               HTTP_IF_MATCH=f'"{answer["version"]}"')
        assert response.status_code == 201, (command, response.content)
    pytest.fail("the game did not end")


@pytest.mark.django_db
def test_a_whole_game_by_the_offered_moves_ends_with_a_winner_at_21_and_replays(unthrottled, rps_game):
    game_id, clients = rps_game
    sent = play_by_moves(game_id, clients, random.Random(11))
    final = clients[0].get(f"/api/v1/games/{game_id}/").json()
    assert final["status"] == "finished" and sent > 10
    points = {p["seat"]: p["counters"]["points"] for p in final["players"]}
    assert max(points.values()) >= 21
    assert final["winners"] == [seat for seat, n in points.items() if n == max(points.values())]
    assert final["board"]["winners"] == final["winners"]
    assert all(moves_of(client, game_id)["moves"] == [] for client in clients)

    # Every past state, as the API shows it with ?at=N (from snapshots where there are), is the events folded anew.
    stream_id = f"game-{game_id}"
    recorded = store.read(stream_id, after=0)
    version = recorded[-1].version
    assert version > services.settings.EVENTSTORE_SNAPSHOT_EVERY  # so some ?at=N start from a snapshot
    state = None
    fresh = []
    for event in recorded:
        state = engine.evolve(state, services.to_engine_event(event))
        fresh.append(state)
    services.STATE_CACHE.clear()
    for at in sorted({1, 3, 7, version // 3, version // 2, version - 1, version, *random.Random(3).sample(
            range(1, version + 1), 8)}):
        for seat, client in enumerate(clients):
            viewer = seat if seat < len(fresh[at - 1].seats) else None  # Bob has no seat before he joins
            shown = client.get(f"/api/v1/games/{game_id}/?at={at}").json()
            assert shown == json.loads(json.dumps({"id": game_id, **engine.view_state(fresh[at - 1], viewer)})), at
    _, replayed = store.load(stream_id, services.FOLDER, use_snapshots=False)
    assert replayed == fresh[-1] == services.state_at(stream_id, version)
