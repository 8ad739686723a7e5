"""People: a user's page (their decks, their edits, their finished games), and a designer's name claimed by an
account ("This is me"), confirmed by a curator in the admin, after which the designer page links the user's page
and the user's page lists the designer's decks."""

from __future__ import annotations

import pytest
from django.test import Client

from community.models import DesignerClaim
from decks import services as deck_services
from dvorak_core.deckdata import DeckData
from tests.engine.dvorak_games import unique_title_deck

pytestmark = pytest.mark.django_db


def browser(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def page(client: Client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    return response.content.decode()


def section(html: str, name: str) -> str:
    return html.split(f'<section id="{name}">', 1)[1].split("</section>", 1)[0]


def finished_game(client_for, players, deck_slug: str, **options) -> str:
    first, second = (client_for(player) for player in players)
    body = {"deck": deck_slug, **({"options": options} if options else {})}
    game = first.post("/api/v1/games/", body, format="json").json()["id"]
    assert second.post(f"/api/v1/games/{game}/join/", {}, format="json").status_code == 200
    assert first.post(f"/api/v1/games/{game}/start/").status_code == 200
    assert second.post(f"/api/v1/games/{game}/commands/", {"type": "concede"}, format="json").status_code == 201
    return game


def test_a_users_page_lists_their_decks_edits_and_finished_games(deck, ann, bob, make_user, client_for):
    theirs = deck_services.deck_create(author=ann, data=DeckData.from_dict({
        **unique_title_deck(4), "slug": "anns-deck", "title": "Ann's Deck"}))
    deck_services.deck_update(slug=deck.slug, author=ann, changes={"date": "2008"}, summary="Dated it")
    played = finished_game(client_for, (ann, bob), deck.slug)
    private = finished_game(client_for, (ann, bob), deck.slug, spectators="nobody")
    in_play = client_for(ann).post("/api/v1/games/", {"deck": deck.slug}, format="json").json()["id"]

    html = page(browser(), "/users/ann/")
    assert "<h1>ann</h1>" in html
    decks = section(html, "decks")
    assert f'href="/decks/{theirs.slug}/"' in decks and f'href="/decks/{deck.slug}/"' not in decks
    edits = section(html, "edits")
    assert "Dated it" in edits and f'href="/decks/{deck.slug}/history/2/"' in edits
    assert f'href="/decks/{theirs.slug}/history/1/"' in edits
    games = section(html, "games")
    assert f'href="/play/{played}/"' in games and 'href="/users/bob/"' in games and "won" in games
    assert private not in games and in_play not in games  # closed to all but its players; not over
    # A player of the closed game sees it on the page; so does its owner.
    assert private in section(page(browser(bob), "/users/ann/"), "games")
    assert private in section(page(browser(ann), "/users/ann/"), "games")
    assert private not in section(page(browser(make_user("cat")), "/users/ann/"), "games")

    assert browser().get("/users/nobody-here/").status_code == 404


def test_names_link_to_users_pages(deck, ann):
    deck_services.deck_update(slug=deck.slug, author=ann, changes={"date": "2008"}, summary="Dated it")
    assert 'href="/users/ann/"' in page(browser(), "/recent-changes/")
    assert 'href="/users/ann/"' in page(browser(), f"/decks/{deck.slug}/history/")
    assert 'href="/users/ann/"' in page(browser(ann), "/")  # the header: your own page


def claim(client: Client, name: str):
    return client.post(f"/designers/{name}/claim/")


def confirm_in_the_admin(curator, claim_ids: list[int], action: str = "confirm_claims"):
    client = browser(curator)
    listing = client.get("/admin/community/designerclaim/")
    assert listing.status_code == 200
    return client.post("/admin/community/designerclaim/", {"action": action, "_selected_action": claim_ids},
                       follow=True)


def test_a_designer_claimed_and_confirmed_in_the_admin_links_the_users_page(deck, ann, cora, client_for,
                                                                              on_commit):
    designer = "/designers/Tweed Cap/"
    assert ">This is me</button>" in page(browser(ann), designer)
    assert ">This is me</button>" not in page(browser(), designer)

    response = claim(browser(ann), "Tweed Cap")
    assert response.status_code == 302 and response["Location"] == "/designers/Tweed%20Cap/"
    pending = DesignerClaim.objects.get()
    assert (pending.user, pending.name, pending.status) == (ann, "Tweed Cap", "pending")
    assert "Your claim to be Tweed Cap waits for a curator" in page(browser(ann), designer)
    assert "ann says they are Tweed Cap" in page(browser(), designer)
    assert 'href="/users/ann/"' not in page(browser(), designer)
    claim(browser(ann), "Tweed Cap")  # again: still the one claim
    assert DesignerClaim.objects.count() == 1

    listing = page(browser(cora), "/admin/community/designerclaim/")
    assert "Tweed Cap" in listing and "Confirm the selected claims" in listing
    with on_commit():
        done = confirm_in_the_admin(cora, [pending.pk])
    assert "Confirmed: ann as Tweed Cap." in done.content.decode()
    pending.refresh_from_db()
    assert pending.status == "confirmed" and pending.decided_by == cora

    html = page(browser(), designer)
    assert 'Tweed Cap is <a href="/users/ann/"' in html and ">This is me</button>" not in html
    user_page = page(browser(), "/users/ann/")
    assert 'href="/designers/Tweed%20Cap/"' in user_page
    assert f'href="/decks/{deck.slug}/"' in section(user_page, "decks")  # Tweed Cap's deck, started by another
    notice = client_for(ann).get("/api/v1/notifications/").json()[0]
    assert notice["subject"] == "You are Tweed Cap on the archive"


def test_a_name_confirmed_as_one_account_is_refused_to_another_and_only_curators_confirm(
        deck, ann, bob, cora, make_user):
    claim(browser(ann), "Tweed Cap")
    claim(browser(bob), "Tweed Cap")
    anns, bobs = (DesignerClaim.objects.get(user=user) for user in (ann, bob))

    staff = make_user("staff")
    staff.is_staff = True
    staff.save()
    confirm_in_the_admin(staff, [anns.pk])  # staff who are not curators have no such action
    anns.refresh_from_db()
    assert anns.status == "pending"

    confirm_in_the_admin(cora, [anns.pk])
    bobs.refresh_from_db()
    assert bobs.status == "rejected"  # the name's other claims waiting are answered too
    refused = browser(bob).post("/designers/Tweed Cap/claim/", follow=True)
    assert "already confirmed as another account" in refused.content.decode()
    assert DesignerClaim.objects.filter(user=bob, status="pending").count() == 0

    confirm_in_the_admin(cora, [anns.pk], action="reject_claims")
    assert 'href="/users/ann/"' not in page(browser(), "/designers/Tweed Cap/")


def test_only_a_name_the_archive_knows_can_be_claimed(ann):
    assert browser(ann).post("/designers/Nobody At All/claim/").status_code == 404
    response = browser().post("/designers/Tweed Cap/claim/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/sign-in/")
