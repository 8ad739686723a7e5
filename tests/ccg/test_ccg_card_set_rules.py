"""CCG Dvorak's rules of the Card Set itself, through the API as clients and curators see them: a set of fewer
than fifty cards shows that as a problem of the set and is played all the same; an accepted change reaches every
player's deck at once, with a notice to each owner."""

from __future__ import annotations

import pytest
from django.test import Client

from decks import services as archive
from dvorak_core.deckdata import CardData, DeckData
from tests.ccg.conftest import FILIBUSTER, accept, propose, register
from tests.ccg.test_ccg_games import build_deck, create_ccg_game
from tests.seeds import rulebook_example_cards, seed_deck

pytestmark = pytest.mark.django_db

# The seed's CCG Dvorak: "To create the Card Set, players should spend a while creating and approving at least
# fifty cards".
FIFTY = 50


def too_few(cards: int) -> list[dict]:
    return [{"code": "too_few_cards",
             "message": f"A Card Set has at least 50 cards; this one has {cards}. It may be played meanwhile.",
             "details": {"cards": cards, "least": FIFTY}}]


def version(client, number: int, slug: str = FILIBUSTER) -> dict:
    answer = client.get(f"/api/v1/decks/{slug}/versions/{number}/")
    assert answer.status_code == 200, answer.json()
    return answer.json()


def test_a_card_set_of_fewer_than_fifty_cards_shows_it_as_a_problem_and_is_played_all_the_same(
    filibuster_with_cards, players
):
    """"creating and approving at least fifty cards": the Filibuster set, four cards into its making, says so
    wherever a client reads it, and its players still build decks and play formal and casual games from it."""
    (_, ann), (_, bob) = players
    assert version(ann, 2)["problems"] == too_few(4)
    assert version(ann, 1)["problems"] == too_few(0)
    listed = ann.get(f"/api/v1/decks/{FILIBUSTER}/versions/").json()
    assert [(entry["number"], entry["problems"]) for entry in listed] == [(1, too_few(0)), (2, too_few(4))]

    ann_deck = build_deck(ann, filibuster_with_cards, "Ann's filibusters")
    bob_deck = build_deck(bob, filibuster_with_cards, "Bob's gambits")
    formal = create_ccg_game(ann, ann_deck["id"], formal=True)
    assert formal.status_code == 201, formal.json()
    joined = bob.post(f"/api/v1/games/{formal.json()['id']}/join/", {"player_deck": bob_deck["id"]}, format="json")
    assert joined.status_code == 200, joined.json()
    assert ann.post(f"/api/v1/games/{formal.json()['id']}/start/").status_code == 200
    assert ann.get(f"/api/v1/games/{formal.json()['id']}/").json()["status"] == "active"
    assert create_ccg_game(bob, bob_deck["id"], formal=False).status_code == 201


def seed_set_of_49() -> str:
    """A card set of 49 distinct cards from the project's seed decks (Socialism's 29, Rock-Paper-Scissors Extreme's
    first 20), one of them printed in five copies: copies are not more cards of the set."""
    cards = [*seed_deck("socialism").cards, *seed_deck("rock-paper-scissors-extreme-deck").cards[:20]]
    cards = [CardData(title=card.title, type=card.type, text=card.text, copies=5 if index == 0 else 1)
             for index, card in enumerate(cards)]
    assert len(cards) == 49
    archive.deck_create(author=None, data=DeckData(slug="seed-set", title="Seed Set", kind="card_set",
                                                   cards=tuple(cards)))
    return "seed-set"


def test_the_fiftieth_card_approved_clears_the_problem(players, django_capture_on_commit_callbacks):
    (_, ann), (_, bob) = players
    slug = seed_set_of_49()
    register(ann, slug)
    register(bob, slug)
    assert version(ann, 1, slug)["problems"] == too_few(49)

    espionage = rulebook_example_cards()[0]
    with django_capture_on_commit_callbacks(execute=True):
        accept(bob, propose(ann, {"kind": "add", "content": {name: espionage[name] for name in
                                                             ("title", "type", "text")}}, slug)["id"], slug)
    assert len(version(ann, 2, slug)["cards"]) == FIFTY
    assert version(ann, 2, slug)["problems"] == []
    # A version is history: the one before still had too few.
    assert version(ann, 1, slug)["problems"] == too_few(49)


@pytest.fixture
def staff_browser(make_user) -> Client:
    browser = Client()
    browser.force_login(make_user("keeper", curator=True))
    return browser


