"""Whole games of the sample set played by random listed moves in the engine, with the default options and with the
others: every listed move is accepted, every game ends with a winner at 200 points or more, and replaying its
events gives the same state."""

from __future__ import annotations

import random

import pytest

from dvorak_engine import replay
from tests.engine.filibuster.table import Table
from tests.engine.test_legal_moves import filled

MAX_COMMANDS = 6000


@pytest.mark.parametrize("options", [{}, {"filibusters": "one", "dice": 1}], ids=["defaults", "one-1d6"])
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2])
def test_random_listed_moves_play_a_game_to_its_end(players, seed, options):
    chooser = random.Random(seed * 10 + players)
    t = Table(players, seed=seed, options=options)
    for _ in range(MAX_COMMANDS):
        offers = [(seat, moves) for seat in range(players) if (moves := t.moves(seat))]
        if not offers:
            break
        seat, moves = chooser.choice(offers)
        t.send(seat, filled(chooser.choice(moves), chooser))
    assert t.state.status == "finished"
    [winner] = t.state.winners
    assert t.table.player(winner).points >= 200
    assert replay(t.events) == t.state
