"""GET /games/{id}/moves/: a client that knows only the API plays by the moves it is offered.

Also: a game added as a ruleset of its own (the toy Odds and Evens, registered by one line) plays through the same
API, views and moves, with its secret choices hidden, and nothing else changed.
"""

from __future__ import annotations

import json
import random

import pytest

from tests.engine.test_legal_moves import filled
from tests.seeds import seed_deck_json


def moves_of(client, game_id) -> dict:
    response = client.get(f"/api/v1/games/{game_id}/moves/")
    assert response.status_code == 200, response.content
    return response.json()


def play_by_moves(game_id, seated, chooser: random.Random, *, steps: int) -> int:
    """Each step, a seat with moves sends one of them at random, choices filled: every one must be accepted."""
    sent = 0
    for _ in range(steps):
        offers = [(client, moves_of(client, game_id)) for _, client in seated]
        # Giving a game up (``abandon``) is each player's own choice: these players play it on.
        offers = [(client, {**answer, "moves": [m for m in answer["moves"] if m["type"] != "abandon"]})
                  for client, answer in offers]
        offers = [(client, answer) for client, answer in offers if answer["moves"]]
        if not offers:
            break
        client, answer = chooser.choice(offers)
        command = filled(chooser.choice(answer["moves"]), chooser)
        response = client.post(f"/api/v1/games/{game_id}/commands/", command, format="json",
                               HTTP_IF_MATCH=f'"{answer["version"]}"')
        assert response.status_code == 201, (command, response.content)
        sent += 1
    return sent


@pytest.mark.django_db
def test_a_dvorak_game_is_played_by_the_moves_the_api_offers(table, make_user, client_for):
    game_id, seated = table(3)
    assert play_by_moves(game_id, seated, random.Random(4), steps=60) == 60
    state = seated[0][1].get(f"/api/v1/games/{game_id}/").json()
    assert state["version"] > 60


@pytest.mark.django_db
def test_moves_name_only_cards_their_seat_may_see_and_none_for_a_spectator(table, make_user, client_for):
    game_id, seated = table(2)
    visible = []
    for seat, (_, client) in enumerate(seated):
        state = client.get(f"/api/v1/games/{game_id}/").json()
        others = [c["id"] for p in state["players"] if p["seat"] != seat for c in p.get("hand", [])]
        assert others == []
        visible.append({c["id"] for c in state["players"][seat]["hand"]})
    for seat, (_, client) in enumerate(seated):
        text = json.dumps(moves_of(client, game_id))
        assert not any(card_id in text for card_id in visible[1 - seat])
    spectator = client_for(make_user("watcher"))
    assert moves_of(spectator, game_id)["moves"] == []


@pytest.mark.django_db
def test_moves_of_an_article_ii_game_are_all_accepted_to_the_end(make_user, client_for):
    from decks import services as deck_services

    [deck] = deck_services.deck_import(author=None, text=seed_deck_json("article-ii-updated"), format="json")
    seated = [(user, client_for(user)) for user in (make_user(name) for name in ("ann", "bob"))]
    game_id = seated[0][1].post("/api/v1/games/", {"deck": deck.slug, "max_players": 2}, format="json").json()["id"]
    assert seated[1][1].post(f"/api/v1/games/{game_id}/join/", {}, format="json").status_code == 200
    assert seated[0][1].post(f"/api/v1/games/{game_id}/start/").status_code == 200
    play_by_moves(game_id, seated, random.Random(2), steps=200)
    final = seated[0][1].get(f"/api/v1/games/{game_id}/").json()
    assert final["status"] == "finished"
    assert moves_of(seated[0][1], game_id)["moves"] == moves_of(seated[1][1], game_id)["moves"] == []


@pytest.mark.django_db
def test_an_unknown_game_has_no_moves(make_user, client_for):
    response = client_for(make_user()).get("/api/v1/games/00000000-0000-0000-0000-000000000000/moves/")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


