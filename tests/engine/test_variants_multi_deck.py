"""Multi-Deck Dvorak (the rulebook's "The Variants of Dvorak"), one test per rule, with the rulebook's example
cards: every player plays their own copy of the deck."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace

from dvorak_engine import replay, state_from_json, state_to_json, view_event, view_state
from dvorak_engine.rulesets.dvorak.creative import voting_seats
from dvorak_engine.rulesets.dvorak.state import PLAY, Turn

from .conftest import Table, rulebook_deck


def multi_deck_table(players: int = 3, *, creative: bool = False, options: dict | None = None) -> Table:
    return Table(players=players, variant="multi_deck", creative=creative, options=options).start()


def owned(table: Table, seat: int, title: str) -> str:
    """The id of the copy of ``title`` in ``seat``'s deck."""
    return next(c for c, card in table.state.table.cards.items()
                if card.title == title and table.state.table.owners[c] == seat)


def play_stage(table: Table, seat: int) -> None:
    table.state = table.state.with_table(turn=Turn(seat=seat, stage=PLAY))


def set_player(table: Table, seat: int, **zones: list[str]) -> None:
    """Give one player exactly these card ids in the zones named (hand, in_play, draw_pile, discard_pile)."""
    state = table.state
    moving = {c for ids in zones.values() for c in ids}
    players = []
    for player in state.table.players:
        player = replace(player, **{zone: tuple(c for c in getattr(player, zone) if c not in moving)
                                    for zone in ("hand", "in_play", "draw_pile", "discard_pile")})
        if player.seat == seat:
            player = replace(player, **{zone: tuple(ids) for zone, ids in zones.items()})
        players.append(player)
    table.state = state.with_table(players=tuple(players))


# --- Setup: each player has their own deck -----------------------------------------------------------------------


def test_multi_deck_each_player_has_their_own_copy_of_the_deck_with_its_own_ids():
    table = multi_deck_table(players=3)
    deck_size = len(rulebook_deck()["cards"])
    assert len(table.state.table.cards) == 3 * deck_size
    for seat in range(3):
        own = [c for c, owner in table.state.table.owners.items() if owner == seat]
        assert Counter(table.state.table.cards[c].title for c in own) == Counter(c["title"] for c in rulebook_deck()["cards"])
        player = table.state.table.player(seat)
        # Their own deck shuffled into their own draw pile, their starting hand drawn from it.
        assert sorted((*player.hand, *player.draw_pile)) == sorted(own)
        assert len(player.hand) == 5 and len(player.draw_pile) == deck_size - 5
    assert table.state.table.draw_pile == () and table.state.table.discard_pile == ()


def test_multi_deck_each_players_deck_is_shuffled_on_its_own():
    table = multi_deck_table(players=2)
    orders = [[table.state.table.cards[c].title for c in table.state.table.player(seat).draw_pile] for seat in (0, 1)]
    assert orders[0] != orders[1]


# --- Drawing from your own draw pile ------------------------------------------------------------------------------


def test_multi_deck_a_player_draws_from_their_own_draw_pile():
    table = multi_deck_table()
    seat = table.state.table.turn.seat
    others = {p.seat: p.draw_pile for p in table.state.table.players if p.seat != seat}
    top = table.state.table.player(seat).draw_pile[-1]
    table.send(seat, {"type": "draw"})
    assert table.state.table.player(seat).hand[-1] == top
    assert {p.seat: p.draw_pile for p in table.state.table.players if p.seat != seat} == others


def test_multi_deck_an_empty_draw_pile_is_refilled_from_your_own_discard_pile():
    table = multi_deck_table()
    seat = table.state.table.turn.seat
    mine = [owned(table, seat, "Reykjavik"), owned(table, seat, "Frenzy")]
    theirs = owned(table, (seat + 1) % 3, "Espionage")
    set_player(table, seat, draw_pile=[], discard_pile=mine)
    set_player(table, (seat + 1) % 3, discard_pile=[theirs])
    table.send(seat, {"type": "draw"})
    player = table.state.table.player(seat)
    assert player.hand[-1] in mine and len(player.draw_pile) == 1 and player.discard_pile == ()
    assert table.state.table.player((seat + 1) % 3).discard_pile == (theirs,)


# --- A card goes to the discard pile of the deck it came from ----------------------------------------------------


def test_multi_deck_a_destroyed_thing_goes_to_the_discard_pile_of_its_decks_player():
    table = multi_deck_table()
    play_stage(table, 0)
    stolen = owned(table, 0, "Reykjavik")
    blade = owned(table, 1, "Vorpal Blade")
    set_player(table, 1, in_play=[stolen, blade])
    table.send(1, {"type": "destroy", "card": stolen, "cause": blade})
    assert table.state.table.player(0).discard_pile[-1] == stolen
    assert stolen not in table.state.table.player(1).discard_pile


def test_multi_deck_a_discarded_card_goes_to_the_discard_pile_of_its_decks_player():
    table = multi_deck_table()
    play_stage(table, 1)
    held = [owned(table, 2, "Espionage"), owned(table, 1, "Frenzy")]
    set_player(table, 1, hand=held)
    table.send(1, {"type": "discard", "cards": held, "cause": held[0]})
    assert table.state.table.player(2).discard_pile[-1] == held[0]
    assert table.state.table.player(1).discard_pile[-1] == held[1]


