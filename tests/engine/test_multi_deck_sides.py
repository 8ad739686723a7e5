"""Multi-Deck Dvorak with a deck per side (the rulebook's "The Variants of Dvorak"; the second reading): "A more
effective way to create a game with two or more distinct 'sides' is to have separate decks, each deck focusing
solely on that side." Each player joins with their side's deck (the service finds it in the archive and sends it as
``side_deck``; by default the game's own), draws and discards in its piles, and the Aftermath gives each side's
deck back to its own archive entry. A game created before (the first reading) deals every player a copy of the
game's deck, as it always did."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from dvorak_engine import (
    Actor,
    DomainError,
    Event,
    SeededRng,
    decide,
    replay,
    state_from_json,
    state_to_json,
    view_event,
    view_state,
)
from dvorak_engine.rulesets.dvorak.aftermath import deck_after_game
from dvorak_engine.rulesets.dvorak.creative import voting_seats
from dvorak_engine.rulesets.dvorak.effects import effect_of
from dvorak_engine.rulesets.dvorak.state import FIRST_READING, PLAY, READING, Turn
from tests.engine.dvorak_games import unique_title_deck

from .conftest import Table


def side_deck(slug: str, title: str, word: str, *, seed_card: dict, size: int = 12) -> dict:
    """An archive deck of one side: the rulebook's card of that side ("Xenomorph Egg", "Flamethrower") and
    plain cards whose every title starts with ``word``, so a title says which deck a card came from."""
    deck = unique_title_deck(size)
    cards = [{**card, "title": f"{word} {card['title']}"} for card in deck["cards"]]
    return {**deck, "slug": slug, "title": title, "cards": [{**cards[0], **seed_card}, *cards[1:]]}


ALIENS = side_deck("aliens", "Aliens", "Alien",
                   seed_card={"title": "Alien Xenomorph Egg", "type": "Thing", "text": "", "copies": 2})
MARINES = side_deck("marines", "Marines", "Marine", size=10,
                    seed_card={"title": "Marine Flamethrower", "type": "Action", "text": "Destroy a Thing."})


def sides_table(players: int = 2, *, creative: bool = False, decks: list[dict | None] | None = None,
                options: dict | None = None) -> Table:
    """A Multi-Deck game created with the Aliens; seat 1 joins with the Marines, and each further seat with the
    deck ``decks`` names for it (None: the game's own, by default)."""
    decks = decks or [MARINES] * (players - 1)
    joins = [{}, *({} if deck is None else {"side_deck": deck} for deck in decks)]
    return Table(players=players, deck=ALIENS, variant="multi_deck", creative=creative, options=options, joins=joins)


def own_view_titles(table: Table, seat: int) -> list[str]:
    """The titles of the hand a player sees in their own view."""
    return [card["title"] for card in view_state(table.state, seat)["players"][seat]["hand"]]


def deck_titles(deck: dict) -> set[str]:
    return {card["title"] for card in deck["cards"]}


def play_stage(table: Table, seat: int) -> None:
    table.state = table.state.with_table(turn=Turn(seat=seat, stage=PLAY))


def a_card_of(table: Table, seat: int, title_start: str, *, zone: str = "draw_pile") -> str:
    """The id of a card of ``seat``'s deck whose title starts so, found in that seat's ``zone``."""
    return next(c for c in getattr(table.state.table.player(seat), zone)
                if table.title(c).startswith(title_start) and table.state.table.owners[c] == seat)


def give_hand(table: Table, seat: int, card_ids: list[str]) -> None:
    """Move these cards (from wherever in the players' zones) into ``seat``'s hand, as an effect could."""
    players = []
    for player in table.state.table.players:
        player = replace(player, **{zone: tuple(c for c in getattr(player, zone) if c not in card_ids)
                                    for zone in ("hand", "in_play", "draw_pile", "discard_pile")})
        if player.seat == seat:
            player = replace(player, hand=(*player.hand, *card_ids))
        players.append(player)
    table.state = table.state.with_table(players=tuple(players))


def everyone_votes(table: Table, approve: bool = True) -> None:
    number = len(table.state.table.proposals)
    for seat in voting_seats(table.state, table.state.table.proposals[number - 1]):
        if table.state.table.proposals[number - 1].status == "open":
            table.send(seat, {"type": "vote", "proposal": number, "approve": approve})


# --- Each side's own deck ----------------------------------------------------------------------------------------


def test_multi_deck_sides_each_seat_is_dealt_from_its_own_deck():
    """ "separate decks, each deck focusing solely on that side"; "Each player has their own draw and discard
    pile": the Aliens' player holds and draws only Aliens, the Marines' player only Marines."""
    table = sides_table().start()
    aliens, marines = deck_titles(ALIENS), deck_titles(MARINES)
    assert len(own_view_titles(table, 0)) == 5 and set(own_view_titles(table, 0)) <= aliens
    assert len(own_view_titles(table, 1)) == 5 and set(own_view_titles(table, 1)) <= marines
    for seat, titles, size in ((0, aliens, 13), (1, marines, 10)):
        player = table.state.table.player(seat)
        assert {table.title(c) for c in player.draw_pile} <= titles
        assert len(player.hand) + len(player.draw_pile) == size  # every copy of their deck, and nothing else
    assert table.state.table.draw_pile == ()
    seat = table.state.table.turn.seat
    top = table.state.table.player(seat).draw_pile[-1]
    table.send(seat, {"type": "draw"})
    assert own_view_titles(table, seat)[-1] == table.title(top)
    assert set(own_view_titles(table, seat)) <= (aliens if seat == 0 else marines)


def test_multi_deck_sides_every_player_sees_which_deck_each_seat_plays():
    table = sides_table(players=3, decks=[MARINES, None])
    for viewer in (None, 0, 1, 2):
        assert [p["deck"] for p in view_state(table.state, viewer)["players"]] == [
            {"slug": "aliens", "title": "Aliens"}, {"slug": "marines", "title": "Marines"},
            {"slug": "aliens", "title": "Aliens"}]


def test_multi_deck_sides_by_default_a_joiner_plays_the_creators_deck():
    table = sides_table(players=3, decks=[None, None]).start()
    for seat in range(3):
        assert set(own_view_titles(table, seat)) <= deck_titles(ALIENS)
        assert sum(owner == seat for owner in table.state.table.owners.values()) == 13


def test_multi_deck_sides_a_join_shows_everyone_the_deck_and_only_a_count_of_its_cards():
    table = sides_table()
    joined = table.events[-1]
    assert joined.data["deck"] == {"slug": "marines", "title": "Marines"}
    for viewer in (None, 0, 1):
        seen = view_event(joined, viewer, table.state, table.state)
        assert seen["deck"] == {"slug": "marines", "title": "Marines"} and seen["cards"] == {"count": 10}
        assert "effects" not in seen and "Marine" not in json.dumps(seen).replace("Marines", "")


def test_multi_deck_sides_the_joining_decks_cards_are_read_as_the_games_own_were():
    table = sides_table().start()
    drawing = next(c for c in table.state.table.cards if table.title(c) == "Marine Card 001 Zq001")
    assert table.state.table.cards[drawing].text == "Action: Draw a card."
    assert effect_of(table.state, drawing) is not None  # understood, as the Aliens' cards of that text are
    assert {entry["title"] for entry in table.state.table.effects["cards"]} == deck_titles(ALIENS) | deck_titles(MARINES)


def test_multi_deck_sides_a_side_deck_in_another_variant_is_refused():
    table = Table(players=1, deck=ALIENS, variant="standard")
    with pytest.raises(DomainError) as refused:
        decide(table.state, {"type": "join", "side_deck": MARINES}, actor=Actor(99, "newcomer"), rng=SeededRng(1))
    assert refused.value.code == "invalid" and refused.value.details == {"field": "deck"}


def test_multi_deck_sides_a_malformed_side_deck_is_refused():
    table = sides_table(players=1, decks=[])
    for malformed in ({"slug": "", "cards": []}, {"slug": "x"}, {"slug": "x", "cards": ["a"]}, "marines"):
        with pytest.raises(DomainError) as refused:
            decide(table.state, {"type": "join", "side_deck": malformed}, actor=Actor(99, "bob"), rng=SeededRng(1))
        assert refused.value.code == "invalid"


# --- "sent to the discard Pile of the player whose deck it came from" ---------------------------------------------


def test_multi_deck_sides_a_discarded_card_goes_to_the_discard_pile_of_its_decks_player():
    """ "When a card is destroyed or discarded, it is sent to the discard Pile of the player whose deck it came
    from." The Marines' player holding an Alien card discards it onto the Aliens' pile."""
    table = sides_table().start()
    play_stage(table, 1)
    alien = a_card_of(table, 0, "Alien")
    marine = a_card_of(table, 1, "Marine")
    give_hand(table, 1, [alien, marine])
    table.send(1, {"type": "discard", "cards": [alien, marine], "cause": marine})
    seen = view_state(table.state, None)["players"]
    assert [c["title"] for c in seen[0]["discard_pile"]] == [table.title(alien)]
    assert [c["title"] for c in seen[1]["discard_pile"]] == [table.title(marine)]


def test_multi_deck_sides_a_destroyed_thing_goes_to_the_discard_pile_of_its_decks_player():
    """ "When a card is destroyed ... it is sent to the discard Pile of the player whose deck it came from." """
    table = sides_table().start()
    egg = next(c for c in table.state.table.cards if table.title(c) == "Alien Xenomorph Egg")
    play_stage(table, 0)
    give_hand(table, 0, [egg])
    table.send(0, {"type": "play", "card": egg})
    flamethrower = next(c for c in table.state.table.cards if table.title(c) == "Marine Flamethrower")
    play_stage(table, 1)
    give_hand(table, 1, [flamethrower])
    table.send(1, {"type": "destroy", "card": egg, "cause": flamethrower})
    assert table.state.table.player(0).discard_pile[-1] == egg
    assert egg not in table.state.table.player(1).discard_pile


def test_multi_deck_sides_an_empty_draw_pile_is_refilled_from_your_own_discard_pile_only():
    table = sides_table().start()
    seat = table.state.table.turn.seat
    other = 1 - seat
    mine, theirs = a_card_of(table, seat, ""), a_card_of(table, other, "")
    players = list(table.state.table.players)
    players[seat] = replace(players[seat], draw_pile=(), discard_pile=(mine,))
    players[other] = replace(players[other], draw_pile=tuple(c for c in players[other].draw_pile if c != theirs),
                             discard_pile=(theirs,))
    table.state = table.state.with_table(players=tuple(players))
    table.send(seat, {"type": "draw"})
    assert table.state.table.player(seat).hand[-1] == mine
    assert table.state.table.player(other).discard_pile == (theirs,)


# --- The Aftermath: each side's deck back to its own archive entry -------------------------------------------------


def finish(table: Table) -> None:
    for seat in range(1, len(table.state.seats)):
        table.send(seat, {"type": "concede"})
    assert table.state.status == "finished"


def test_multi_deck_sides_the_aftermath_gives_each_changed_deck_back_to_its_own_archive_entry():
    """ "If playing creatively, new cards are created as normal, going into the creator's deck by default": the
    Marines' player's new card goes into the Marines, which the Aftermath publishes apart from the Aliens."""
    table = sides_table(creative=True).start()
    table.send(1, {"type": "propose", "kind": "card",
                   "card": {"title": "Marine Power Loader", "type": "Thing", "text": ""}})
    everyone_votes(table)
    finish(table)
    deck = deck_after_game(table.state)
    assert (deck["slug"], deck["title"]) == ("aliens", "Aliens")
    assert deck_titles(deck) == deck_titles(ALIENS)
    assert {c["title"]: c["copies"] for c in deck["cards"]}["Alien Xenomorph Egg"] == 2
    [marines] = deck["side_decks"]
    assert (marines["slug"], marines["title"]) == ("marines", "Marines")
    assert deck_titles(marines) == deck_titles(MARINES) | {"Marine Power Loader"}
    assert {c["title"]: c for c in marines["cards"]}["Marine Power Loader"]["creator"] == "player1"
    assert marines["special_rules"] == []  # the archive keeps the Marines' own


def test_multi_deck_sides_a_deck_the_game_did_not_change_is_not_given_back():
    table = sides_table(creative=True).start()
    table.send(1, {"type": "propose", "kind": "card",
                   "card": {"title": "Alien Queen", "type": "Thing", "text": "", "deck": 0}})
    everyone_votes(table)
    finish(table)
    deck = deck_after_game(table.state)
    assert deck["side_decks"] == [] and "Alien Queen" in deck_titles(deck)
    assert {c["title"]: c for c in deck["cards"]}["Alien Queen"]["creator"] == "player1"


def test_multi_deck_sides_two_seats_of_one_deck_publish_it_once_not_twice():
    table = sides_table(players=3, creative=True, decks=[MARINES, None]).start()
    finish(table)
    deck = deck_after_game(table.state)
    assert sum(c["copies"] for c in deck["cards"]) == 13 and deck_titles(deck) == deck_titles(ALIENS)


# --- A game of the first reading is played as it was --------------------------------------------------------------


BOB = Actor(user_id=11, username="player1")


def first_reading_table() -> Table:
    """A Multi-Deck game as it was created before the second reading (its game.created without the stamp), its
    creator seated."""
    table = Table(players=1, deck=ALIENS, variant="multi_deck")
    created = table.events[0]
    old = Event(created.type, {k: v for k, v in created.data.items() if k != "reading"}, created.schema)
    table.events = [old]
    table.state = replay(table.events)
    assert table.state.table.reading == FIRST_READING
    table.send(0, {"type": "join"})
    return table


def test_multi_deck_first_reading_every_player_gets_a_copy_of_the_games_deck_and_no_deck_is_named():
    table = first_reading_table()
    table.send_as(BOB, {"type": "join"})
    assert [p.deck for p in table.state.table.players] == [None, None]
    assert all("deck" not in p for p in view_state(table.state, 0)["players"])
    assert "deck" not in table.events[-1].data and "effects" not in table.events[-1].data
    table.send(0, {"type": "start"})
    assert set(own_view_titles(table, 1)) <= deck_titles(ALIENS)
    table.send_as(BOB, {"type": "concede"})
    assert "side_decks" not in deck_after_game(table.state)


def test_multi_deck_first_reading_a_side_deck_is_refused():
    table = first_reading_table()
    with pytest.raises(DomainError) as refused:
        decide(table.state, {"type": "join", "side_deck": MARINES}, actor=BOB, rng=SeededRng(1))
    assert refused.value.code == "invalid" and refused.value.details == {"field": "deck"}


# --- Replay ----------------------------------------------------------------------------------------------------------


def test_multi_deck_sides_replay_and_snapshots_keep_each_sides_deck():
    table = sides_table(creative=True).start()
    table.send(0, {"type": "propose", "kind": "card", "card": {"title": "Alien Drone", "type": "Thing", "text": ""}})
    everyone_votes(table)
    assert table.state.table.reading == READING
    assert replay(table.events) == table.state
    assert state_from_json(state_to_json(table.state)) == table.state
