"""Filibuster through the real API: the seed entry (no cards yet) refused with the list of what is missing, the
project's sample set played, the card data checked by the archive, a reveal hidden until both are in, and a CCG
game with player decks built from the sample set."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from decks.management.commands.load_seed_decks import SAMPLE_DATA
from tests.seeds import seed_deck_json

pytestmark = pytest.mark.django_db
SAMPLE = "filibuster-sample-set"
SEED = "filibuster-ccg-set"


@pytest.fixture
def decks(db):
    from decks import services as deck_services

    deck_services.deck_import(author=None, text=seed_deck_json(SEED), format="json")
    deck_services.deck_import(author=None, text=Path(SAMPLE_DATA / f"{SAMPLE}.json").read_text(encoding="utf-8"),
                              format="json")


def test_the_seed_entry_has_no_cards_and_a_game_from_it_is_refused_with_what_is_missing(decks, make_user,
                                                                                        client_for):
    client = client_for(make_user())
    seed = client.get(f"/api/v1/decks/{SEED}/").json()
    assert seed["cards"] == [] and seed["ruleset"] == "filibuster"
    refused = client.post("/api/v1/games/", {"deck": SEED, "max_players": 2}, format="json")
    assert refused.status_code == 409
    error = refused.json()["error"]
    assert error["code"] == "card_data_missing" and error["details"]["ruleset"] == "filibuster"
    assert error["details"]["cards"][0]["field"] == "cards"


def test_the_sample_set_is_titled_as_a_sample_and_credited_to_the_project(decks, make_user, client_for):
    sample = client_for(make_user()).get(f"/api/v1/decks/{SAMPLE}/").json()
    assert "sample" in sample["title"].lower() and "Dvorak service project" in sample["title"]
    assert sample["designers"] == ["The Dvorak service project"] and sample["kind"] == "card_set"
    assert {card["type"] for card in sample["cards"]} == {"Campaign", "Gambit", "Constant"}


def test_the_archive_refuses_an_invalid_value_and_a_game_lists_what_is_missing_per_card(make_user, client_for):
    client = client_for(make_user("curator", curator=True))
    body = {"title": "My Filibuster cards", "kind": "card_set", "ruleset": "filibuster", "cards": [
        {"title": "Rally", "type": "Campaign", "corner_value": "4", "text": "Gain 5 points.", "stats": {"points": 5}},
        {"title": "Whip", "type": "Gambit", "corner_value": "high", "text": "Draw a card."}]}
    wrong = client.post("/api/v1/decks/", body, format="json")
    assert wrong.status_code == 400
    assert wrong.json()["error"]["details"]["cards"][0]["field"] == "corner_value"

    body["cards"][1]["corner_value"] = ""
    body["cards"].append({"title": "Office", "text": "A Constant, not typed yet."})
    created = client.post("/api/v1/decks/", body, format="json")
    assert created.status_code == 201, created.content
    slug = created.json()["slug"]
    refused = client.post("/api/v1/games/", {"deck": slug, "max_players": 2}, format="json")
    assert refused.status_code == 409
    assert [(p["card"], p["title"], p["field"], p["problem"]) for p in refused.json()["error"]["details"]["cards"]] \
        == [(1, "Whip", "corner_value", "missing"), (2, "Office", "type", "missing"),
            (2, "Office", "corner_value", "missing")]

    cards = client.get(f"/api/v1/decks/{slug}/").json()["cards"]
    assert client.patch(f"/api/v1/decks/{slug}/cards/{cards[1]['id']}/", {"corner_value": "3"},
                        format="json").status_code == 200
    assert client.patch(f"/api/v1/decks/{slug}/cards/{cards[2]['id']}/", {"type": "Constant", "corner_value": "2"},
                        format="json").status_code == 200
    assert client.post("/api/v1/games/", {"deck": slug, "max_players": 2}, format="json").status_code == 201


def test_a_game_of_the_sample_set_hides_a_reveal_until_both_are_in(decks, make_user, client_for):
    clients = [client_for(make_user(name)) for name in ("ann", "bob")]
    created = clients[0].post("/api/v1/games/", {"deck": SAMPLE, "max_players": 2}, format="json")
    assert created.status_code == 201, created.content
    game = created.json()["id"]
    assert clients[1].post(f"/api/v1/games/{game}/join/", {}, format="json").status_code == 200
    started = clients[0].post(f"/api/v1/games/{game}/start/")
    assert started.status_code == 200
    state = clients[0].get(f"/api/v1/games/{game}/").json()
    assert state["ruleset"] == "filibuster" and state["board"]["step"] == "beginning"
    pitcher = state["board"]["pitcher"]
    other = 1 - pitcher
    assert clients[other].get(f"/api/v1/games/{game}/moves/").json()["moves"] == [{"type": "filibuster"},
                                                                                  {"type": "pass"}]
    answer = clients[other].post(f"/api/v1/games/{game}/commands/", {"type": "filibuster"}, format="json")
    assert answer.status_code == 201, answer.content
    [move] = clients[other].get(f"/api/v1/games/{game}/moves/").json()["moves"]
    card = move["card"]["from"][0]
    version = clients[other].post(f"/api/v1/games/{game}/commands/", {"type": "reveal_card", "card": card},
                                  format="json").json()["version"]
    seen = [clients[pitcher].get(f"/api/v1/games/{game}/").json(),
            clients[pitcher].get(f"/api/v1/games/{game}/events/?after={version - 1}").json(),
            clients[pitcher].get(f"/api/v1/games/{game}/moves/").json()]
    assert card not in json.dumps(seen)
    assert seen[0]["choices"] == {"waiting_for": [pitcher], "made": [{"seat": other}]}
    [move] = seen[2]["moves"]
    answer = clients[pitcher].post(f"/api/v1/games/{game}/commands/",
                                   {"type": "reveal_card", "card": move["card"]["from"][0]}, format="json")
    assert answer.status_code == 201
    revealed = next(e for e in answer.json()["events"] if e["type"] == "filibuster.revealed")
    assert card in {entry["card"]["id"] for entry in revealed["data"]["cards"]}


def test_a_ccg_game_is_played_with_player_decks_built_from_the_sample_set(decks, make_user, client_for):
    ann, bob = make_user("ann"), make_user("bob")
    clients = [client_for(ann), client_for(bob)]
    version = clients[0].get(f"/api/v1/decks/{SAMPLE}/versions/1/").json()
    entries = [{"card": card["id"], "count": card["copies"]} for card in version["cards"]]
    player_decks = []
    for client in clients:
        made = client.post("/api/v1/player-decks/", {"card_set": SAMPLE, "name": "Mine", "entries": entries},
                           format="json")
        assert made.status_code == 201 and made.json()["valid"], made.content
        player_decks.append(made.json()["id"])
    created = clients[0].post("/api/v1/games/", {"deck": SAMPLE, "variant": "ccg", "max_players": 2,
                                                 "options": {"player_deck": player_decks[0]}}, format="json")
    assert created.status_code == 201, created.content
    game = created.json()["id"]
    assert "player_deck" not in json.dumps(created.json().get("options", {}))
    joined = clients[1].post(f"/api/v1/games/{game}/join/", {"player_deck": player_decks[1]}, format="json")
    assert joined.status_code == 200, joined.content
    assert [p["deck"]["id"] for p in joined.json()["players"]] == player_decks
    assert clients[0].post(f"/api/v1/games/{game}/start/").status_code == 200
    assert clients[1].get(f"/api/v1/player-decks/{player_decks[1]}/").json()["in_game"] is True
