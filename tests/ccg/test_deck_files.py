"""Player decks as Cockatrice (.cod) and OCTGN (.o8d) files, and .cod files imported as player decks."""

from __future__ import annotations

import uuid
import xml.etree.ElementTree as ET

import pytest

from tests.ccg.conftest import FILIBUSTER
from tests.ccg.test_player_decks import build

pytestmark = pytest.mark.django_db

COUNTS = {"Stump Speech": 5, "Pork Barrel": 4, "Talking Point": 11}


def cod(cards: list[tuple[int, str]], name: str = "From Cockatrice", extra: str = "") -> str:
    rows = "".join(f'<card number="{number}" name="{title}"/>' for number, title in cards)
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_deck version="1"><deckname>{name}</deckname>'
            f'<comments></comments><zone name="main">{rows}</zone>{extra}</cockatrice_deck>')


def test_cod_export_lists_every_card_with_its_count(filibuster_with_cards, players):
    (_, ann), _ = players
    deck = build(ann, filibuster_with_cards, COUNTS, name="Campaign Trail")

    answer = ann.get(f"/api/v1/player-decks/{deck['id']}/export/cod/")

    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/xml; charset=utf-8"
    assert answer["Content-Disposition"] == 'attachment; filename="Campaign-Trail.cod"'
    root = ET.fromstring(answer.content)
    assert root.tag == "cockatrice_deck" and root.get("version") == "1"
    assert root.findtext("deckname") == "Campaign Trail"
    assert {card.get("name"): int(card.get("number")) for card in root.findall("zone[@name='main']/card")} == COUNTS


def test_o8d_export_gives_each_card_a_stable_uuid(filibuster_with_cards, players):
    (_, ann), _ = players
    deck = build(ann, filibuster_with_cards, COUNTS)

    answer = ann.get(f"/api/v1/player-decks/{deck['id']}/export/o8d/")
    again = ann.get(f"/api/v1/player-decks/{build(ann, filibuster_with_cards, COUNTS, name='Other')['id']}"
                    "/export/o8d/")

    assert answer.status_code == 200
    assert answer["Content-Disposition"].endswith('.o8d"')
    root = ET.fromstring(answer.content)
    assert root.tag == "deck" and uuid.UUID(root.get("game"))
    [section] = root.findall("section")
    assert section.get("shared") == "False"
    cards = section.findall("card")
    assert {card.text: int(card.get("qty")) for card in cards} == COUNTS
    ids = {card.text: card.get("id") for card in cards}
    assert all(uuid.UUID(card_id) for card_id in ids.values()) and len(set(ids.values())) == len(COUNTS)
    assert {card.text: card.get("id") for card in ET.fromstring(again.content).iter("card")} == ids


def test_someone_elses_deck_cannot_be_exported(filibuster_with_cards, players, api_client):
    (_, ann), (_, bob) = players
    deck = build(ann, filibuster_with_cards, COUNTS)

    for client in (bob, api_client):
        answer = client.get(f"/api/v1/player-decks/{deck['id']}/export/cod/")
        assert answer.status_code in (401, 403, 404)
        assert b"Stump Speech" not in answer.content
    assert bob.get(f"/api/v1/player-decks/{deck['id']}/export/cod/").status_code == 404
    assert ann.get(f"/api/v1/player-decks/{deck['id']}/export/mws/").status_code == 404


def test_an_exported_cod_imports_back_as_the_same_deck(filibuster_with_cards, players):
    (_, ann), (_, bob) = players
    deck = build(ann, filibuster_with_cards, COUNTS, name="Campaign Trail")
    text = ann.get(f"/api/v1/player-decks/{deck['id']}/export/cod/").content.decode()

    answer = bob.post("/api/v1/player-decks/import/", {"card_set": FILIBUSTER, "text": text}, format="json")

    assert answer.status_code == 201, answer.json()
    imported = answer.json()
    assert imported["name"] == "Campaign Trail" and imported["id"] != deck["id"]
    assert {entry["title"]: entry["count"] for entry in imported["entries"]} == COUNTS
    assert imported["size"] == 20 and imported["valid"] is True
    assert [d["id"] for d in bob.get("/api/v1/player-decks/").json()] == [imported["id"]]


