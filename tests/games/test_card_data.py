"""A ruleset that needs values on its cards (a type from its own list, a number in ``stats``) says what it needs
through ``card_problems``: the archive refuses a deck naming it whose cards carry a value that cannot be right, and
accepts one still missing values (a curator enters them card by card); a game is created only once nothing is
missing, else 409 ``card_data_missing`` lists every problem, per card.

The ruleset here is this module's own: Odds and Evens, whose cards must be Fingers showing one to five.
"""

from __future__ import annotations

from typing import Any

import pytest

from dvorak_engine.ruleset import INVALID, MISSING, card_problem
from tests.engine.toy_ruleset import OddsAndEvensRuleset


class CountedFingers(OddsAndEvensRuleset):
    name = "counted_fingers"

    def card_problems(self, deck: dict) -> list[dict[str, Any]]:
        problems = []
        for index, card in enumerate(deck.get("cards", [])):
            if card.get("type") != "Finger":
                problems.append(card_problem(index, card, "type", INVALID, "A card here is a Finger."))
            fingers = card.get("stats", {}).get("fingers")
            if fingers is None:
                problems.append(card_problem(index, card, "stats.fingers", MISSING, "How many fingers it shows."))
            elif not isinstance(fingers, int) or not 1 <= fingers <= 5:
                problems.append(card_problem(index, card, "stats.fingers", INVALID, "One to five fingers."))
        return problems


RULESET = CountedFingers()


@pytest.fixture
def registered(monkeypatch):
    from dvorak_engine import rulesets

    monkeypatch.setitem(rulesets.REGISTERED, "counted_fingers", __name__)


def finger(title: str, **stats: Any) -> dict:
    return {"title": title, "type": "Finger", "text": "Show it.", "stats": stats}


def deck_body(*cards: dict) -> dict:
    return {"title": "Counted Fingers", "ruleset": "counted_fingers", "status": "playable", "cards": list(cards)}


@pytest.mark.django_db
def test_a_deck_may_lack_values_but_no_game_starts_until_every_card_has_them(registered, make_user, client_for):
    client = client_for(make_user("curator", curator=True))
    created = client.post("/api/v1/decks/", deck_body(finger("Thumb", fingers=1), finger("Pinkie"),
                                                      finger("Palm")), format="json")
    assert created.status_code == 201, created.content
    slug = created.json()["slug"]

    refused = client.post("/api/v1/games/", {"deck": slug, "max_players": 2}, format="json")
    assert refused.status_code == 409
    error = refused.json()["error"]
    assert error["code"] == "card_data_missing"
    assert "'Pinkie'" in error["message"] and "'Palm'" in error["message"]
    assert error["details"]["ruleset"] == "counted_fingers"
    assert [(p["card"], p["title"], p["field"], p["problem"]) for p in error["details"]["cards"]] == [
        (1, "Pinkie", "stats.fingers", "missing"), (2, "Palm", "stats.fingers", "missing")]
    assert client.get("/api/v1/games/").json()["count"] == 0

    # The curator enters the values card by card; then the game is created.
    cards = client.get(f"/api/v1/decks/{slug}/").json()["cards"]
    for card, fingers in zip(cards[1:], (5, 3), strict=True):
        changed = client.patch(f"/api/v1/decks/{slug}/cards/{card['id']}/", {"stats": {"fingers": fingers}},
                               format="json")
        assert changed.status_code == 200, changed.content
    assert client.post("/api/v1/games/", {"deck": slug, "max_players": 2}, format="json").status_code == 201


@pytest.mark.django_db
def test_the_archive_refuses_a_value_the_ruleset_cannot_play_wherever_it_comes_from(registered, make_user,
                                                                                    client_for):
    client = client_for(make_user("curator", curator=True))
    wrong = client.post("/api/v1/decks/", deck_body(finger("Thumb", fingers=1), finger("Sixth", fingers=6)),
                        format="json")
    assert wrong.status_code == 400
    assert "'Sixth'" in wrong.json()["error"]["message"]
    assert wrong.json()["error"]["details"]["cards"][0]["field"] == "stats.fingers"

    slug = client.post("/api/v1/decks/", deck_body(finger("Thumb", fingers=1)), format="json").json()["slug"]
    added = client.post(f"/api/v1/decks/{slug}/cards/", {"title": "Fist", "type": "Thing", "text": "Hold."},
                        format="json")
    assert added.status_code == 400 and added.json()["error"]["details"]["cards"][0]["field"] == "type"
    [thumb] = client.get(f"/api/v1/decks/{slug}/").json()["cards"]
    changed = client.patch(f"/api/v1/decks/{slug}/cards/{thumb['id']}/", {"stats": {"fingers": 0}}, format="json")
    assert changed.status_code == 400
    # Nothing of the refused writes was kept.
    [kept] = client.get(f"/api/v1/decks/{slug}/").json()["cards"]
    assert kept["stats"] == {"fingers": 1}


@pytest.mark.django_db
def test_a_deck_of_plain_dvorak_needs_nothing_more(make_user, client_for):
    client = client_for(make_user())
    created = client.post("/api/v1/decks/", {"title": "Plain", "cards": [
        {"title": f"Card {n}", "type": "Thing", "text": "Nothing."} for n in range(12)]}, format="json")
    assert created.status_code == 201, created.content
    game = client.post("/api/v1/games/", {"deck": created.json()["slug"], "max_players": 2}, format="json")
    assert game.status_code == 201, game.content
