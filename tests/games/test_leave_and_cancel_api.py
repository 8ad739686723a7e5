"""Leaving and cancelling an open game through the API, as a client does it (issue 34, "Live tables"):

    "`POST /games/{id}/leave/` frees a player's seat in an open game (the creator's leaving cancels it);
    `DELETE /games/{id}/` by the creator cancels an open game (204; the game then shows status `cancelled` and
    leaves the lobby). An active game is left by `concede`, as today."

Both go through the one command pipeline and are events of the stream, so replay and ``?at=N`` show them.
"""

import pytest

from tests.ccg.conftest import _tasks_run_eagerly, filibuster, filibuster_with_cards, players  # noqa: F401
from tests.ccg.test_ccg_games import build_deck, create_ccg_game

pytestmark = pytest.mark.django_db


def open_game(archive_deck, client, max_players: int = 4) -> str:
    created = client.post("/api/v1/games/", {"deck": archive_deck(20).slug, "max_players": max_players},
                          format="json")
    assert created.status_code == 201, created.content
    return created.json()["id"]


def join(client, game_id) -> None:
    answer = client.post(f"/api/v1/games/{game_id}/join/", {}, format="json")
    assert answer.status_code == 200, answer.content


def lobby(client, **query) -> list[str]:
    return [game["id"] for game in client.get("/api/v1/games/", query).json()["results"]]


def refusal(response, status: int, code: str) -> None:
    assert response.status_code == status, response.content
    assert response.json()["error"]["code"] == code


def test_a_player_leaves_an_open_table_and_their_seat_is_free_again(archive_deck, make_user, client_for):
    ann, bob, cat, dan = (client_for(make_user(name)) for name in ("ann", "bob", "cat", "dan"))
    game_id = open_game(archive_deck, ann)
    join(bob, game_id)
    join(cat, game_id)
    assert bob.get(f"/api/v1/games/{game_id}/moves/").json()["moves"] == [{"type": "leave"}]
    assert {"type": "cancel"} in ann.get(f"/api/v1/games/{game_id}/moves/").json()["moves"]

    left = bob.post(f"/api/v1/games/{game_id}/leave/")
    assert left.status_code == 204, left.content
    state = ann.get(f"/api/v1/games/{game_id}/").json()
    assert state["status"] == "open"
    assert [(p["seat"], p["username"]) for p in state["players"]] == [(0, "ann"), (1, "cat")]
    assert cat.get(f"/api/v1/games/{game_id}/").json()["you"] == 1
    assert bob.get(f"/api/v1/games/{game_id}/").json()["you"] is None
    assert game_id not in lobby(bob, mine=1) and game_id in lobby(cat, mine=1)
    events = ann.get(f"/api/v1/games/{game_id}/events/").json()["events"]
    assert (events[-1]["type"], events[-1]["data"], events[-1]["actor"]) == ("player.left", {"seat": 1}, "bob")
    # ?at=N shows the table before the leaving.
    before = ann.get(f"/api/v1/games/{game_id}/", {"at": events[-1]["version"] - 1}).json()
    assert [p["username"] for p in before["players"]] == ["ann", "bob", "cat"]

    refusal(bob.post(f"/api/v1/games/{game_id}/leave/"), 403, "forbidden")  # no seat to leave now
    join(dan, game_id)  # the seat freed is taken
    join(bob, game_id)  # and the leaver may sit down again
    state = ann.get(f"/api/v1/games/{game_id}/").json()
    assert [(p["seat"], p["username"]) for p in state["players"]] == [(0, "ann"), (1, "cat"), (2, "dan"), (3, "bob")]
    assert ann.post(f"/api/v1/games/{game_id}/start/").status_code == 200
    # "An active game is left by `concede`, as today."
    refusal(cat.post(f"/api/v1/games/{game_id}/leave/"), 409, "game_not_open")
    refusal(ann.delete(f"/api/v1/games/{game_id}/"), 409, "game_not_open")
    conceded = cat.post(f"/api/v1/games/{game_id}/commands/", {"type": "concede"}, format="json")
    assert conceded.status_code == 201, conceded.content


