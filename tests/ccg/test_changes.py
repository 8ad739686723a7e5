"""Changes to a card set pass only if no registered player objects, and come out as numbered versions."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from ccg.changes import card_set_changes_close_due
from ccg.models import CardSetVersion
from proposals.models import CardSetChange
from tests.ccg.conftest import FILIBUSTER, FIRST_CARDS, accept, propose, register, set_cards

pytestmark = pytest.mark.django_db


def test_version_1_is_the_set_as_first_registered(filibuster, players):
    (_, ann), _ = players
    versions = ann.get(f"/api/v1/decks/{FILIBUSTER}/versions/").json()
    assert [version["number"] for version in versions] == [1]
    as_it_was = ann.get(f"/api/v1/decks/{FILIBUSTER}/versions/1/").json()
    assert as_it_was["cards"] == [] and as_it_was["version"] == 1
    assert "200 points" in as_it_was["description"] + " ".join(r["text"] for r in as_it_was["special_rules"])


def test_only_registered_players_propose_changes(filibuster, players):
    (_, ann), _ = players
    refused = ann.post(f"/api/v1/decks/{FILIBUSTER}/changes/", {"kind": "add", "content": FIRST_CARDS[0]},
                       format="json")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden"
    register(ann)
    assert propose(ann, {"kind": "add", "content": FIRST_CARDS[0]})["status"] == "accepted"


def test_a_change_passes_when_every_registered_player_accepts(filibuster, players):
    (_, ann), (_, bob) = players
    register(ann)
    register(bob)
    change = propose(ann, {"kind": "add", "content": FIRST_CARDS[0]})
    assert change["status"] == "open" and change["votes"] == {"ann": True}
    assert accept(bob, change["id"])["status"] == "accepted"


def test_one_objection_rejects_a_change_and_no_version_is_made(filibuster, players, django_capture_on_commit_callbacks):
    (_, ann), (_, bob) = players
    register(ann)
    register(bob)
    with django_capture_on_commit_callbacks(execute=True):
        change = propose(ann, {"kind": "add", "content": FIRST_CARDS[0]})
        objected = bob.post(f"/api/v1/decks/{FILIBUSTER}/changes/{change['id']}/object/").json()
    assert objected["status"] == "rejected" and objected["votes"] == {"ann": True, "bob": False}
    assert CardSetVersion.objects.filter(card_set=filibuster).count() == 1
    late = ann.post(f"/api/v1/decks/{FILIBUSTER}/changes/{change['id']}/accept/")
    assert late.status_code == 409 and late.json()["error"]["code"] == "change_decided"


def test_at_its_deadline_a_change_nobody_objected_to_passes(filibuster, players, make_user, client_for):
    (_, ann), (_, bob) = players
    register(ann)
    register(bob)
    silent_change = propose(ann, {"kind": "add", "content": FIRST_CARDS[0]})
    objected_change = propose(ann, {"kind": "add", "content": FIRST_CARDS[1]})
    bob.post(f"/api/v1/decks/{FILIBUSTER}/changes/{objected_change['id']}/object/")
    assert card_set_changes_close_due() == []
    closed = card_set_changes_close_due(now=timezone.now() + timedelta(days=8))
    assert closed == [silent_change["id"]]
    assert CardSetChange.objects.get(pk=silent_change["id"]).status == "accepted"
    assert CardSetChange.objects.get(pk=objected_change["id"]).status == "rejected"


def test_accepted_changes_are_grouped_into_one_version_with_a_changelog(filibuster_with_cards, players):
    (_, ann), _ = players
    versions = ann.get(f"/api/v1/decks/{FILIBUSTER}/versions/").json()
    assert [version["number"] for version in versions] == [1, 2]
    assert versions[1]["changelog"] == [f"Added card {card['title']!r}" for card in FIRST_CARDS]
    assert set(filibuster_with_cards) == {card["title"] for card in FIRST_CARDS}
    assert set_cards(ann, version=1) == {}
    # The archive deck moved with it, as a new revision, and still refuses direct edits: it is locked.
    deck = ann.get(f"/api/v1/decks/{FILIBUSTER}/").json()
    assert [card["title"] for card in deck["cards"]] == [card["title"] for card in FIRST_CARDS]
    revisions = ann.get(f"/api/v1/decks/{FILIBUSTER}/revisions/").json()
    assert revisions[-1]["summary"].startswith("Card set version 2")
    direct = ann.post(f"/api/v1/decks/{FILIBUSTER}/cards/", {"title": "Sneaky"}, format="json")
    assert direct.status_code == 423 and direct.json()["error"]["code"] == "deck_locked"


def test_a_change_names_a_card_of_the_set(filibuster_with_cards, players):
    (_, ann), _ = players
    missing = ann.post(f"/api/v1/decks/{FILIBUSTER}/changes/", {"kind": "remove", "card": 999999}, format="json")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    bad_field = ann.post(f"/api/v1/decks/{FILIBUSTER}/changes/",
                         {"kind": "change", "card": filibuster_with_cards["Pork Barrel"]["id"],
                          "content": {"power": 9}}, format="json")
    assert bad_field.status_code == 400 and bad_field.json()["error"]["code"] == "invalid"


def test_a_deck_that_is_not_a_card_set_has_no_versions(players, db):
    from decks import services as archive
    from dvorak_core.deckdata import DeckData

    archive.deck_create(author=None, data=DeckData(slug="plain", title="Plain"))
    (_, ann), _ = players
    answer = ann.get("/api/v1/decks/plain/versions/")
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "not_a_card_set"
