"""Player decks: built from a set's cards, checked against its rules, tuned between games but never during one."""

from __future__ import annotations

import pytest

from ccg.selectors import min_deck_size
from ccg.services import player_deck_mark_in_game, player_deck_release
from decks import services as archive
from dvorak_core.deckdata import CardData, DeckData, SpecialRuleData
from tests.ccg.conftest import FILIBUSTER

pytestmark = pytest.mark.django_db


def build(client, cards: dict[str, dict], counts: dict[str, int], name: str = "Campaign Trail") -> dict:
    body = {"card_set": FILIBUSTER, "name": name,
            "entries": [{"card": cards[title]["id"], "count": count} for title, count in counts.items()]}
    answer = client.post("/api/v1/player-decks/", body, format="json")
    assert answer.status_code == 201, answer.json()
    return answer.json()


def test_a_deck_of_fewer_than_twenty_cards_is_not_valid_and_says_why(filibuster_with_cards, players):
    (_, ann), _ = players
    deck = build(ann, filibuster_with_cards, {"Stump Speech": 5, "Pork Barrel": 4})
    assert deck["size"] == 9 and deck["valid"] is False and deck["version"] == 2
    assert deck["problems"] == ["A deck of this set has at least 20 cards; this one has 9."]


def test_any_number_of_copies_of_a_card_makes_a_valid_deck(filibuster_with_cards, players):
    (_, ann), _ = players
    deck = build(ann, filibuster_with_cards, {"Pork Barrel": 20})
    assert deck["valid"] is True and deck["problems"] == [] and deck["size"] == 20
    assert deck["entries"] == [{"card": filibuster_with_cards["Pork Barrel"]["id"], "count": 20,
                                "title": "Pork Barrel", "type": "Gambit", "text": "Gain 10 points.", "flavor": "",
                                "corner_value": "4", "creator": "", "stats": {}}]


@pytest.mark.parametrize(("text", "least"), [
    ("Players build decks of at least 40 cards.", 40),
    ("A deck must contain at least thirty cards, and no more than four copies of one card.", 30),
    ("Play with 15-card decks.", 15),
    ("The first player to get 200 points wins.", 20),
])
def test_the_sets_special_rules_may_change_the_smallest_deck(text, least):
    assert min_deck_size([{"title": "", "text": text}]) == least


def test_a_set_whose_special_rules_ask_for_larger_decks(players):
    rules = (SpecialRuleData(title="Decks", text="Players build decks of at least 30 cards."),)
    archive.deck_create(author=None, data=DeckData(slug="big-set", title="Big Set", kind="card_set",
                                                   special_rules=rules, cards=(CardData(title="Brick"),)))
    (_, ann), _ = players
    brick = ann.get("/api/v1/decks/big-set/versions/1/").json()["cards"][0]["id"]
    answer = ann.post("/api/v1/player-decks/", {"card_set": "big-set", "name": "Wall",
                                                "entries": [{"card": brick, "count": 25}]}, format="json")
    assert answer.json()["problems"] == ["A deck of this set has at least 30 cards; this one has 25."]


def test_a_card_from_outside_the_set_is_refused(filibuster_with_cards, players):
    (_, ann), _ = players
    answer = ann.post("/api/v1/player-decks/", {"card_set": FILIBUSTER, "name": "Forged",
                                                "entries": [{"card": 987654, "count": 20}]}, format="json")
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "invalid"


def test_tuning_adds_and_takes_out_copies(filibuster_with_cards, players):
    (_, ann), _ = players
    cards = filibuster_with_cards
    deck = build(ann, cards, {"Pork Barrel": 12})
    tuned = ann.patch(f"/api/v1/player-decks/{deck['id']}/", {"entries": [
        {"card": cards["Pork Barrel"]["id"], "count": 8}, {"card": cards["Talking Point"]["id"], "count": 12},
    ]}, format="json").json()
    assert tuned["size"] == 20 and tuned["valid"] is True
    assert {entry["title"]: entry["count"] for entry in tuned["entries"]} == {"Pork Barrel": 8, "Talking Point": 12}


def test_tuning_is_refused_while_the_deck_is_in_a_game_and_allowed_after(filibuster_with_cards, players):
    (_, ann), _ = players
    cards = filibuster_with_cards
    deck = build(ann, cards, {"Pork Barrel": 20})
    player_deck_mark_in_game(player_deck_id=deck["id"], game_id="game-1")
    tune = {"entries": [{"card": cards["Talking Point"]["id"], "count": 20}]}
    refused = ann.patch(f"/api/v1/player-decks/{deck['id']}/", tune, format="json")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "deck_in_game"
    assert ann.delete(f"/api/v1/player-decks/{deck['id']}/").status_code == 409
    assert ann.get(f"/api/v1/player-decks/{deck['id']}/").json()["entries"][0]["title"] == "Pork Barrel"
    player_deck_release(player_deck_id=deck["id"], game_id="game-1")
    tuned = ann.patch(f"/api/v1/player-decks/{deck['id']}/", tune, format="json")
    assert tuned.status_code == 200 and tuned.json()["entries"][0]["title"] == "Talking Point"