def test_a_curator_sees_the_problem_on_the_sets_admin_pages(filibuster_with_cards, staff_browser):
    from ccg.models import CardSet, CardSetVersion

    listing = staff_browser.get("/admin/ccg/cardset/").content.decode()
    assert "Filibuster CCG set" in listing and "A Card Set has at least 50 cards; this one has 4." in listing
    card_set = CardSet.objects.get(slug=FILIBUSTER)
    page = staff_browser.get(f"/admin/ccg/cardset/{card_set.pk}/change/")
    assert page.status_code == 200
    assert "this one has 4. It may be played meanwhile." in page.content.decode()
    assert f"/admin/decks/deck/{card_set.pk}/change/" in page.content.decode()  # its cards are edited there
    assert 'name="_save"' not in page.content.decode()
    assert staff_browser.get("/admin/ccg/cardset/add/").status_code == 403
    latest = CardSetVersion.objects.get(card_set__slug=FILIBUSTER, number=2)
    assert "this one has 4" in staff_browser.get(f"/admin/ccg/cardsetversion/{latest.pk}/change/").content.decode()

    seed_set_of_49()
    CardSet.objects.get(slug="seed-set")
    listing = staff_browser.get("/admin/ccg/cardset/").content.decode()
    assert "this one has 49" in listing  # a set no one has versioned yet: the archive's cards count
    archive.deck_create(author=None, data=DeckData(slug="plain-deck", title="Plain Deck", cards=(CardData("X"),)))
    assert "Plain Deck" not in staff_browser.get("/admin/ccg/cardset/").content.decode()  # card sets only


def test_an_accepted_change_is_reflected_in_every_players_deck_at_once_with_a_notice(
    filibuster_with_cards, players, django_capture_on_commit_callbacks
):
    """"The Card Set itself, however, can be altered at any time [...] Any adjustments to the Card Set should be
    immediately reflected in every player's deck." Ann's deck is in a game, Bob's is not: both show the set's new
    card text, and the card taken out of the set, without either of them updating anything."""
    (_, ann), (_, bob) = players
    cards = filibuster_with_cards
    ann_deck = build_deck(ann, cards, "Ann's filibusters")
    bob_deck = build_deck(bob, cards, "Bob's gambits")
    game = create_ccg_game(ann, ann_deck["id"], formal=False).json()["id"]
    assert ann.get(f"/api/v1/player-decks/{ann_deck['id']}/").json()["in_game"] is True

    with django_capture_on_commit_callbacks(execute=True):
        changed = propose(ann, {"kind": "change", "card": cards["Pork Barrel"]["id"],
                                "content": {"text": "Gain 5 points."}})
        removed = propose(ann, {"kind": "remove", "card": cards["Talking Point"]["id"]})
        accept(bob, changed["id"])
        accept(bob, removed["id"])

    latest = ann.get(f"/api/v1/decks/{FILIBUSTER}/versions/").json()[-1]["number"]
    for client, deck in ((ann, ann_deck), (bob, bob_deck)):
        now = client.get(f"/api/v1/player-decks/{deck['id']}/").json()
        assert now["version"] == now["latest_version"] == latest
        shown = {entry["title"]: entry["text"] for entry in now["entries"]}
        assert shown["Pork Barrel"] == "Gain 5 points." and "Talking Point" not in shown
        assert now["size"] == 15 and now["valid"] is False  # five Talking Points went with the card
        [listed] = client.get("/api/v1/player-decks/").json()
        assert listed == now

    # One notice per owner, naming the deck and what the version did to it.
    for client, deck, in_game in ((ann, ann_deck, True), (bob, bob_deck, False)):
        [notice] = client.get("/api/v1/notifications/?unread=true").json()
        assert notice["subject"] == f"Filibuster CCG set is now at version {latest}"
        assert notice["data"] == {"card_set": FILIBUSTER, "version": latest, "player_decks": [
            {"id": deck["id"], "name": deck["name"], "removed": ["Talking Point (5 copies)"],
             "changed": ["Pork Barrel"], "in_game": in_game}]}
        assert "Taken out (no longer in the set): Talking Point (5 copies)" in notice["body"]
        assert ("goes on with the cards it was dealt" in notice["body"]) is in_game
    # The game Ann's deck is in keeps the cards it was dealt; its record names the version they came from.
    assert ann.get(f"/api/v1/games/{game}/").json()["players"][0]["deck"]["version"] == 2
