"""The Virtues of the Drake through the real API: the seed entry, which has no cards, is refused with what is
missing; a curator enters the cards (card by card, or by importing a listing) and the game is created; the sample
set plays, its decks' order and face-down cards shown to nobody."""

from __future__ import annotations

import json

import pytest

from decks import services as deck_services
from tests.engine.virtues_of_the_drake.table import SAMPLE
from tests.seeds import seed_deck_json

pytestmark = pytest.mark.django_db
SEED = "the-virtues-of-the-drake"
SAMPLE_SLUG = "virtues-of-the-drake-sample"


@pytest.fixture
def seed_entry(db):
    deck_services.deck_import(author=None, text=seed_deck_json(SEED), format="json")
    return SEED


@pytest.fixture
def sample(db):
    deck_services.deck_import(author=None, text=SAMPLE.read_text(encoding="utf-8"), format="json")
    return SAMPLE_SLUG


def test_a_game_from_the_seed_entry_is_refused_with_the_cards_it_lacks(seed_entry, make_user, client_for):
    client = client_for(make_user())
    refused = client.post("/api/v1/games/", {"deck": seed_entry}, format="json")
    assert refused.status_code == 409
    error = refused.json()["error"]
    assert error["code"] == "card_data_missing" and error["details"]["ruleset"] == "virtues_of_the_drake"
    assert [(p["card"], p["title"], p["problem"]) for p in error["details"]["cards"]] == [
        (None, "Gluttony", "missing"), (None, "Greed", "missing"), (None, "Wrath", "missing"),
        (None, "Pride", "missing"), (None, "Maiden cards", "missing"), (None, "Knight cards", "missing"),
        (None, "Treasure cards", "missing")]
    assert client.get("/api/v1/games/").json()["count"] == 0
    # The entry stays as the seed gives it.
    assert client.get(f"/api/v1/decks/{seed_entry}/").json()["cards"] == []


def cards_for_the_entry() -> list[dict]:
    cards = [{"title": virtue, "type": "Virtue", "text": ""} for virtue in ("Gluttony", "Greed", "Wrath", "Pride")]
    for n in (1, 2):
        cards += [{"title": f"Maiden {n}", "type": "Maiden", "text": "", "stats": {"chastity": n}},
                  {"title": f"Knight {n}", "type": "Knight", "text": "", "stats": {"strength": n}},
                  {"title": f"Treasure {n}", "type": "Treasure", "text": "", "stats": {"value": n}}]
    return cards


def test_a_curator_enters_the_real_cards_card_by_card_and_the_game_is_created(seed_entry, make_user, client_for):
    curator = client_for(make_user("curator", curator=True))
    for body in cards_for_the_entry():
        added = curator.post(f"/api/v1/decks/{seed_entry}/cards/", body, format="json")
        assert added.status_code == 201, added.content
    refused = curator.post("/api/v1/games/", {"deck": seed_entry, "max_players": 2}, format="json")
    assert refused.status_code == 409
    problems = refused.json()["error"]["details"]["cards"]
    assert [(p["title"], p["field"]) for p in problems] == [("Knight 1", "stats.wealth"), ("Knight 2", "stats.wealth")]
    assert "'Knight 1'" in refused.json()["error"]["message"]

    for card in curator.get(f"/api/v1/decks/{seed_entry}/").json()["cards"]:
        if card["type"] == "Knight":
            changed = curator.patch(f"/api/v1/decks/{seed_entry}/cards/{card['id']}/",
                                    {"stats": {**card["stats"], "wealth": 1}}, format="json")
            assert changed.status_code == 200, changed.content
    created = curator.post("/api/v1/games/", {"deck": seed_entry, "max_players": 2}, format="json")
    assert created.status_code == 201, created.content
    assert created.json()["ruleset"] == "virtues_of_the_drake"


@pytest.mark.parametrize(("card", "field"), [
    ({"title": "Stray", "type": "Action", "text": ""}, "type"),
    ({"title": "Lady", "type": "Maiden", "text": "", "stats": {"chastity": -1}}, "stats.chastity"),
    ({"title": "Sloth", "type": "Virtue", "text": ""}, "title"),
])
def test_the_archive_refuses_a_card_this_game_cannot_play(seed_entry, make_user, client_for, card, field):
    curator = client_for(make_user("curator", curator=True))
    refused = curator.post(f"/api/v1/decks/{seed_entry}/cards/", card, format="json")
    assert refused.status_code == 400
    assert refused.json()["error"]["details"]["cards"][0]["field"] == field
    assert curator.get(f"/api/v1/decks/{seed_entry}/").json()["cards"] == []


def test_a_card_with_no_type_yet_is_kept_for_the_curator_to_finish(seed_entry, make_user, client_for):
    curator = client_for(make_user("curator", curator=True))
    added = curator.post(f"/api/v1/decks/{seed_entry}/cards/", {"title": "Untyped", "text": ""}, format="json")
    assert added.status_code == 201, added.content
    refused = curator.post("/api/v1/games/", {"deck": seed_entry}, format="json")
    assert {"card": 0, "title": "Untyped", "field": "type", "problem": "missing",
            "message": "The card's type: Maiden, Knight, Treasure or Virtue."} in refused.json()["error"]["details"]["cards"]