def test_a_deck_is_its_owners_alone(filibuster_with_cards, players, api_client):
    (_, ann), (_, bob) = players
    deck = build(ann, filibuster_with_cards, {"Pork Barrel": 20})
    # Someone else's deck answers exactly as a deck that does not exist, so an id confirms nothing.
    missing = bob.get("/api/v1/player-decks/999999/").json()["error"]
    for answer in (bob.get(f"/api/v1/player-decks/{deck['id']}/"),
                   bob.patch(f"/api/v1/player-decks/{deck['id']}/", {"name": "Mine now"}, format="json"),
                   bob.delete(f"/api/v1/player-decks/{deck['id']}/"),
                   bob.post(f"/api/v1/player-decks/{deck['id']}/update/", {}, format="json")):
        assert answer.status_code == 404 and answer.json()["error"]["code"] == missing["code"] == "not_found"
        assert answer.json()["error"]["message"] == f"There is no player deck {deck['id']}."
    assert ann.get(f"/api/v1/player-decks/{deck['id']}/").json()["name"] == "Campaign Trail"
    assert api_client.get("/api/v1/player-decks/").status_code == 401
    assert [d["name"] for d in ann.get("/api/v1/player-decks/").json()] == ["Campaign Trail"]
    assert bob.get("/api/v1/player-decks/").json() == []
    assert ann.delete(f"/api/v1/player-decks/{deck['id']}/").status_code == 204
    assert ann.get(f"/api/v1/player-decks/{deck['id']}/").status_code == 404


@pytest.mark.parametrize("entry", [
    {"card": 10**30, "count": 1},  # beyond any database integer
    {"card": 1, "count": 10**30},
    {"card": 1, "count": 101},  # more copies of one card than any archive deck may hold
])
def test_entries_out_of_range_are_refused_in_the_error_shape(filibuster_with_cards, players, entry):
    (_, ann), _ = players
    answer = ann.post("/api/v1/player-decks/", {"card_set": FILIBUSTER, "name": "Huge", "entries": [entry]},
                      format="json")
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "invalid"


def test_the_same_card_twice_counts_its_copies_together_against_the_bound(filibuster_with_cards, players):
    (_, ann), _ = players
    card = next(iter(filibuster_with_cards.values()))["id"]
    answer = ann.post("/api/v1/player-decks/", {"card_set": FILIBUSTER, "name": "Twice",
                                                "entries": [{"card": card, "count": 60}, {"card": card, "count": 60}]},
                      format="json")
    assert answer.status_code == 400 and "entries" in answer.json()["error"]["details"]


def test_a_list_of_cards_is_checked_as_a_deck_would_be_without_storing_anything(filibuster_with_cards, players):
    (_, ann), _ = players
    cards = filibuster_with_cards
    body = {"card_set": FILIBUSTER, "entries": [{"card": cards["Stump Speech"]["id"], "count": 5},
                                                {"card": cards["Pork Barrel"]["id"], "count": 4}]}
    answer = ann.post("/api/v1/player-decks/check/", body, format="json")
    assert answer.status_code == 200, answer.json()
    assert answer.json() == {"card_set": FILIBUSTER, "version": 2, "size": 9, "valid": False,
                             "problems": ["A deck of this set has at least 20 cards; this one has 9."]}
    assert ann.get("/api/v1/player-decks/").json() == []

    body["entries"].append({"card": cards["Pork Barrel"]["id"], "count": 11})  # the same card twice adds up
    assert ann.post("/api/v1/player-decks/check/", body, format="json").json()["valid"] is True

    # On version 1 (no cards yet) the same cards are not the set's: a problem, where building would be refused.
    older = ann.post("/api/v1/player-decks/check/", {**body, "version": 1}, format="json").json()
    assert older["version"] == 1 and older["valid"] is False
    assert any("are not in the version of the set" in problem for problem in older["problems"])


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"card_set": FILIBUSTER, "version": 99, "entries": []}, 404, "not_found"),
    ({"card_set": "no-such-set", "entries": []}, 404, "not_found"),
    ({"card_set": FILIBUSTER, "entries": [{"card": 1, "count": 0}]}, 400, "invalid"),
    ({"card_set": FILIBUSTER}, 400, "invalid"),
])
def test_checking_refuses_what_building_would(filibuster_with_cards, players, body, status, code):
    (_, ann), _ = players
    answer = ann.post("/api/v1/player-decks/check/", body, format="json")
    assert (answer.status_code, answer.json()["error"]["code"]) == (status, code)


def test_checking_against_a_deck_that_is_no_card_set_is_a_conflict(players, archive_deck):
    (_, ann), _ = players
    deck = archive_deck(5)
    answer = ann.post("/api/v1/player-decks/check/", {"card_set": deck.slug, "entries": []}, format="json")
    assert (answer.status_code, answer.json()["error"]["code"]) == (409, "not_a_card_set")
