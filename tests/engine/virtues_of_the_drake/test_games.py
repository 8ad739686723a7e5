"""Whole games of the sample set, played by random legal moves: every listed move is accepted, each game ends as
one Virtue wins, replay and snapshots rebuild the state, and no view or event shows a card face down in a deck."""

from __future__ import annotations

import json

import pytest

from dvorak_engine import evolve
from dvorak_engine.game import state_from_json, state_to_json, view_event, view_state
from dvorak_engine.rulesets.virtues_of_the_drake.cards import VIRTUES
from tests.engine.virtues_of_the_drake.table import Table, random_game

GAMES = [(seed, players) for seed in range(8) for players in (2, 3, 4)]


@pytest.mark.parametrize(("seed", "players"), GAMES)
def test_a_game_of_random_legal_moves_ends_as_one_virtue_wins(seed, players):
    game = random_game(seed, players)
    assert game.state.status == "finished"
    outcome = game.table.outcome
    assert outcome["virtue"] in VIRTUES
    holder = game.table.virtues.get(outcome["virtue"])
    assert list(game.state.winners) == ([] if holder is None else [holder])
    assert game.events[-1].type == "drake.game_over"


def test_if_the_game_ends_in_a_stalemate_of_any_sort_pride_wins():
    """A Treasure may always be played while its deck has cards, so no turn is ever stuck: play stops only when a
    Virtue wins, an exhausted deck being Pride's win."""

    def never_stuck(game: Table) -> None:
        if game.state.status == "active" and game.turn.stage == "play":
            assert game.moves(), "a turn with no card to play"

    ends = set()
    for seed in range(30):
        game = random_game(seed, 4, check=never_stuck)
        ends.add(game.table.outcome["virtue"])
        if game.table.outcome["virtue"] == "Pride":
            assert any(not pile for pile in game.table.decks.values())
    assert "Pride" in ends


@pytest.mark.parametrize("seed", range(4))
def test_replay_and_snapshots_rebuild_the_state(seed):
    game = random_game(seed, 3)
    replayed = None
    for number, event in enumerate(game.events, start=1):
        replayed = evolve(replayed, event)
        if number % 10 == 0:  # a snapshot, as the store keeps one, and the tail after it
            replayed = state_from_json(json.loads(json.dumps(state_to_json(replayed))))
    assert replayed == game.state


@pytest.mark.parametrize("seed", range(4))
def test_nobody_sees_the_order_of_the_decks_or_the_ids_of_their_cards(seed):
    """Counts are public, and the discards, the Gullet, the Lair, the Bed and the Virtues; the decks' cards never."""
    seen_counts = []

    def look(game: Table) -> None:
        face_down = {card_id for pile in game.table.decks.values() for card_id in pile}
        for viewer in (None, 0, 1, 2):
            shown = json.dumps(view_state(game.state, viewer))
            assert not any(card_id in shown for card_id in face_down)
        seen_counts.append(view_state(game.state, None)["board"]["decks"])

    game = random_game(seed, 3, check=look)
    state = None
    for event in game.events:
        before, state = state, evolve(state, event)
        # A card face down both before and after the event (before the decks form, every card is face down).
        face_down = set(state.table.cards) - state.table.face_up()
        if before is not None and before.table is not None:
            face_down &= set(before.table.cards) - before.table.face_up()
        for viewer in (None, 0, 1):
            shown = json.dumps(view_event(event, viewer, before, state))
            assert not any(card_id in shown for card_id in face_down), (event.type, shown)
    assert all(set(counts) == {"maidens", "knights", "treasures"} for counts in seen_counts)
    shuffled = next(e for e in game.events if e.type == "drake.decks_shuffled")
    assert view_event(shuffled, 0, None, game.state)["decks"] == {
        deck: {"count": len(pile)} for deck, pile in shuffled.data["decks"].items()}
