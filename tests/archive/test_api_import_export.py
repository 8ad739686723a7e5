"""Importing the real seed listings through the API, exporting decks, and round trips back in.

The listings are the excerpts under tests/fixtures; the round trips read the originals too where present."""

from __future__ import annotations

import csv
import io
import json

import pytest

from decks.importers import import_text
from decks.models import Card, Deck, Revision
from tests.archive.conftest import error_code
from tests.seeds import DECK_LISTINGS, SOURCES, listing_text

pytestmark = pytest.mark.django_db


def import_listing(client, text: str, format: str = "wiki", **extra):
    return client.post("/api/v1/decks/import/", {"format": format, "text": text, **extra}, format="json")


def imported_bodies(response) -> list[dict]:
    body = response.json()
    return body["decks"] if "decks" in body else [body]


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("listing", DECK_LISTINGS)
def test_each_seed_listing_imports_through_the_api_as_its_decks(user_client, listing, source):
    text = listing_text(listing, source)
    expected = import_text(text, "wiki")

    response = import_listing(user_client, text)

    assert response.status_code == 201, response.content
    bodies = imported_bodies(response)
    assert [body["slug"] for body in bodies] == [deck.slug for deck in expected]
    for body, deck in zip(bodies, expected, strict=True):
        assert body["title"] == deck.title
        assert body["kind"] == deck.kind
        assert body["designers"] == list(deck.designers)
        assert [card["title"] for card in body["cards"]] == [card.title for card in deck.cards]
        assert sum(card["copies"] for card in body["cards"]) == deck.card_count
        assert [rule["text"] for rule in body["special_rules"]] == [rule.text for rule in deck.special_rules]
        assert body["revision"] == 1


def test_the_blog_post_becomes_four_decks_with_their_card_counts(user_client):
    response = import_listing(user_client, listing_text("article-ii-socialism-virtues-of-the-drake.txt"))

    decks = {body["title"]: body for body in imported_bodies(response)}
    assert set(decks) == {"Article II, updated", "Socialism", "The Virtues of the Drake", "Article II"}
    updated = decks["Article II, updated"]
    assert (len(updated["cards"]), sum(card["copies"] for card in updated["cards"])) == (28, 51)
    older = decks["Article II"]
    assert (len(older["cards"]), sum(card["copies"] for card in older["cards"])) == (15, 56)


def test_importer_is_the_first_revisions_author_and_designers_are_credited(user_client, user):
    response = import_listing(user_client, listing_text("rock-paper-scissors-extreme.txt"))
    slug = response.json()["slug"]

    revisions = user_client.get(f"/api/v1/decks/{slug}/revisions/").json()
    assert revisions[0]["number"] == 1
    assert revisions[0]["author"] == user.username
    assert "Tweed Cap" in revisions[0]["summary"]
    assert response.json()["designers"] == ["Tweed Cap"]


def test_a_listing_locked_on_the_wiki_stays_locked_only_when_a_curator_imports_it(user_client, curator_client):
    text = listing_text("serm-wargame.txt")

    by_user = import_listing(user_client, text, slug="serm-by-a-player").json()
    by_curator = import_listing(curator_client, text).json()

    assert by_user["locked"] is False
    assert by_curator["locked"] is True


def test_a_bad_game_late_in_a_listing_gives_400_with_its_line_and_imports_nothing(user_client):
    text = listing_text("article-ii-socialism-virtues-of-the-drake.txt")
    broken = text + "\n\nOne More Game\n\n2 players\n\nCards\n\nGood Card (x2)\nFine.\n\nBad Card (x0)\nBroken.\n"

    response = import_listing(user_client, broken)

    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid"
    assert error["details"]["line"] == len(broken.splitlines()) - 1
    assert str(error["details"]["line"]) in error["message"]
    assert Deck.objects.count() == 0
    assert Revision.objects.count() == 0


def test_malformed_json_and_mushcode_name_their_line(user_client):
    json_response = import_listing(user_client, '{\n  "title": "X",\n  "cards": [\n}', "json")
    assert json_response.status_code == 400
    assert json_response.json()["error"]["details"]["line"] == 4

    mush_response = import_listing(user_client, "cleardeck\nloadcard Fine/T/Works.\nthis is not a command\n",
                                   "mushcode")
    assert mush_response.status_code == 400
    assert mush_response.json()["error"]["details"]["line"] == 3
    assert Deck.objects.count() == 0


def test_unknown_import_format_is_a_400(user_client):
    response = import_listing(user_client, "cleardeck", "thoth")
    assert response.status_code == 400
    assert error_code(response) == "invalid"


