"""Odds and Evens, the eighth game, through the real API: added as its package and one registry line, it is
created, joined, started, listed in the moves and played to its end like every other, its pending throws secret."""

from __future__ import annotations

import json

import pytest

from decks import services as deck_services
from tests.seeds import seed_deck_json

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(make_user, client_for):
    deck_services.deck_import(author=None, text=seed_deck_json("socialism"), format="json")
    ann, bob, cat = (client_for(make_user(name)) for name in ("ann", "bob", "cat"))
    created = ann.post("/api/v1/games/", {"deck": "socialism", "ruleset": "odds_and_evens",
                                          "options": {"target": 2}}, format="json")
    assert created.status_code == 201, created.content
    game_id = created.json()["id"]
    assert bob.post(f"/api/v1/games/{game_id}/join/", {}, format="json").status_code == 200
    assert ann.post(f"/api/v1/games/{game_id}/start/").status_code == 200
    return game_id, ann, bob, cat


def throw(client, game_id, fingers):
    return client.post(f"/api/v1/games/{game_id}/commands/", {"type": "throw", "fingers": fingers}, format="json")


def test_a_throw_is_secret_until_both_are_in_and_the_sum_scores_for_its_parity(table):
    game_id, ann, bob, cat = table
    assert bob.get(f"/api/v1/games/{game_id}/moves/").json()["moves"] == [
        {"type": "throw", "fingers": {"choose": 1, "from": [1, 2, 3, 4, 5], "list": False}}]
    assert throw(ann, game_id, 3).status_code == 201
    for viewer in (bob, cat):
        body = json.dumps([viewer.get(f"/api/v1/games/{game_id}/").json(),
                           viewer.get(f"/api/v1/games/{game_id}/events/").json()])
        assert '"choice": 3' not in body and '"fingers"' not in body
    assert ann.get(f"/api/v1/games/{game_id}/").json()["choices"]["made"] == [{"seat": 0, "choice": 3}]
    again = throw(ann, game_id, 2)
    assert again.status_code == 409, again.content

    answer = throw(bob, game_id, 2)
    assert answer.status_code == 201
    won = next(event for event in answer.json()["events"] if event["type"] == "round.won")
    assert won["data"] == {"seat": 0, "sum": 5}  # odd: Odds, seat 0
    board = cat.get(f"/api/v1/games/{game_id}/").json()
    assert [(score["side"], score["points"]) for score in board["scores"]] == [("odds", 1), ("evens", 0)]
    assert board["sums"] == [5] and all("throws" not in score for score in board["scores"])
    assert ann.get(f"/api/v1/games/{game_id}/").json()["scores"][0]["throws"] == [3]


def test_the_first_to_the_target_wins_and_a_bad_throw_is_refused(table):
    game_id, ann, bob, _ = table
    refused = throw(ann, game_id, 6)
    assert refused.status_code == 400 and "fingers" in refused.json()["error"]["details"]
    for _ in range(2):
        assert throw(ann, game_id, 1).status_code == 201
        assert throw(bob, game_id, 2).status_code == 201
    state = bob.get(f"/api/v1/games/{game_id}/").json()
    assert (state["status"], state["winners"]) == ("finished", [0])
    assert bob.get(f"/api/v1/games/{game_id}/moves/").json()["moves"] == []


def test_a_target_out_of_range_is_refused(make_user, client_for):
    deck_services.deck_import(author=None, text=seed_deck_json("socialism"), format="json")
    answer = client_for(make_user("ann")).post(
        "/api/v1/games/", {"deck": "socialism", "ruleset": "odds_and_evens", "options": {"target": 0}}, format="json")
    assert answer.status_code == 400 and answer.json()["error"]["details"]["field"] == "options.target"
