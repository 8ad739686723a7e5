"""Watchlists: watching and unwatching a deck or card set through the API and the site, and the notices a change to
a watched deck sends each watcher but the one who made it (in the API's list, on the site, by email)."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client

from ccg import changes
from ccg import services as ccg_services
from community.models import Watch
from decks import services as deck_services

pytestmark = pytest.mark.django_db


def notices(client) -> list[dict]:
    response = client.get("/api/v1/notifications/")
    assert response.status_code == 200, response.content
    return response.json()


def watch(client, slug: str) -> None:
    assert client.post(f"/api/v1/decks/{slug}/watch/").status_code in (200, 201)


# --- the API ------------------------------------------------------------------------------------------------------


def test_watch_then_unwatch_a_deck(deck, ann, client_for):
    client = client_for(ann)
    made = client.post(f"/api/v1/decks/{deck.slug}/watch/")
    assert made.status_code == 201, made.content
    assert made["Location"].endswith(f"/api/v1/decks/{deck.slug}/watch/")
    body = made.json()
    assert body["slug"] == deck.slug and body["title"] == "Watched Deck" and body["card_count"] == 6
    assert body["watched_at"]

    again = client.post(f"/api/v1/decks/{deck.slug}/watch/")
    assert again.status_code == 200 and again.json()["watched_at"] == body["watched_at"]
    assert Watch.objects.filter(user=ann).count() == 1
    assert client.get(f"/api/v1/decks/{deck.slug}/watch/").json() == body
    assert [entry["slug"] for entry in client.get("/api/v1/watchlist/").json()] == [deck.slug]

    assert client.delete(f"/api/v1/decks/{deck.slug}/watch/").status_code == 204
    assert client.get(f"/api/v1/decks/{deck.slug}/watch/").status_code == 404
    assert client.get("/api/v1/watchlist/").json() == []
    assert client.delete(f"/api/v1/decks/{deck.slug}/watch/").status_code == 204  # nothing to stop: the same


def test_watching_a_deck_that_is_not_there_or_without_signing_in_is_refused(deck, ann, client_for, api_client):
    response = client_for(ann).post("/api/v1/decks/no-such-deck/watch/")
    assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"
    assert api_client.post(f"/api/v1/decks/{deck.slug}/watch/").status_code == 401
    assert api_client.get("/api/v1/watchlist/").status_code == 401
    assert client_for(ann).post(f"/api/v1/decks/{deck.slug}/watch/", {"now": True}).status_code == 400


def test_the_watchlist_is_newest_first_and_paged(deck, card_set, ann, client_for):
    client = client_for(ann)
    watch(client, deck.slug)
    watch(client, card_set.slug)
    listed = client.get("/api/v1/watchlist/")
    assert [(entry["slug"], entry["kind"]) for entry in listed.json()] == [
        (card_set.slug, "card_set"), (deck.slug, "deck")]
    first = client.get("/api/v1/watchlist/?limit=1")
    assert [entry["slug"] for entry in first.json()] == [card_set.slug]
    following = first["Link"].split(">")[0].lstrip("<")
    assert [entry["slug"] for entry in client.get(following).json()] == [deck.slug]


# --- the notices --------------------------------------------------------------------------------------------------


def test_a_revision_by_someone_else_reaches_each_watcher_but_its_author(deck, ann, bob, client_for, on_commit):
    watch(client_for(ann), deck.slug)
    watch(client_for(bob), deck.slug)
    with on_commit():
        response = client_for(bob).patch(f"/api/v1/decks/{deck.slug}/", {"players": "3-5", "summary": "More players"})
    assert response.status_code == 200, response.content

    [notice] = notices(client_for(ann))
    assert notice["subject"] == "Watched Deck: revision 2 by bob"
    assert "More players" in notice["body"] and f"/decks/{deck.slug}/history/2/" in notice["body"]
    assert notice["data"] == {"kind": "watch", "deck": deck.slug, "change": "revision", "revision": 2, "post": None,
                              "by": "bob", "link": f"/decks/{deck.slug}/history/2/"}
    assert notices(client_for(bob)) == []  # the one who made it


def test_a_lock_an_unlock_and_a_talk_post_each_reach_the_watcher(deck, ann, bob, cora, client_for, on_commit):
    watch(client_for(ann), deck.slug)
    with on_commit():
        assert client_for(cora).post(f"/api/v1/decks/{deck.slug}/lock/").status_code == 200
    with on_commit():
        assert client_for(cora).post(f"/api/v1/decks/{deck.slug}/unlock/").status_code == 200
    with on_commit():
        posted = client_for(bob).post(f"/api/v1/decks/{deck.slug}/talk/", {"body": "Could Crown cost something?"})
    assert posted.status_code == 201
    with on_commit():
        replied = client_for(cora).post(f"/api/v1/decks/{deck.slug}/talk/",
                                        {"body": "Maybe 2 Gold.", "reply_to": posted.json()["id"]})
    assert replied.status_code == 201

    subjects = [notice["subject"] for notice in notices(client_for(ann))]
    assert subjects == ["cora wrote on the talk page of Watched Deck", "bob wrote on the talk page of Watched Deck",
                        "Watched Deck was unlocked by cora", "Watched Deck was locked by cora"]
    talk = notices(client_for(ann))[1]
    assert "Could Crown cost something?" in talk["body"]
    assert talk["data"]["change"] == "talk" and talk["data"]["post"] == posted.json()["id"]
    assert talk["data"]["link"] == f"/decks/{deck.slug}/talk/#post-{posted.json()['id']}"
    # The watcher's own post tells no one of it but the others.
    with on_commit():
        client_for(ann).post(f"/api/v1/decks/{deck.slug}/talk/", {"body": "Thanks!"})
    assert len(notices(client_for(ann))) == 4


def test_a_watcher_with_an_address_gets_each_notice_by_email_and_one_without_does_not(
        deck, ann, bob, cora, client_for, on_commit):
    watch(client_for(ann), deck.slug)
    watch(client_for(bob), deck.slug)
    mail.outbox.clear()
    with on_commit():
        deck_services.card_add(slug=deck.slug, author=cora,
                               card=deck_services.deck_from_values({"title": "X", "cards": [
                                   {"title": "Crown", "text": "Worth a kingdom."}]}).cards[0], summary="A crown")
    assert [message.to for message in mail.outbox] == [["ann@example.org"]]
    assert mail.outbox[0].subject == "Watched Deck: revision 2 by cora"
    assert "A crown" in mail.outbox[0].body
    assert len(notices(client_for(bob))) == 1  # in the list all the same


def test_a_change_that_is_refused_or_unwatched_tells_no_one(deck, ann, bob, cora, client_for, on_commit):
    watch(client_for(ann), deck.slug)
    deck_services.deck_lock(slug=deck.slug, actor=cora)
    with on_commit():
        refused = client_for(bob).patch(f"/api/v1/decks/{deck.slug}/", {"players": "9"})
    assert refused.status_code == 423
    assert notices(client_for(ann)) == []  # the lock above was never committed: no notice of it either
    client_for(ann).delete(f"/api/v1/decks/{deck.slug}/watch/")
    with on_commit():
        client_for(cora).post(f"/api/v1/decks/{deck.slug}/unlock/")
    assert notices(client_for(ann)) == []


def test_a_watched_card_set_tells_of_its_changes_the_same_way(card_set, ann, bob, client_for, on_commit):
    watch(client_for(ann), card_set.slug)
    card = card_set.cards.order_by("id").first()
    with on_commit():
        changed = client_for(bob).patch(f"/api/v1/decks/{card_set.slug}/cards/{card.pk}/", {"text": "New words."})
    assert changed.status_code == 200, changed.content
    [notice] = notices(client_for(ann))
    assert notice["subject"] == "Watched Set: revision 2 by bob"
    assert notice["data"]["deck"] == card_set.slug


def test_a_card_sets_new_version_reaches_its_watchers_as_the_archives_revision(card_set, ann, bob, client_for,
                                                                                on_commit):
    watch(client_for(bob), card_set.slug)
    ccg_services.card_set_register(slug=card_set.slug, user=ann)
    change = changes.card_set_change_propose(slug=card_set.slug, author=ann, kind="add", card_id=None,
                                             content={"title": "Crown", "text": "Worth a kingdom."})
    assert change.status == "accepted"  # its one registered player proposed it
    with on_commit():
        version = ccg_services.card_set_version_build(card_set_id=card_set.pk)
    assert version is not None
    [notice] = notices(client_for(bob))
    assert notice["subject"] == f"Watched Set: revision {version.card_set.revision} by the archive"
    assert notice["data"]["by"] is None and "Added card 'Crown'" in notice["body"]


# --- the site -----------------------------------------------------------------------------------------------------


def browser(user=None) -> Client:
    client = Client(enforce_csrf_checks=True)
    if user is not None:
        client.force_login(user)
    return client


def csrf_post(client: Client, page: str, path: str, data: dict):
    """A form sent as the browser sends it: with the CSRF token of the page it was on."""
    client.get(page)
    return client.post(path, {**data, "csrfmiddlewaretoken": client.cookies["csrftoken"].value})


def test_the_deck_page_watches_and_unwatches_and_the_watchlist_shows_it(deck, ann):
    client = browser(ann)
    page = client.get(f"/decks/{deck.slug}/").content.decode()
    assert 'action="/decks/watched-deck/watch/"' in page and ">Watch</button>" in page
    assert client.post(f"/decks/{deck.slug}/watch/", {"watch": "1"}).status_code == 403  # no CSRF token

    response = csrf_post(client, f"/decks/{deck.slug}/", f"/decks/{deck.slug}/watch/", {"watch": "1"})
    assert response.status_code == 302 and response["Location"] == f"/decks/{deck.slug}/"
    page = client.get(f"/decks/{deck.slug}/").content.decode()
    assert ">Unwatch</button>" in page
    watchlist = client.get("/watchlist/").content.decode()
    assert 'href="/decks/watched-deck/"' in watchlist and "Watched Deck" in watchlist

    csrf_post(client, "/watchlist/", f"/decks/{deck.slug}/watch/", {"watch": "0", "next": "/watchlist/"})
    assert not Watch.objects.filter(user=ann).exists()
    assert "You watch no deck yet" in client.get("/watchlist/").content.decode()


def test_someone_signed_out_is_asked_to_sign_in(deck):
    client = browser()
    assert "to watch this deck" in client.get(f"/decks/{deck.slug}/").content.decode()
    for path in ("/watchlist/", "/notifications/"):
        response = client.get(path)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/sign-in/")


def test_the_site_shows_the_notice_of_anothers_edit_and_marks_it_read(deck, ann, bob, client_for, on_commit):
    watch(client_for(ann), deck.slug)
    with on_commit():
        deck_services.deck_update(slug=deck.slug, author=bob, changes={"date": "2008"}, summary="Dated <it>")
    client = browser(ann)
    header = client.get("/").content.decode()
    assert 'href="/notifications/"' in header and "(1)" in header
    page = client.get("/notifications/").content.decode()
    assert "Watched Deck: revision 2 by bob" in page and 'href="/decks/watched-deck/history/2/"' in page
    assert "Dated &lt;it&gt;" in page and "<it>" not in page
    csrf_post(client, "/notifications/", "/notifications/read/", {})
    assert "(1)" not in client.get("/notifications/").content.decode()
    assert notices(client_for(ann))[0]["read_at"] is not None