def test_multi_deck_a_played_action_goes_to_the_discard_pile_of_its_decks_player():
    table = multi_deck_table()
    play_stage(table, 0)
    espionage = owned(table, 2, "Espionage")
    set_player(table, 0, hand=[espionage])
    table.send(0, {"type": "play", "card": espionage})
    assert table.state.table.player(2).discard_pile == (espionage,)
    assert table.state.table.player(0).discard_pile == ()


# --- Creative play: a new card goes into its creator's deck ------------------------------------------------------


def everyone_approves(table: Table) -> None:
    number = len(table.state.table.proposals)
    for seat in voting_seats(table.state, table.state.table.proposals[number - 1]):
        if table.state.table.proposals[number - 1].status == "open":
            table.send(seat, {"type": "vote", "proposal": number, "approve": True})


def test_multi_deck_a_new_card_goes_into_its_creators_deck():
    table = multi_deck_table(creative=True)
    before = {p.seat: len(p.draw_pile) for p in table.state.table.players}
    table.send(1, {"type": "propose", "kind": "card",
                   "card": {"title": "Xenomorph Egg", "type": "Thing", "text": ""}})
    everyone_approves(table)
    egg = table.card("Xenomorph Egg")
    assert egg in table.state.table.player(1).draw_pile and table.state.table.owners[egg] == 1
    assert {p.seat: len(p.draw_pile) for p in table.state.table.players} == {**before, 1: before[1] + 1}


def test_multi_deck_cards_proposed_together_may_go_into_different_decks():
    table = multi_deck_table(players=2, creative=True)
    table.send(0, {"type": "propose", "kind": "bundle", "cards": [
        {"title": "Xenomorph Egg", "type": "Thing", "text": ""},
        {"title": "Spare Egg", "type": "Thing", "text": ""},
        {"title": "Flamethrower", "type": "Action", "text": "Four damage.", "deck": 1}]})
    everyone_approves(table)
    assert {table.title(c) for c in table.state.table.player(0).draw_pile} >= {"Xenomorph Egg", "Spare Egg"}
    assert "Flamethrower" in table.titles(table.state.table.player(1).draw_pile)
    assert "Flamethrower" not in table.titles(table.state.table.player(0).draw_pile)


def test_multi_deck_a_new_card_for_a_seat_that_does_not_exist_is_refused():
    table = multi_deck_table(players=2, creative=True)
    table.refuse(0, {"type": "propose", "kind": "card",
                     "card": {"title": "Egg", "type": "Thing", "text": "", "deck": 5}}, "invalid")


def test_multi_deck_a_creative_game_starts_once_every_players_deck_has_enough_cards():
    empty = {"slug": "new", "title": "New", "cards": []}
    table = Table(players=2, deck=empty, variant="multi_deck", creative=True, options={"min_cards_per_player": 1})
    table.send(0, {"type": "propose", "kind": "card", "card": {"title": "Egg", "type": "Thing", "text": ""}})
    everyone_approves(table)
    error = table.refuse(0, {"type": "start"}, "not_enough_cards")
    assert error.details["seat"] == 1
    table.send(1, {"type": "propose", "kind": "card", "card": {"title": "Torch", "type": "Thing", "text": ""}})
    everyone_approves(table)
    table.send(0, {"type": "start"})
    assert table.hand(0) == ["Egg"] and table.hand(1) == ["Torch"]


# --- What each viewer sees ---------------------------------------------------------------------------------------


def test_multi_deck_each_players_piles_are_in_the_view_and_draw_piles_only_as_counts():
    table = multi_deck_table()
    play_stage(table, 0)
    espionage = owned(table, 2, "Espionage")
    set_player(table, 0, hand=[espionage])
    table.send(0, {"type": "play", "card": espionage})
    seen = view_state(table.state, 1)
    counts = [len(p.draw_pile) for p in table.state.table.players]
    assert [p["draw_pile"] for p in seen["players"]] == [{"count": n} for n in counts]
    assert [[c["title"] for c in p["discard_pile"]] for p in seen["players"]] == [[], [], ["Espionage"]]
    assert seen["draw_pile"] == {"count": sum(counts)}
    assert [c["title"] for c in seen["discard_pile"]] == ["Espionage"]
    text = json.dumps(seen)
    assert not [c for p in table.state.table.players for c in p.draw_pile if c in text]


def test_multi_deck_the_start_shows_only_how_many_cards_each_draw_pile_holds():
    table = Table(players=2, variant="multi_deck")
    before = table.state
    started = next(e for e in table.send(0, {"type": "start"}) if e.type == "game.started")
    seen = view_event(started, 0, before, table.state)
    assert seen["draw_piles"] == {str(p.seat): {"count": len(p.draw_pile)} for p in table.state.table.players}
    assert not [c for c in table.state.table.cards if c in json.dumps(seen)]


def test_multi_deck_a_joining_player_sees_only_how_many_cards_they_brought():
    table = Table(players=2, variant="multi_deck")
    joined = table.events[-1]
    seen = view_event(joined, 1, table.state, table.state)
    assert seen["cards"] == {"count": len(rulebook_deck()["cards"])}
    assert not [c for c in table.state.table.cards if c in json.dumps(seen)]


def test_multi_deck_replay_and_snapshots_keep_every_pile():
    table = multi_deck_table()
    seat = table.state.table.turn.seat
    table.send(seat, {"type": "draw"})
    assert replay(table.events) == table.state
    assert state_from_json(json.loads(json.dumps(state_to_json(table.state)))) == table.state
