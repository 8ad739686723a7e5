"""Multi-Deck Dvorak with a deck per side, through the API: "A more effective way to create a game with two or more
distinct 'sides' is to have separate decks, each deck focusing solely on that side." The creator's deck is the
game's (`POST /games/` `deck`); each player who joins names theirs (`POST /games/{id}/join/` `{"deck": slug}`, by
default the creator's); "Each player has their own draw and discard pile"; and the Aftermath publishes each side's
deck the game changed back to its own archive entry."""

import pytest

from decks.models import Deck
from dvorak_core.deckdata import DeckData
from tests.engine.test_multi_deck_sides import side_deck

pytestmark = pytest.mark.django_db

ALIENS = side_deck("aliens", "Aliens", "Alien",
                   seed_card={"title": "Alien Xenomorph Egg", "type": "Thing", "text": "", "copies": 2})
# Six copies of ten cards: whoever plays the Marines holds a Face Grabber from the start.
MARINES = side_deck("marines", "Marines", "Marine", size=5, seed_card={
    "title": "Marine Face Grabber", "type": "Action", "copies": 6,
    "text": "Take a random card from an opponent's hand, then discard a card."})


@pytest.fixture
def two_decks(db):
    from decks import services as deck_services

    made = []
    for content, rule in ((ALIENS, "Hive Mind"), (MARINES, "Drop Ship")):
        data = {**content, "special_rules": [{"title": rule, "text": "Be nice."}]}
        made.append(deck_services.deck_create(author=None, data=DeckData.from_dict(data)))
    return made


def titles(deck: dict) -> set[str]:
    return {card["title"] for card in deck["cards"]}


