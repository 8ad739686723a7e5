"""Searching the archive through the API: `GET /cards/` ranked (a title that matches before a text that does), a
misspelt title found on PostgreSQL, the search data kept up to date by every write, `?players=N` finding every
deck whose range holds N, and the plain fallback that SQLite searches with."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection

from decks import search
from decks.models import Card, Deck
from tests.archive.conftest import error_code

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]

KITCHEN = [
    {"title": "Frying Pan", "type": "Thing", "text": "Shoot 1. Hit someone with the Lightning Rod first.", "copies": 2},
    {"title": "Lightning Rod", "type": "Thing", "text": "Destroy a Thing."},
    {"title": "Wash Up", "type": "Action", "text": "Discard a Thing."},
]


@pytest.fixture
def kitchen(new_deck):
    return new_deck(cards=KITCHEN)


@pytest.fixture(params=["full text", "fallback"])
def either_search(request, monkeypatch):
    """Each test twice: as the database searches (full text on PostgreSQL) and with the plain fallback that
    SQLite uses, which gives the same answers' shape."""
    if request.param == "fallback":
        monkeypatch.setattr(search, "full_text", lambda: False)
    elif connection.vendor != "postgresql":
        pytest.skip("full-text search needs PostgreSQL")
    return request.param


def found(api_client, query: str) -> list[tuple[str, str]]:
    response = api_client.get(f"/api/v1/cards/?{query}")
    assert response.status_code == 200, response.content
    return [(card["title"], card["deck"]["slug"]) for card in response.json()["results"]]


# --- the card search ---------------------------------------------------------------------------------------


def test_the_card_search_ranks_a_title_match_before_a_text_match(api_client, kitchen, either_search):
    assert found(api_client, "q=lightning") == [("Lightning Rod", "kitchen-sink"), ("Frying Pan", "kitchen-sink")]
    assert found(api_client, "q=lightning+rod") == [("Lightning Rod", "kitchen-sink"), ("Frying Pan", "kitchen-sink")]


def test_a_card_is_given_with_its_deck_a_page_at_a_time(api_client, kitchen, either_search):
    body = api_client.get("/api/v1/cards/?q=lightning").json()
    assert set(body) == {"count", "next", "previous", "results"} and body["count"] == 2
    rod = body["results"][0]
    assert rod == {
        "id": kitchen["cards"][1]["id"], "title": "Lightning Rod", "type": "Thing", "text": "Destroy a Thing.",
        "flavor": "", "copies": 1, "corner_value": "", "creator": "", "stats": {}, "out_of_turn": False,
        "effect": None, "deck": {"slug": "kitchen-sink", "title": "Kitchen Sink"},
    }


def test_the_card_search_narrows_by_type_and_deck(api_client, new_deck, kitchen, either_search):
    new_deck(title="Garden Shed", cards=[{"title": "Lightning Bug", "type": "Action", "text": "Fly away."}])
    assert found(api_client, "q=lightning&type=Action") == [("Lightning Bug", "garden-shed")]
    assert found(api_client, "q=lightning&deck=garden-shed") == [("Lightning Bug", "garden-shed")]
    assert found(api_client, "type=Action&deck=kitchen-sink") == [("Wash Up", "kitchen-sink")]
    assert found(api_client, "q=lightning&deck=no-such-deck") == []
    # Without a search: every card, by deck title and then place in the deck.
    assert [title for title, _ in found(api_client, "")] == [
        "Lightning Bug", "Frying Pan", "Lightning Rod", "Wash Up"]


def test_every_word_of_a_search_is_needed(api_client, kitchen, either_search):
    assert found(api_client, "q=destroy+thing") == [("Lightning Rod", "kitchen-sink")]
    assert found(api_client, "q=destroy+pancake") == []


def test_a_bad_card_search_query_is_400(api_client):
    for query in ("deck=not%20a%20slug", "q=" + "x" * 201, "q=nul%00byte"):
        response = api_client.get(f"/api/v1/cards/?{query}")
        assert response.status_code == 400 and error_code(response) == "invalid", query
    assert api_client.get("/api/v1/cards/?page=9").status_code == 404


