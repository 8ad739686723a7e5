"""The dvorak ruleset's appliers make, event by event, the very states (and so the views and snapshots) that its
appliers made before they were made cheaper (``dvorak_reference_appliers``: each change a whole copy), for long
random games of every variant, and change nothing they are given."""

from __future__ import annotations

import pytest

from dvorak_engine import replay, state_to_json, view_event, view_state
from dvorak_engine.ruleset import _CORE_APPLIERS
from dvorak_engine.rulesets.dvorak import RULESET
from dvorak_engine.values import replace
from tests.engine.dvorak_games import random_game
from tests.engine.dvorak_reference_appliers import APPLIERS as REFERENCE

GAMES = {
    "plain": lambda: random_game(11, players=3, steps=900),
    "creative": lambda: random_game(21, players=3, steps=900, creative=True),
    "team": lambda: random_game(13, players=4, steps=900, variant="team"),
    "team_creative": lambda: random_game(14, players=4, steps=600, creative=True, variant="team"),
    "multi_deck": lambda: random_game(15, players=3, steps=900, variant="multi_deck"),
    "multi_deck_creative": lambda: random_game(16, players=3, steps=600, creative=True, variant="multi_deck"),
    "ccg": lambda: random_game(17, players=3, steps=900, variant="ccg"),
}


def reference_evolve(state, event):
    """The state after ``event`` as the reference appliers make it (the core's own part first, as ``evolve``)."""
    core = _CORE_APPLIERS.get(event.type)
    new_state = state if core is None else core(state, event)
    if event.type in REFERENCE:
        new_state = REFERENCE[event.type](new_state, event)
    elif event.type in RULESET.appliers:  # not a card-moving event: the ruleset's applier is the reference
        new_state = getattr(RULESET, RULESET.appliers[event.type])(new_state, event)
    return replace(new_state, version=(state.version if state is not None else 0) + 1)


@pytest.mark.parametrize("name", GAMES)
def test_every_event_gives_the_state_the_reference_appliers_give(name):
    game = GAMES[name]()
    assert len(game.events) > 300
    types = {e.type for e in game.events}
    assert {"card.drawn", "card.played", "turn.began", "turn.ended", "cards.dealt"} <= types
    seats = range(len(game.state.seats))
    before = None
    for index, event in enumerate(game.events):
        given = state_to_json(before) if before is not None else None
        ours = RULESET.evolve(before, event) if before is not None else game.states[0]
        reference = reference_evolve(before, event)
        assert ours == reference, (index, event)
        assert ours == game.states[index]
        if before is not None:
            assert state_to_json(before) == given, ("a given state was changed", index, event)
        if index % 7 == 0 or index == len(game.events) - 1:
            assert state_to_json(ours) == state_to_json(reference)
            for viewer in (None, *seats):
                assert view_state(ours, viewer) == view_state(reference, viewer)
                assert view_event(event, viewer, before, ours) == view_event(event, viewer, before, reference)
        before = ours
    assert replay(game.events) == game.state


def test_the_reference_games_move_cards_every_way_the_appliers_know():
    """The games above reach the rarer appliers too: cards taken out of play, moved, given, discarded."""
    types = set()
    for make in GAMES.values():
        types |= {e.type for e in make().events}
    assert {"cards.discarded", "draw_pile.refilled", "thing.destroyed", "card.moved", "counter.changed"} <= types