def command(client, game_id, body):
    response = client.post(f"/api/v1/games/{game_id}/commands/", body, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def multi_deck_game(make_user, client_for, *, creative=False, bob_deck="marines"):
    """Ann creates a Multi-Deck game of the Aliens; Bob joins with ``bob_deck`` (None: naming none)."""
    ann, bob = client_for(make_user("ann")), client_for(make_user("bob"))
    created = ann.post("/api/v1/games/", {"deck": "aliens", "variant": "multi_deck", "creative": creative,
                                          "max_players": 2}, format="json")
    assert created.status_code == 201, created.content
    game_id = created.json()["id"]
    joined = bob.post(f"/api/v1/games/{game_id}/join/", {} if bob_deck is None else {"deck": bob_deck}, format="json")
    assert joined.status_code == 200, joined.content
    return game_id, ann, bob


def own_hand(client, game_id) -> list[str]:
    game = client.get(f"/api/v1/games/{game_id}/").json()
    return [card["title"] for card in game["players"][game["you"]]["hand"]]


def test_a_multi_deck_game_of_two_archive_decks_deals_each_seat_from_its_own(two_decks, make_user, client_for):
    """ "separate decks, each deck focusing solely on that side"; "Each player has their own draw and discard
    pile"."""
    game_id, ann, bob = multi_deck_game(make_user, client_for)
    started = ann.post(f"/api/v1/games/{game_id}/start/")
    assert started.status_code == 200, started.content
    game = started.json()
    assert [p["deck"] for p in game["players"]] == [{"slug": "aliens", "title": "Aliens"},
                                                   {"slug": "marines", "title": "Marines"}]
    assert [p["draw_pile"] for p in game["players"]] == [{"count": 13 - 5}, {"count": 10 - 5}]
    assert len(own_hand(ann, game_id)) == 5 and set(own_hand(ann, game_id)) <= titles(ALIENS)
    assert len(own_hand(bob, game_id)) == 5 and set(own_hand(bob, game_id)) <= titles(MARINES)
    # The game is played by the Special Rules of the deck it was created with; the Marines' stay out.
    assert [rule["title"] for rule in game["special_rules"]] == ["Hive Mind"]
    # Each draws from their own draw pile.
    seat = game["turn"]["seat"]
    drawer = (ann, bob)[seat]
    command(drawer, game_id, {"type": "draw"})
    assert len(own_hand(drawer, game_id)) == 6
    assert set(own_hand(drawer, game_id)) <= titles((ALIENS, MARINES)[seat])


def test_a_joiner_who_names_no_deck_plays_the_creators(two_decks, make_user, client_for):
    game_id, ann, bob = multi_deck_game(make_user, client_for, bob_deck=None)
    game = ann.post(f"/api/v1/games/{game_id}/start/").json()
    assert [p["deck"]["slug"] for p in game["players"]] == ["aliens", "aliens"]
    assert set(own_hand(bob, game_id)) <= titles(ALIENS)


def test_a_card_taken_from_another_side_is_discarded_onto_its_own_decks_pile(two_decks, make_user, client_for):
    """ "When a card is destroyed or discarded, it is sent to the discard Pile of the player whose deck it came
    from." Bob's Face Grabber takes one of Ann's Aliens and discards it: onto Ann's discard pile, not his."""
    game_id, ann, bob = multi_deck_game(make_user, client_for)
    ann.post(f"/api/v1/games/{game_id}/start/")
    bob_hand = bob.get(f"/api/v1/games/{game_id}/").json()["players"][1]["hand"]
    grabber = next(card["id"] for card in bob_hand if card["title"] == "Marine Face Grabber")
    command(bob, game_id, {"type": "take_random", "from": 0, "cause": grabber})
    taken = next(card for card in bob.get(f"/api/v1/games/{game_id}/").json()["players"][1]["hand"]
                 if card["title"].startswith("Alien"))
    command(bob, game_id, {"type": "discard", "cards": [taken["id"]], "cause": grabber})
    players = ann.get(f"/api/v1/games/{game_id}/").json()["players"]
    assert [card["title"] for card in players[0]["discard_pile"]] == [taken["title"]]
    assert players[1]["discard_pile"] == []


def test_a_deck_joins_only_a_multi_deck_game(two_decks, make_user, client_for):
    ann, bob = client_for(make_user("ann")), client_for(make_user("bob"))
    game_id = ann.post("/api/v1/games/", {"deck": "aliens", "max_players": 2}, format="json").json()["id"]
    refused = bob.post(f"/api/v1/games/{game_id}/join/", {"deck": "marines"}, format="json")
    assert refused.status_code == 409, refused.content  # a well-formed body this game's variant cannot take
    assert refused.json()["error"]["code"] == "not_multi_deck" and "deck" in refused.json()["error"]["details"]
    assert len(ann.get(f"/api/v1/games/{game_id}/").json()["players"]) == 1


def test_a_deck_the_archive_does_not_have_is_not_found(two_decks, make_user, client_for):
    ann, bob = client_for(make_user("ann")), client_for(make_user("bob"))
    game_id = ann.post("/api/v1/games/", {"deck": "aliens", "variant": "multi_deck"}, format="json").json()["id"]
    missing = bob.post(f"/api/v1/games/{game_id}/join/", {"deck": "predators"}, format="json")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    malformed = bob.post(f"/api/v1/games/{game_id}/join/", {"deck": "not a slug!"}, format="json")
    assert malformed.status_code == 400 and malformed.json()["error"]["code"] == "invalid"


def test_a_deck_stored_beyond_the_bound_is_refused_before_dealing_a_card(two_decks, make_user, client_for):
    from decks.models import Card

    marines = two_decks[1]
    Card.objects.filter(pk=marines.cards.first().pk).update(copies=35_000_000)
    ann, bob = client_for(make_user("ann")), client_for(make_user("bob"))
    game_id = ann.post("/api/v1/games/", {"deck": "aliens", "variant": "multi_deck"}, format="json").json()["id"]
    refused = bob.post(f"/api/v1/games/{game_id}/join/", {"deck": "marines"}, format="json")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "deck_too_large"
    assert len(ann.get(f"/api/v1/games/{game_id}/").json()["players"]) == 1


def test_a_client_may_not_send_a_sides_deck_of_its_own_making(two_decks, make_user, client_for):
    ann, bob = client_for(make_user("ann")), client_for(make_user("bob"))
    game_id = ann.post("/api/v1/games/", {"deck": "aliens", "variant": "multi_deck"}, format="json").json()["id"]
    forged = {"slug": "marines", "title": "Marines", "cards": [{"title": "Nuke", "type": "Action", "copies": 50}]}
    refused = bob.post(f"/api/v1/games/{game_id}/commands/", {"type": "join", "side_deck": forged}, format="json")
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "invalid"
    assert len(ann.get(f"/api/v1/games/{game_id}/").json()["players"]) == 1


def test_the_aftermath_publishes_each_changed_side_deck_to_its_own_archive_entry(two_decks, make_user, client_for):
    """ "If playing creatively, new cards are created as normal, going into the creator's deck by default": Bob's
    new card goes into the Marines, and publishing makes a revision of each deck, each card's creator recorded."""
    game_id, ann, bob = multi_deck_game(make_user, client_for, creative=True)
    command(bob, game_id, {"type": "propose", "kind": "card",
                           "card": {"title": "Marine Power Loader", "type": "Thing", "text": ""}})
    command(ann, game_id, {"type": "vote", "proposal": 1, "approve": True})
    command(ann, game_id, {"type": "propose", "kind": "card",
                           "card": {"title": "Alien Queen", "type": "Thing", "text": ""}})
    command(bob, game_id, {"type": "vote", "proposal": 2, "approve": True})
    assert ann.post(f"/api/v1/games/{game_id}/start/").status_code == 200
    command(bob, game_id, {"type": "concede"})

    published = ann.post(f"/api/v1/games/{game_id}/publish/", {}, format="json")
    assert published.status_code == 201, published.content
    assert published.json() == {"deck": "aliens", "revision": 2,
                                "decks": [{"deck": "aliens", "revision": 2}, {"deck": "marines", "revision": 2}]}
    aliens = ann.get("/api/v1/decks/aliens/").json()
    marines = ann.get("/api/v1/decks/marines/").json()
    assert titles(aliens) == titles(ALIENS) | {"Alien Queen"}
    assert titles(marines) == titles(MARINES) | {"Marine Power Loader"}
    assert {c["title"]: c for c in marines["cards"]}["Marine Power Loader"]["creator"] == "bob"
    assert {c["title"]: c for c in aliens["cards"]}["Alien Queen"]["creator"] == "ann"
    assert {c["title"]: c["copies"] for c in marines["cards"]}["Marine Face Grabber"] == 6
    # Each deck keeps its own Special Rules: the Marines' never were the game's.
    assert [rule["title"] for rule in aliens["special_rules"]] == ["Hive Mind"]
    assert [rule["title"] for rule in marines["special_rules"]] == ["Drop Ship"]


def test_the_aftermath_leaves_a_side_deck_the_game_did_not_change(two_decks, make_user, client_for):
    game_id, ann, bob = multi_deck_game(make_user, client_for, creative=True)
    ann.post(f"/api/v1/games/{game_id}/start/")
    command(bob, game_id, {"type": "concede"})
    published = ann.post(f"/api/v1/games/{game_id}/publish/", {}, format="json")
    assert published.status_code == 201, published.content
    assert published.json() == {"deck": "aliens", "revision": 2, "decks": [{"deck": "aliens", "revision": 2}]}
    assert Deck.objects.get(slug="marines").revision == 1


def test_a_locked_side_deck_refuses_the_whole_aftermath(two_decks, make_user, client_for):
    from decks import services as deck_services

    game_id, ann, bob = multi_deck_game(make_user, client_for, creative=True)
    command(bob, game_id, {"type": "propose", "kind": "card",
                           "card": {"title": "Marine Power Loader", "type": "Thing", "text": ""}})
    command(ann, game_id, {"type": "vote", "proposal": 1, "approve": True})
    ann.post(f"/api/v1/games/{game_id}/start/")
    command(bob, game_id, {"type": "concede"})
    deck_services.deck_lock(slug="marines", actor=make_user("curator", curator=True))
    locked = ann.post(f"/api/v1/games/{game_id}/publish/", {}, format="json")
    assert locked.status_code == 423 and locked.json()["error"]["code"] == "deck_locked"
    assert locked.json()["error"]["details"] == {"slug": "marines"}
    assert Deck.objects.get(slug="aliens").revision == 1 and Deck.objects.get(slug="marines").revision == 2
