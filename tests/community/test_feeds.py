"""The archive's Atom feeds: Recent Changes, a deck's history and a designer's decks. Each parses as Atom, holds the
revisions as entries linking their pages, escapes what users wrote, and is linked from its page's <head>."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from django.test import Client

from decks import services as deck_services
from dvorak_core.deckdata import DeckData
from tests.engine.dvorak_games import unique_title_deck

pytestmark = pytest.mark.django_db

ATOM = "{http://www.w3.org/2005/Atom}"


def feed(path: str) -> ET.Element:
    response = Client().get(path)
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("application/atom+xml")
    root = ET.fromstring(response.content)
    assert root.tag == f"{ATOM}feed"
    return root


def entries(root: ET.Element) -> list[dict[str, str]]:
    return [{"title": entry.findtext(f"{ATOM}title"), "link": entry.find(f"{ATOM}link").get("href"),
             "author": entry.findtext(f"{ATOM}author/{ATOM}name"), "summary": entry.findtext(f"{ATOM}summary"),
             "id": entry.findtext(f"{ATOM}id"), "updated": entry.findtext(f"{ATOM}updated")}
            for entry in root.findall(f"{ATOM}entry")]


def alternate(path: str) -> list[str]:
    """The Atom feeds a page's <head> names."""
    head = Client().get(path).content.decode().split("</head>")[0]
    return re.findall(r'<link rel="alternate" type="application/atom\+xml" title="[^"]*" href="([^"]+)">', head)


@pytest.fixture
def other_deck(bob):
    return deck_services.deck_create(author=bob, data=DeckData.from_dict({
        **unique_title_deck(3), "slug": "other-deck", "title": "Other Deck", "designers": ["Someone Else"]}))


def test_the_recent_changes_feed_has_an_entry_for_each_revision_newest_first(deck, other_deck, bob):
    deck_services.deck_update(slug=deck.slug, author=bob, changes={"date": "2008"}, summary="Dated")
    root = feed("/recent-changes/feed/")
    assert root.findtext(f"{ATOM}title") == "Dvorak: recent changes"
    found = entries(root)
    assert [entry["title"] for entry in found] == ["Watched Deck: revision 2", "Other Deck: revision 1",
                                                   "Watched Deck: revision 1"]
    newest = found[0]
    assert newest["link"] == "http://testserver/decks/watched-deck/history/2/"
    assert newest["author"] == "bob" and "Dated" in newest["summary"]
    assert root.find(f"{ATOM}entry/{ATOM}author/{ATOM}uri").text == "http://testserver/users/bob/"
    assert len({entry["id"] for entry in found}) == 3 and all(entry["updated"] for entry in found)
    assert alternate("/recent-changes/") == ["/recent-changes/feed/"]


def test_a_decks_history_feed_holds_its_revisions_only_and_is_linked_from_its_pages(deck, other_deck, bob, cora):
    deck_services.deck_lock(slug=deck.slug, actor=cora)
    root = feed(f"/decks/{deck.slug}/history/feed/")
    assert root.findtext(f"{ATOM}title") == "Dvorak: history of Watched Deck"
    assert [(entry["title"], entry["author"]) for entry in entries(root)] == [
        ("Watched Deck: revision 2", "cora"), ("Watched Deck: revision 1", "tweed")]
    for page in (f"/decks/{deck.slug}/history/", f"/decks/{deck.slug}/"):
        assert alternate(page) == [f"/decks/{deck.slug}/history/feed/"]
    assert Client().get("/decks/no-such-deck/history/feed/").status_code == 404


def test_a_designers_feed_holds_the_changes_of_their_decks(deck, other_deck, bob):
    deck_services.deck_update(slug=other_deck.slug, author=bob, changes={"date": "2009"}, summary="Dated")
    root = feed("/designers/Tweed Cap/feed/")
    assert root.findtext(f"{ATOM}title") == "Dvorak: decks by Tweed Cap"
    assert [entry["title"] for entry in entries(root)] == ["Watched Deck: revision 1"]
    assert alternate("/designers/Tweed Cap/") == ["/designers/Tweed%20Cap/feed/"]
    assert Client().get("/designers/Nobody At All/feed/").status_code == 404


def test_what_users_wrote_is_escaped_in_the_feed(deck, bob):
    deck_services.deck_update(slug=deck.slug, author=bob, changes={"title": "<b>Bold</b> & Co"},
                              summary='<script>alert("x")</script>')
    raw = Client().get("/recent-changes/feed/").content.decode()
    assert "<script>" not in raw and "<b>" not in raw
    newest = entries(feed("/recent-changes/feed/"))[0]
    assert newest["title"] == "<b>Bold</b> & Co: revision 2"  # Atom's text title: the words as written
    # The summary is HTML (type="html"): the user's text is in it as escaped text, never as markup.
    assert '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;' in newest["summary"]