def test_importing_a_slug_that_exists_is_a_conflict_and_a_new_slug_imports_it(user_client):
    text = listing_text("rock-paper-scissors-extreme.txt")
    first = import_listing(user_client, text)

    again = import_listing(user_client, text)
    renamed = import_listing(user_client, text, slug="rpsx-copy")

    assert again.status_code == 409
    assert error_code(again) == "deck_exists"
    assert renamed.status_code == 201
    assert renamed.json()["slug"] == "rpsx-copy"
    assert len(renamed.json()["cards"]) == len(first.json()["cards"])


@pytest.mark.parametrize(
    ("format", "content_type", "filename"),
    [
        ("json", "application/json", "serm.json"),
        ("mushcode", "text/plain; charset=utf-8", "serm-mushcode.txt"),
        ("lackey", "text/tab-separated-values; charset=utf-8", "serm-lackey.txt"),
        ("apprentice", "text/csv; charset=utf-8", "serm-apprentice.csv"),
        ("print", "text/html; charset=utf-8", "serm-print.html"),
        ("pdf", "application/pdf", "serm.pdf"),
        ("cod", "application/xml; charset=utf-8", "serm.cod"),
    ],
)
def test_every_export_format_downloads_with_its_type_and_file_name(api_client, user_client, format, content_type,
                                                                  filename):
    import_listing(user_client, listing_text("serm-wargame.txt"), slug="serm")

    response = api_client.get(f"/api/v1/decks/serm/export/{format}/")

    assert response.status_code == 200
    assert response["Content-Type"] == content_type
    assert response["Content-Disposition"] == f'attachment; filename="{filename}"'
    assert len(response.content) > 0


def test_export_carries_the_decks_cards(api_client, user_client):
    import_listing(user_client, listing_text("serm-wargame.txt"), slug="serm")
    deck = api_client.get("/api/v1/decks/serm/").json()

    lackey = api_client.get("/api/v1/decks/serm/export/lackey/").content.decode()
    apprentice = api_client.get("/api/v1/decks/serm/export/apprentice/").content.decode()
    pdf = api_client.get("/api/v1/decks/serm/export/pdf/", HTTP_ACCEPT="application/pdf")

    lackey_titles = {row[0] for row in csv.reader(io.StringIO(lackey), delimiter="\t")}
    assert {card["title"] for card in deck["cards"]} <= lackey_titles
    assert deck["cards"][0]["title"] in apprentice
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


def test_unknown_export_format_is_not_found(api_client, new_deck):
    slug = new_deck()["slug"]
    response = api_client.get(f"/api/v1/decks/{slug}/export/thoth/")
    assert response.status_code == 404
    assert error_code(response) == "not_found"


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("listing", DECK_LISTINGS)
def test_json_export_reimports_as_the_same_deck(user_client, listing, source):
    for body in imported_bodies(import_listing(user_client, listing_text(listing, source))):
        exported = user_client.get(f"/api/v1/decks/{body['slug']}/export/json/").content.decode()

        again = import_listing(user_client, exported, "json", slug=f"{body['slug']}-again")

        assert again.status_code == 201, again.content
        copy = again.json()
        for field in ("title", "kind", "designers", "date", "players", "status", "ruleset", "description"):
            assert copy[field] == body[field]
        assert [rule | {"id": 0} for rule in copy["special_rules"]] == [
            rule | {"id": 0} for rule in body["special_rules"]
        ]
        assert [card | {"id": 0} for card in copy["cards"]] == [card | {"id": 0} for card in body["cards"]]


def test_mushcode_export_reimports_with_its_cards_and_copies(user_client):
    body = import_listing(user_client, listing_text("rock-paper-scissors-extreme.txt")).json()
    exported = user_client.get(f"/api/v1/decks/{body['slug']}/export/mushcode/").content.decode()

    again = import_listing(user_client, exported, "mushcode", slug="rpsx-from-mush")

    assert again.status_code == 201, again.content
    copy = again.json()
    originals = {card["title"]: card["copies"] for card in body["cards"]}
    copies = {card["title"]: card["copies"] for card in copy["cards"]}
    assert copies == originals


def test_the_json_export_is_the_decks_own_format(api_client, new_deck):
    slug = new_deck()["slug"]
    exported = json.loads(api_client.get(f"/api/v1/decks/{slug}/export/json/").content)
    assert exported["title"] == "Kitchen Sink"
    assert [card["copies"] for card in exported["cards"]] == [2, 1]