def test_a_cod_file_uploads_as_multipart_and_names_match_ignoring_case(filibuster_with_cards, players):
    from django.core.files.uploadedfile import SimpleUploadedFile

    (_, ann), _ = players
    upload = SimpleUploadedFile("deck.cod", cod([(3, "pork barrel"), (2, "Pork Barrel"), (1, "Party Whip")]).encode())

    answer = ann.post("/api/v1/player-decks/import/",
                      {"card_set": FILIBUSTER, "text": upload, "name": "Uploaded"}, format="multipart")

    assert answer.status_code == 201, answer.json()
    assert answer.json()["name"] == "Uploaded"
    assert {entry["title"]: entry["count"] for entry in answer.json()["entries"]} == {
        "Pork Barrel": 5, "Party Whip": 1}


def test_unknown_card_names_are_refused_all_listed_and_nothing_is_made(filibuster_with_cards, players):
    (_, ann), _ = players

    answer = ann.post("/api/v1/player-decks/import/", {
        "card_set": FILIBUSTER, "text": cod([(2, "Pork Barrel"), (1, "Black Lotus"), (4, "Filler")])}, format="json")

    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == "invalid"
    assert error["details"]["unknown_cards"] == ["Black Lotus", "Filler"]
    assert ann.get("/api/v1/player-decks/").json() == []


@pytest.mark.parametrize("text", [
    "<cockatrice_deck version='1'><zone name='main'><card number='1' name='Pork Barrel'>",  # not closed
    "not xml at all",
    "",
    "<deck game='x'><section name='Main'/></deck>",  # an OCTGN deck, not a Cockatrice one
    cod([(0, "Pork Barrel")]),
    cod([(-1, "Pork Barrel")]),
    cod([(1, "")]),
    # Billion laughs: entities that would expand without end.
    '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;">]>'
    '<cockatrice_deck version="1"><deckname>&lol2;</deckname><zone name="main">'
    '<card number="1" name="Pork Barrel"/></zone></cockatrice_deck>',
    # An external entity that would read a file of the server.
    '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'
    '<cockatrice_deck version="1"><deckname>&xxe;</deckname><zone name="main">'
    '<card number="1" name="Pork Barrel"/></zone></cockatrice_deck>',
], ids=["unclosed", "text", "empty", "octgn", "zero", "negative", "nameless", "billion-laughs", "xxe"])
def test_a_malformed_or_hostile_file_is_refused_with_400(filibuster_with_cards, players, text):
    (_, ann), _ = players

    answer = ann.post("/api/v1/player-decks/import/", {"card_set": FILIBUSTER, "text": text}, format="json")

    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "invalid"
    assert "root:" not in answer.content.decode()
    assert ann.get("/api/v1/player-decks/").json() == []


def test_a_huge_file_is_refused(filibuster_with_cards, players):
    (_, ann), _ = players
    text = cod([(1, "Pork Barrel")] * 60_000)
    assert len(text) > 1_000_000

    answer = ann.post("/api/v1/player-decks/import/", {"card_set": FILIBUSTER, "text": text}, format="json")

    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "invalid"


def test_import_needs_a_signed_in_player_and_a_card_set(filibuster_with_cards, players, api_client, new_archive_deck):
    (_, ann), _ = players
    body = {"card_set": FILIBUSTER, "text": cod([(1, "Pork Barrel")])}

    assert api_client.post("/api/v1/player-decks/import/", body, format="json").status_code in (401, 403)
    missing = ann.post("/api/v1/player-decks/import/", {**body, "card_set": "no-such-set"}, format="json")
    assert missing.status_code == 404
    not_a_set = ann.post("/api/v1/player-decks/import/", {**body, "card_set": new_archive_deck}, format="json")
    assert not_a_set.status_code == 409 and not_a_set.json()["error"]["code"] == "not_a_card_set"


@pytest.fixture
def new_archive_deck(players):
    (_, ann), _ = players
    answer = ann.post("/api/v1/decks/", {"title": "Plain Deck", "cards": [{"title": "Pork Barrel"}]}, format="json")
    assert answer.status_code == 201, answer.content
    return answer.json()["slug"]