@pytest.mark.postgres
def test_a_misspelt_title_is_found_on_postgresql(api_client, kitchen):
    assert found(api_client, "q=Lightnin+Rodd")[0] == ("Lightning Rod", "kitchen-sink")
    assert found(api_client, "q=Fryng+Pan")[0] == ("Frying Pan", "kitchen-sink")


@pytest.mark.postgres
def test_a_misspelt_deck_title_is_found_on_postgresql(api_client):
    call_command("load_seed_decks", verbosity=0)
    results = api_client.get("/api/v1/decks/?search=Rock+Paper+Sissors").json()["results"]
    assert results[0]["slug"] == "rock-paper-scissors-extreme-deck"


def test_the_deck_search_ranks_a_title_match_first_and_finds_card_text(api_client, new_deck, kitchen, either_search):
    new_deck(title="Lightning Round", cards=[{"title": "Buzzer", "text": "Answer first."}])
    slugs = [deck["slug"] for deck in api_client.get("/api/v1/decks/?search=lightning").json()["results"]]
    assert slugs == ["lightning-round", "kitchen-sink"]  # Kitchen Sink only by its cards
    slugs = [deck["slug"] for deck in api_client.get("/api/v1/decks/?search=hand+limit").json()["results"]]
    assert sorted(slugs) == ["kitchen-sink", "lightning-round"]  # both have the Special Rule


# --- the search data follows every write ---------------------------------------------------------------------


def test_a_card_edit_through_the_api_is_found_at_once(api_client, user_client, kitchen, either_search):
    wash_up = kitchen["cards"][2]["id"]
    response = user_client.patch(f"/api/v1/decks/kitchen-sink/cards/{wash_up}/", {"text": "Polish the teapot."},
                                 format="json")
    assert response.status_code == 200
    assert found(api_client, "q=teapot") == [("Wash Up", "kitchen-sink")]
    assert found(api_client, "q=discard") == []
    slugs = [deck["slug"] for deck in api_client.get("/api/v1/decks/?search=teapot").json()["results"]]
    assert slugs == ["kitchen-sink"]


def test_added_removed_and_restored_cards_are_searched_as_they_are_now(api_client, user_client, kitchen,
                                                                       either_search):
    user_client.post("/api/v1/decks/kitchen-sink/cards/", {"title": "Teapot", "text": "Brew."}, format="json")
    assert found(api_client, "q=teapot") == [("Teapot", "kitchen-sink")]
    user_client.delete(f"/api/v1/decks/kitchen-sink/cards/{kitchen['cards'][1]['id']}/")
    assert found(api_client, "q=lightning") == [("Frying Pan", "kitchen-sink")]
    assert user_client.post("/api/v1/decks/kitchen-sink/revisions/1/restore/").status_code == 201
    assert found(api_client, "q=teapot") == []
    assert found(api_client, "q=lightning") == [("Lightning Rod", "kitchen-sink"), ("Frying Pan", "kitchen-sink")]
    user_client.patch("/api/v1/decks/kitchen-sink/", {"title": "Scullery"}, format="json")
    assert [deck["slug"] for deck in api_client.get("/api/v1/decks/?search=scullery").json()["results"]] == [
        "kitchen-sink"]


@pytest.mark.postgres
def test_every_write_leaves_the_stored_vectors_as_the_rows_make_them(user_client, kitchen):
    user_client.patch("/api/v1/decks/kitchen-sink/", {"description": "Pots and pans."}, format="json")
    user_client.post("/api/v1/decks/kitchen-sink/cards/", {"title": "Teapot", "text": "Brew."}, format="json")
    stored = dict(Deck.objects.values_list("pk", "search")), dict(Card.objects.values_list("pk", "search"))
    assert "'pot'" in stored[0][Deck.objects.get().pk] and "'teapot'" in stored[0][Deck.objects.get().pk]
    search.refresh_search(Deck.objects.get())  # made again from the rows: nothing changes
    assert (dict(Deck.objects.values_list("pk", "search")), dict(Card.objects.values_list("pk", "search"))) == stored


def test_a_search_of_no_words_finds_nothing_rather_than_everything(api_client, kitchen, either_search):
    assert api_client.get("/api/v1/cards/?q=%21%21%21").json()["count"] == 0


# --- players as numbers ----------------------------------------------------------------------------------------