def test_a_page_quoting_its_infobox_source_imports_as_page_text_through_the_api(user_client):
    text = listing_text("rock-paper-scissors-extreme.txt")
    [revision] = [line for line in text.splitlines() if line.startswith("Revision as of ")]
    quoting = text.replace(revision, revision + " ({{Infobox deck|title=Rock Paper Scissors Extreme deck}})")

    response = import_listing(user_client, quoting)

    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["title"], body["designers"]) == ("Rock Paper Scissors Extreme deck", ["Tweed Cap"])
    assert sum(card["copies"] for card in body["cards"]) == 30


def test_markup_whose_card_list_has_no_card_is_a_400_naming_the_heading(user_client):
    response = import_listing(user_client, "{{Infobox|title=X}}\n\n== Card List ==\nPebble: do nothing.\n")

    assert response.status_code == 400
    error = response.json()["error"]
    assert (error["code"], error["details"]["line"]) == ("invalid", 3)
    assert error["message"].startswith("Line 3: ")
    assert Deck.objects.count() == 0


def test_a_null_character_is_a_400_naming_its_line(user_client):
    text = listing_text("rock-paper-scissors-extreme.txt")
    lines = text.splitlines()
    lines[40] += "\x00"

    response = import_listing(user_client, "\n".join(lines))

    assert response.status_code == 400
    error = response.json()["error"]
    assert (error["code"], error["details"]["line"]) == ("invalid", 41)
    assert "null character" in error["message"]
    assert Deck.objects.count() == 0


def test_a_null_character_escaped_in_json_is_a_400_naming_its_line(user_client):
    text = '{"title": "X",\n "cards": [{"title": "A\\u0000", "text": "b"}]}'

    response = import_listing(user_client, text, "json")

    assert response.status_code == 400
    error = response.json()["error"]
    assert (error["code"], error["details"]["line"]) == ("invalid", 2)
    assert Deck.objects.count() == 0


@pytest.mark.parametrize("params, at_fault", [
    ({"starting_hand": 3, "hand_limit": "lots"}, '"hand_limit"'),
    ({"draws_per_turn": 1_000_000}, '"draws_per_turn"'),  # a million cards dealt under a game's lock
    ({"vote_rule": "whoever shouts"}, '"vote_rule"'),
    ({"counters": {"gold": "many"}}, '"counters"'),
    ("three", '"params"'),
])
def test_a_special_rule_whose_params_break_their_bounds_is_a_400_naming_the_rule_and_its_line(
        user_client, params, at_fault):
    deck = {"slug": "small-hands", "title": "Small Hands", "special_rules": [
        {"title": "Gold", "text": "Each player has an amount of Gold.", "params": {"counters": {"gold": 0}}},
        {"title": "Tiny hands", "text": "Hand size is three instead of five.", "params": params},
    ], "cards": [{"title": "Coin", "type": "Thing", "text": "Gain 1 Gold.", "copies": 10}]}
    text = json.dumps(deck, indent=2)

    response = import_listing(user_client, text, "json")

    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "invalid" and "Tiny hands" in error["message"]
    assert at_fault in text.splitlines()[error["details"]["line"] - 1]
    assert Deck.objects.count() == 0


def test_a_special_rule_with_params_within_their_bounds_imports(user_client):
    deck = {"slug": "small-hands", "title": "Small Hands", "special_rules": [
        {"title": "Tiny hands", "text": "Hand size is three.", "params": {"hand_limit": 3, "vote_rule": "majority"}},
    ], "cards": [{"title": "Coin", "type": "Thing", "text": "", "copies": 10}]}

    response = import_listing(user_client, json.dumps(deck), "json")

    assert response.status_code == 201, response.content


def test_a_deck_stored_before_the_bound_exports_as_json_and_refuses_to_write_35_million_lines(new_deck, api_client):
    new_deck()
    # As a staff admin edit once saved it, past every check: the row itself, changed in place.
    Card.objects.filter(title="Frying Pan").update(copies=35_000_000)

    lackey = api_client.get("/api/v1/decks/kitchen-sink/export/lackey/")
    as_json = api_client.get("/api/v1/decks/kitchen-sink/export/json/")

    assert lackey.status_code == 409
    assert lackey.json()["error"]["code"] == "export_too_large"
    assert lackey.json()["error"]["details"] == {"cards": 35_000_001, "limit": 2000}
    assert as_json.status_code == 200
    assert json.loads(as_json.content)["cards"][0]["copies"] == 35_000_000
