"""The CCG endpoints are in the OpenAPI schema; the admin shows versions (read-only) and player decks."""

from __future__ import annotations

import pytest
from django.test import Client

from ccg.models import CardSetVersion
from tests.ccg.conftest import FILIBUSTER
from tests.ccg.test_player_decks import build

pytestmark = pytest.mark.django_db

CCG_PATHS = {
    "/api/v1/decks/{slug}/versions/": {"get"},
    "/api/v1/decks/{slug}/versions/{number}/": {"get"},
    "/api/v1/decks/{slug}/register/": {"post"},
    "/api/v1/decks/{slug}/changes/": {"get", "post"},
    "/api/v1/decks/{slug}/changes/{change_id}/object/": {"post"},
    "/api/v1/decks/{slug}/changes/{change_id}/accept/": {"post"},
    "/api/v1/player-decks/": {"get", "post"},
    "/api/v1/player-decks/{player_deck_id}/": {"get", "patch", "delete"},
    "/api/v1/player-decks/{player_deck_id}/update/": {"post"},
    "/api/v1/notifications/": {"get"},
    "/api/v1/notifications/read/": {"post"},
}


def test_every_ccg_endpoint_is_in_the_openapi_schema(players):
    (_, ann), _ = players
    paths = ann.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()["paths"]
    for path, methods in CCG_PATHS.items():
        assert path in paths, path
        assert methods <= set(paths[path]), (path, set(paths[path]))


def test_the_versions_of_a_set_can_be_read_by_anyone(filibuster_with_cards, api_client):
    versions = api_client.get(f"/api/v1/decks/{FILIBUSTER}/versions/").json()
    assert [version["number"] for version in versions] == [1, 2]
    assert api_client.post(f"/api/v1/decks/{FILIBUSTER}/register/").status_code == 401
    assert api_client.get(f"/api/v1/decks/{FILIBUSTER}/versions/9/").json()["error"]["code"] == "not_found"


@pytest.fixture
def staff_browser(make_user) -> Client:
    browser = Client()
    browser.force_login(make_user("keeper", curator=True))
    return browser


def test_the_admin_shows_versions_read_only_with_their_changelog(filibuster_with_cards, staff_browser):
    version = CardSetVersion.objects.get(card_set__slug=FILIBUSTER, number=2)
    page = staff_browser.get(f"/admin/ccg/cardsetversion/{version.pk}/change/")
    assert page.status_code == 200
    assert "Added card &#x27;Pork Barrel&#x27;" in page.content.decode()
    assert 'name="_save"' not in page.content.decode()
    assert staff_browser.get("/admin/ccg/cardsetversion/add/").status_code == 403


def test_the_admin_lists_player_decks_and_why_they_are_not_valid(filibuster_with_cards, players, staff_browser):
    (_, ann), _ = players
    deck = build(ann, filibuster_with_cards, {"Pork Barrel": 3}, name="Thin Deck")
    old = staff_browser.get("/admin/decks/playerdeck/?o=1")  # the page's address before the CCG app had its own
    assert old.status_code == 301 and old["Location"] == "/admin/ccg/playerdeck/?o=1"
    listing = staff_browser.get("/admin/ccg/playerdeck/").content.decode()
    assert "Thin Deck" in listing
    page = staff_browser.get(f"/admin/ccg/playerdeck/{deck['id']}/change/").content.decode()
    assert "at least 20 cards; this one has 3" in page


def test_a_curator_may_still_delete_an_unlocked_card_set_with_versions_and_changes(
    players, make_user, django_capture_on_commit_callbacks
):
    from decks import services as archive
    from decks.models import Deck
    from dvorak_core.deckdata import CardData, DeckData
    from proposals.models import CardSetChange
    from tests.ccg.conftest import accept, propose, register

    archive.deck_create(author=None, data=DeckData(slug="short-lived", title="Short Lived", kind="card_set",
                                                   cards=(CardData(title="Mayfly"),)))
    (_, ann), (_, bob) = players
    register(ann, "short-lived")
    register(bob, "short-lived")
    with django_capture_on_commit_callbacks(execute=True):
        accept(bob, propose(ann, {"kind": "add", "content": {"title": "Moth"}}, "short-lived")["id"], "short-lived")
    assert [v["number"] for v in ann.get("/api/v1/decks/short-lived/versions/").json()] == [1, 2]
    archive.deck_delete(slug="short-lived", actor=make_user("keeper", curator=True))
    assert not Deck.objects.filter(slug="short-lived").exists()
    assert not CardSetChange.objects.exists()
