"""Wiki history: numbered immutable revisions, the deck as it was, readable diffs, restore as a new revision."""

from __future__ import annotations

import pytest
from django.test import Client

from decks import services
from decks.models import Deck, ImmutableRevision, Revision
from dvorak_core.errors import DeckLocked
from tests.archive.conftest import error_code

pytestmark = pytest.mark.django_db


@pytest.fixture
def edited_deck(user_client, new_deck):
    """Kitchen Sink after three edits: renamed, a card added, a card's copies changed."""
    deck = new_deck()
    user_client.patch("/api/v1/decks/kitchen-sink/", {"title": "Scullery", "summary": "A better name"})
    user_client.post("/api/v1/decks/kitchen-sink/cards/", {"title": "Ladle", "text": "Endure 1"})
    user_client.patch(f"/api/v1/decks/kitchen-sink/cards/{deck['cards'][0]['id']}/", {"copies": 4})
    return deck


def test_every_change_makes_the_next_numbered_revision(api_client, edited_deck, user):
    revisions = api_client.get("/api/v1/decks/kitchen-sink/revisions/").json()

    assert [revision["number"] for revision in revisions] == [1, 2, 3, 4]
    assert {revision["author"] for revision in revisions} == {user.username}
    assert revisions[1]["summary"] == "A better name"
    assert "Ladle" in revisions[2]["summary"]
    assert all(revision["created_at"].endswith("Z") or "+00:00" in revision["created_at"] for revision in revisions)


def test_a_revision_shows_the_deck_as_it_was(api_client, edited_deck):
    first = api_client.get("/api/v1/decks/kitchen-sink/revisions/1/").json()
    latest = api_client.get("/api/v1/decks/kitchen-sink/revisions/4/").json()

    assert first["title"] == "Kitchen Sink"
    assert [card["title"] for card in first["cards"]] == ["Frying Pan", "Wash Up"]
    assert first["revision"] == 1
    assert latest["title"] == "Scullery"
    assert [(card["title"], card["copies"]) for card in latest["cards"]] == [
        ("Frying Pan", 4), ("Wash Up", 1), ("Ladle", 1)
    ]
    assert api_client.get("/api/v1/decks/kitchen-sink/revisions/9/").status_code == 404


def test_the_diff_reads_as_the_lines_that_changed(api_client, edited_deck):
    to_previous = api_client.get("/api/v1/decks/kitchen-sink/revisions/2/diff/").json()
    to_first = api_client.get("/api/v1/decks/kitchen-sink/revisions/4/diff/?against=1").json()

    assert (to_previous["against"], to_previous["number"]) == (1, 2)
    assert "-Title: Kitchen Sink\n" in to_previous["diff"]
    assert "+Title: Scullery\n" in to_previous["diff"]
    assert "Frying Pan" not in to_previous["diff"]
    assert "-Frying Pan (x2) [Thing]\n" in to_first["diff"]
    assert "+Frying Pan (x4) [Thing]\n" in to_first["diff"]
    assert "+Ladle (x1) [Thing]\n" in to_first["diff"]
    first = api_client.get("/api/v1/decks/kitchen-sink/revisions/1/diff/")  # nothing before it to compare with
    assert first.status_code == 404 and first.json()["error"]["code"] == "not_found"


def test_restoring_makes_a_new_revision_with_the_old_content(user_client, edited_deck):
    response = user_client.post("/api/v1/decks/kitchen-sink/revisions/1/restore/")

    assert response.status_code == 201
    body = response.json()
    assert body["title"] == "Kitchen Sink"
    assert [(card["title"], card["copies"]) for card in body["cards"]] == [("Frying Pan", 2), ("Wash Up", 1)]
    assert body["revision"] == 5
    revisions = user_client.get("/api/v1/decks/kitchen-sink/revisions/").json()
    assert revisions[-1]["summary"] == "Restored revision 1"
    assert user_client.get("/api/v1/decks/kitchen-sink/revisions/4/").json()["title"] == "Scullery"


def test_restoring_does_not_undo_a_lock(user_client, curator_client, edited_deck):
    curator_client.post("/api/v1/decks/kitchen-sink/lock/")
    curator_client.post("/api/v1/decks/kitchen-sink/unlock/")
    restored = curator_client.post("/api/v1/decks/kitchen-sink/revisions/5/restore/")
    assert restored.json()["locked"] is False
    assert error_code(user_client.post("/api/v1/decks/kitchen-sink/revisions/99/restore/")) == "not_found"


def test_anonymous_restore_is_refused(api_client, edited_deck):
    assert api_client.post("/api/v1/decks/kitchen-sink/revisions/1/restore/").status_code == 401
    assert Deck.objects.get().title == "Scullery"


def test_revisions_cannot_be_changed_or_deleted(edited_deck):
    revision = Revision.objects.get(deck__slug="kitchen-sink", number=1)

    revision.summary = "Rewritten history"
    with pytest.raises(ImmutableRevision):
        revision.save()
    with pytest.raises(ImmutableRevision):
        revision.delete()
    with pytest.raises(ImmutableRevision):
        Revision.objects.filter(number=1).update(summary="Rewritten history")
    with pytest.raises(ImmutableRevision):
        Revision.objects.all().delete()
    assert Revision.objects.get(pk=revision.pk).summary == "Created"
    assert Revision.objects.count() == 4


def test_the_service_refuses_admin_edits_of_a_locked_deck_even_past_the_admin(curator, new_deck):
    new_deck()
    services.deck_lock(slug="kitchen-sink", actor=curator)
    before = Deck.objects.get(slug="kitchen-sink").revision

    with pytest.raises(DeckLocked):
        services.deck_edit(slug="kitchen-sink", author=curator, changes={"title": "Past the admin"},
                           added=[{"title": "Smuggled"}])

    deck = Deck.objects.get(slug="kitchen-sink")
    assert (deck.title, deck.revision, deck.cards.filter(title="Smuggled").exists()) == ("Kitchen Sink", before, False)


@pytest.fixture
def staff_browser(make_user) -> Client:
    user = make_user("historian")
    user.is_staff = True
    user.save()
    client = Client()
    client.force_login(user)
    return client


def test_the_admin_lists_revisions_shows_a_diff_and_restores(staff_browser, edited_deck):
    deck = Deck.objects.get()

    listing = staff_browser.get(f"/admin/decks/deck/{deck.pk}/revisions/").content.decode()
    diff_page = staff_browser.get(f"/admin/decks/deck/{deck.pk}/revisions/2/?against=1").content.decode()
    restore = staff_browser.post(f"/admin/decks/deck/{deck.pk}/revisions/1/restore/")

    assert "A better name" in listing and "Revision as of" in listing
    assert "+Title: Scullery" in diff_page and "-Title: Kitchen Sink" in diff_page
    assert "Restore this revision" in diff_page
    assert restore.status_code == 302
    deck.refresh_from_db()
    assert (deck.title, deck.revision) == ("Kitchen Sink", 5)


def test_the_admin_will_not_restore_into_a_locked_deck(staff_browser, curator_client, edited_deck):
    deck = Deck.objects.get()
    curator_client.post("/api/v1/decks/kitchen-sink/lock/")

    page = staff_browser.get(f"/admin/decks/deck/{deck.pk}/revisions/1/").content.decode()
    restore = staff_browser.post(f"/admin/decks/deck/{deck.pk}/revisions/1/restore/")

    assert "Restore this revision" not in page
    assert restore.status_code == 403
    deck.refresh_from_db()
    assert deck.title == "Scullery"