def test_the_creator_cancels_an_open_game_which_leaves_the_lobby(archive_deck, make_user, client_for):
    ann, bob, eve = (client_for(make_user(name)) for name in ("ann", "bob", "eve"))
    game_id = open_game(archive_deck, ann)
    join(bob, game_id)
    assert game_id in lobby(eve, status="open")

    refusal(bob.delete(f"/api/v1/games/{game_id}/"), 403, "forbidden")  # a player, not the creator
    refusal(eve.delete(f"/api/v1/games/{game_id}/"), 403, "forbidden")  # not at the table
    refusal(ann.delete("/api/v1/games/00000000-0000-0000-0000-000000000000/"), 404, "not_found")
    cancelled = ann.delete(f"/api/v1/games/{game_id}/")
    assert cancelled.status_code == 204, cancelled.content

    for client in (ann, bob, eve):
        assert client.get(f"/api/v1/games/{game_id}/").json()["status"] == "cancelled"
        assert client.get(f"/api/v1/games/{game_id}/moves/").json()["moves"] == []
    assert game_id not in lobby(eve, status="open")
    assert game_id in lobby(eve, status="cancelled")
    events = eve.get(f"/api/v1/games/{game_id}/events/").json()["events"]
    assert (events[-1]["type"], events[-1]["data"]) == ("game.cancelled", {"by": 0})
    refusal(eve.post(f"/api/v1/games/{game_id}/join/", {}, format="json"), 409, "game_not_open")
    refusal(ann.post(f"/api/v1/games/{game_id}/start/"), 409, "game_not_open")
    refusal(ann.delete(f"/api/v1/games/{game_id}/"), 409, "game_not_open")
    refusal(bob.post(f"/api/v1/games/{game_id}/leave/"), 409, "game_not_open")


def test_the_creators_leaving_cancels_the_game(archive_deck, make_user, client_for):
    ann, bob = (client_for(make_user(name)) for name in ("ann", "bob"))
    game_id = open_game(archive_deck, ann)
    join(bob, game_id)
    assert ann.post(f"/api/v1/games/{game_id}/leave/").status_code == 204
    assert bob.get(f"/api/v1/games/{game_id}/").json()["status"] == "cancelled"
    assert game_id not in lobby(bob, status="open")


def test_leave_and_cancel_are_commands_of_the_one_pipeline(archive_deck, make_user, client_for):
    """The same commands sent as JSON commands: the same events, the same rows."""
    ann, bob = (client_for(make_user(name)) for name in ("ann", "bob"))
    game_id = open_game(archive_deck, ann)
    join(bob, game_id)
    left = bob.post(f"/api/v1/games/{game_id}/commands/", {"type": "leave"}, format="json")
    assert left.status_code == 201 and left.json()["events"][0]["type"] == "player.left"
    assert game_id not in lobby(bob, mine=1)
    cancelled = ann.post(f"/api/v1/games/{game_id}/commands/", {"type": "cancel"}, format="json")
    assert cancelled.status_code == 201 and cancelled.json()["events"][0]["type"] == "game.cancelled"
    assert game_id in lobby(ann, status="cancelled")


def in_game(client, deck_id: int) -> bool:
    return client.get(f"/api/v1/player-decks/{deck_id}/").json()["in_game"]


def test_a_ccg_player_deck_is_free_again_when_its_player_leaves_or_the_game_is_cancelled(
        filibuster_with_cards, players):  # noqa: F811
    (_, ann), (_, bob) = players
    ann_deck = build_deck(ann, filibuster_with_cards, "Ann's filibusters")
    bob_deck = build_deck(bob, filibuster_with_cards, "Bob's gambits")
    game_id = create_ccg_game(ann, ann_deck["id"], formal=False).json()["id"]
    joined = bob.post(f"/api/v1/games/{game_id}/join/", {"player_deck": bob_deck["id"]}, format="json")
    assert joined.status_code == 200, joined.content
    assert in_game(ann, ann_deck["id"]) and in_game(bob, bob_deck["id"])

    assert bob.post(f"/api/v1/games/{game_id}/leave/").status_code == 204
    assert not in_game(bob, bob_deck["id"]) and in_game(ann, ann_deck["id"])
    # No card id of the leaver's deck is shown by the leaving.
    events = ann.get(f"/api/v1/games/{game_id}/events/").json()["events"]
    assert events[-1]["data"] == {"seat": 1}

    assert ann.delete(f"/api/v1/games/{game_id}/").status_code == 204
    assert not in_game(ann, ann_deck["id"])