@pytest.mark.django_db
def test_a_new_ruleset_plays_through_the_api_with_its_secret_choices_hidden(
        monkeypatch, archive_deck, make_user, client_for):
    from dvorak_engine import rulesets

    monkeypatch.setitem(rulesets.REGISTERED, "odds_and_evens", "tests.engine.toy_ruleset")
    deck = archive_deck(5)
    odd, even = (client_for(make_user(name)) for name in ("odd", "even"))
    created = odd.post("/api/v1/games/", {"deck": deck.slug, "ruleset": "odds_and_evens", "max_players": 2},
                       format="json")
    assert created.status_code == 201, created.content
    game_id = created.json()["id"]
    assert even.post(f"/api/v1/games/{game_id}/join/", {}, format="json").status_code == 200
    assert odd.post(f"/api/v1/games/{game_id}/start/").status_code == 200

    [throw] = moves_of(even, game_id)["moves"]
    assert throw == {"type": "throw", "fingers": {"choose": 1, "from": [1, 2, 3, 4, 5], "list": False}}
    answer = even.post(f"/api/v1/games/{game_id}/commands/", {"type": "throw", "fingers": 4}, format="json")
    assert answer.status_code == 201
    assert answer.json()["events"][-1]["data"] == {"seat": 1, "choice": 4}
    # Before odd throws, nothing odd can read says what even threw.
    for body in (odd.get(f"/api/v1/games/{game_id}/").json(), odd.get(f"/api/v1/games/{game_id}/events/").json()):
        assert '"choice": 4' not in json.dumps(body) and "memo" not in json.dumps(body)
    assert odd.get(f"/api/v1/games/{game_id}/").json()["choices"] == {"waiting_for": [0], "made": [{"seat": 1}]}
    assert moves_of(even, game_id)["moves"] == []

    answer = odd.post(f"/api/v1/games/{game_id}/commands/", {"type": "throw", "fingers": 1}, format="json")
    shown = {event["type"]: event["data"] for event in answer.json()["events"]}
    assert shown["choices.revealed"] == {"choices": {"0": 1, "1": 4}}
    assert shown["round.won"] == {"seat": 0, "sum": 5}
    assert "memo" not in json.dumps(even.get(f"/api/v1/games/{game_id}/events/").json())
    # The MUSH text commands read a table of cards, which this game has not: a refusal, not a failure, judged
    # from what the ruleset declares although nothing names it.
    mush = odd.post(f"/api/v1/games/{game_id}/mush/", {"line": "viewdisc"}, format="json")
    assert mush.status_code == 400 and mush.json()["error"]["code"] == "mush_command_unavailable"
    assert mush.json()["error"]["message"].startswith("'viewdisc' is not available for this ruleset")


@pytest.mark.django_db
@pytest.mark.parametrize("deck, ruleset", [
    ("rock-paper-scissors-extreme-deck", "rock_paper_scissors_extreme"),
    ("article-ii", "article_ii"),
    ("socialism", "dvorak"),
])
def test_seat_zero_is_offered_start_once_the_table_may_start_whatever_the_ruleset(make_user, client_for, deck,
                                                                                  ruleset):
    from decks import services as deck_services
    from tests.seeds import seed_deck_json

    deck_services.deck_import(author=None, text=seed_deck_json(deck), format="json")
    ann, bob = client_for(make_user("ann")), client_for(make_user("bob"))
    game_id = ann.post("/api/v1/games/", {"deck": deck, "ruleset": ruleset, "max_players": 2},
                       format="json").json()["id"]
    assert moves_of(ann, game_id)["moves"] == [{"type": "cancel"}]  # alone at the table: give it up, or wait
    bob.post(f"/api/v1/games/{game_id}/join/", {}, format="json")
    assert moves_of(ann, game_id)["moves"] == [{"type": "start"}, {"type": "cancel"}]
    assert moves_of(bob, game_id)["moves"] == [{"type": "leave"}]
    started = ann.post(f"/api/v1/games/{game_id}/commands/", {"type": "start"}, format="json")
    assert started.status_code == 201, started.content