WIKI = """{{Infobox
|title=The Virtues of the Drake (index cards)
|designer=A curator
|players=2-4
}}
== Card List ==
{{card|title=Gluttony|type=Virtue|text=Seven Maidens in the Gullet.}}
{{card|title=Greed|type=Virtue|text=Seven Treasures in the Bed.}}
{{card|title=Wrath|type=Virtue|text=Seven Knights in the Lair.}}
{{card|title=Pride|type=Virtue|text=A deck exhausted.}}
{{card|title=Shepherdess|type=Maiden|stats=Chastity3|copies=2}}
{{card|title=Sir Bors|type=Knight|stats=Strength4 Wealth3|copies=2}}
{{card|title=Silver Ring|type=Treasure|stats=Value2|copies=2}}
{{card|title=Sangria All|type=Treasure|stats=Value6|text=An older text.}}
"""


def test_a_wiki_listing_with_its_stats_imports_and_plays(make_user, client_for):
    curator = client_for(make_user("curator", curator=True))
    imported = curator.post("/api/v1/decks/import/", {"format": "wiki", "text": WIKI}, format="json")
    assert imported.status_code == 201, imported.content
    deck = imported.json()
    assert deck["ruleset"] == "virtues_of_the_drake"
    assert {"title": "Shepherdess", "stats": {"Chastity": 3}}.items() <= {
        "title": deck["cards"][4]["title"], "stats": deck["cards"][4]["stats"]}.items()
    created = curator.post("/api/v1/games/", {"deck": deck["slug"], "max_players": 2}, format="json")
    assert created.status_code == 201, created.content


def test_the_sample_set_plays_and_nobody_sees_the_decks(sample, make_user, client_for):
    ann, bob, cat = (client_for(make_user(name)) for name in ("ann", "bob", "cat"))
    game_id = ann.post("/api/v1/games/", {"deck": sample, "max_players": 2}, format="json").json()["id"]
    assert bob.post(f"/api/v1/games/{game_id}/join/", {}, format="json").status_code == 200
    assert ann.post(f"/api/v1/games/{game_id}/start/").status_code == 200

    state = cat.get(f"/api/v1/games/{game_id}/").json()
    board = state["board"]
    assert {deck: pile["count"] for deck, pile in board["decks"].items()} == {
        "maidens": 10, "knights": 9, "treasures": 10}
    assert [len(board[name]) for name in ("gullet", "lair", "bed")] == [1, 1, 1]
    assert "Pride" not in [player["virtue"] for player in state["players"]]
    assert [v["virtue"] for v in board["virtues"] if v["seat"] is None and v["virtue"] == "Pride"] == ["Pride"]

    seat = board["turn"]["seat"]
    player = (ann, bob)[seat]
    moves = player.get(f"/api/v1/games/{game_id}/moves/").json()["moves"]
    assert {"type": "play_top", "deck": "treasures"} in moves
    assert (bob, ann)[seat].get(f"/api/v1/games/{game_id}/moves/").json()["moves"] == []
    wrong = player.post(f"/api/v1/games/{game_id}/commands/", {"type": "play_top", "deck": "dragons"}, format="json")
    assert wrong.status_code == 400 and "deck" in wrong.json()["error"]["details"]  # the declared body's check
    played = player.post(f"/api/v1/games/{game_id}/commands/", {"type": "play_top", "deck": "treasures"},
                         format="json")
    assert played.status_code == 201, played.content
    card = played.json()["events"][0]["data"]["card"]
    assert card["type"] == "Treasure" and "value" in card["stats"]

    events = json.dumps(cat.get(f"/api/v1/games/{game_id}/events/").json())
    shuffled = next(e for e in json.loads(events)["events"] if e["type"] == "drake.decks_shuffled")
    assert shuffled["data"] == {"decks": {"maidens": {"count": 11}, "knights": {"count": 10},
                                          "treasures": {"count": 11}}}
    created = next(e for e in json.loads(events)["events"] if e["type"] == "game.created")
    assert created["data"]["cards"] == {"count": 36}


def test_every_past_version_of_a_game_can_be_read(sample, make_user, client_for):
    """``?at=N`` shows any version, even one between the events of one command: after the decks' shuffle, before
    the Virtues are dealt, every Virtue is listed without its card (it was a 500)."""
    ann, bob, cat = (client_for(make_user(name)) for name in ("ann", "bob", "cat"))
    game_id = ann.post("/api/v1/games/", {"deck": sample, "max_players": 2}, format="json").json()["id"]
    bob.post(f"/api/v1/games/{game_id}/join/", {}, format="json")
    version = ann.post(f"/api/v1/games/{game_id}/start/").json()["version"]
    events = cat.get(f"/api/v1/games/{game_id}/events/").json()["events"]
    shuffled = next(e["version"] for e in events if e["type"] == "drake.decks_shuffled")
    for at in range(1, version + 1):
        answer = cat.get(f"/api/v1/games/{game_id}/?at={at}")
        assert answer.status_code == 200, (at, answer.content)
    virtues = cat.get(f"/api/v1/games/{game_id}/?at={shuffled}").json()["board"]["virtues"]
    assert {virtue["card"] for virtue in virtues} == {None}