@pytest.fixture
def tables(new_deck):
    for title, players in (("Pair", "2"), ("Small Table", "2-4"), ("Open Table", "2+"), ("Crowd", "3 or more"),
                           ("Big Table", "4-6"), ("Teams", "2 (4 in teams)"), ("Anyone", "any")):
        new_deck(title=title, players=players)


@pytest.mark.parametrize(("players", "expected"), [
    ("3", ["anyone", "crowd", "open-table", "small-table"]),
    ("2", ["anyone", "open-table", "pair", "small-table"]),
    ("5", ["anyone", "big-table", "crowd", "open-table"]),
    ("1", ["anyone"]),
    ("2-4", ["small-table"]),                    # not a number: the text as the deck gives it
    ("2 (4 in teams)", ["teams"]),               # a deck whose text reads as no range, by its text
])
def test_players_finds_every_deck_whose_range_holds_the_number(api_client, tables, players, expected):
    response = api_client.get("/api/v1/decks/", {"players": players})
    assert sorted(deck["slug"] for deck in response.json()["results"]) == expected


def test_a_deck_gives_its_players_as_a_range_and_follows_a_change(api_client, user_client, tables):
    small = api_client.get("/api/v1/decks/small-table/").json()
    assert (small["players"], small["players_min"], small["players_max"]) == ("2-4", 2, 4)
    summaries = {deck["slug"]: deck for deck in api_client.get("/api/v1/decks/").json()["results"]}
    assert (summaries["open-table"]["players_min"], summaries["open-table"]["players_max"]) == (2, None)
    assert (summaries["teams"]["players_min"], summaries["teams"]["players_max"]) == (None, None)
    assert (summaries["anyone"]["players_min"], summaries["anyone"]["players_max"]) == (1, None)

    changed = user_client.patch("/api/v1/decks/small-table/", {"players": "3-6"}, format="json").json()
    assert (changed["players_min"], changed["players_max"]) == (3, 6)
    assert "small-table" not in [d["slug"] for d in api_client.get("/api/v1/decks/?players=2").json()["results"]]
    assert user_client.post("/api/v1/decks/small-table/revisions/1/restore/").json()["players_max"] == 4


def test_seed_decks_loaded_anew_have_their_ranges(api_client):
    call_command("load_seed_decks", verbosity=0)
    slugs = [deck["slug"] for deck in api_client.get("/api/v1/decks/?players=3").json()["results"]]
    assert slugs == ["article-ii", "article-ii-updated", "filibuster-ccg-set", "filibuster-sample-set", "socialism",
                     "virtues-of-the-drake-sample"]


# --- SQLite, the embedded default -------------------------------------------------------------------------------


def test_on_sqlite_the_archive_migrates_and_searches_with_the_fallback(tmp_path):
    """A real SQLite database: the migrations (whose PostgreSQL parts are skipped) and the seed decks load, and
    the same searches answer, ranked title first."""
    database = tmp_path / "archive.sqlite3"
    env = {key: value for key, value in os.environ.items()
           if key not in {"DATABASE_URL", "REDIS_URL"} and not key.startswith("DJANGO_")}
    env.update({"DATABASE_URL": f"sqlite:///{database}", "DVORAK_VAR_DIR": str(tmp_path / "var"),
                "DJANGO_ENV_FILE": str(tmp_path / "no.env")})

    def manage(*args: str) -> str:
        result = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True,
                                text=True)
        assert result.returncode == 0, result.stderr
        return result.stdout

    manage("migrate", "--noinput", "-v0")
    manage("load_seed_decks")
    out = manage("shell", "-c", "\n".join([
        "from decks import selectors",
        "print([c.title for c in selectors.card_search(search='rock', type='Soldier')])",
        "print([d.slug for d in selectors.deck_list(search='totem')])",
        "print([d.slug for d in selectors.deck_list(players='5')])",
        "print([c.title for c in selectors.card_search(search='totem')][:2])",
    ]))
    lines = out.strip().splitlines()[-4:]
    assert lines[0] == "['Rocket Launcher']"
    assert lines[1] == "['rock-paper-scissors-extreme-deck']"  # by its cards' text
    assert lines[2] == "['filibuster-ccg-set', 'filibuster-sample-set', 'socialism']"
    assert lines[3] == "['Diamond Totem', 'Golden Totem']"
