"""S.E.R.M. at a live table (issue 34): the clock waits on the seats the table waits for (each player building a
force, the player with the initiative, the enemy asked to React); a seat out of time loses, and if neither force
is ever ready nobody wins; dice once rolled are never taken back; two computer players play a game to its end; the
greedy one tries a React rather than let the enemy's Move kill its soldier.
"""

from __future__ import annotations

import random

import pytest

from dvorak_engine import SeededRng, bots, view_state
from dvorak_engine.rulesets import get_ruleset
from tests.engine.serm.skirmish import Skirmish, deck
from tests.engine.test_legal_moves import filled
from tests.engine.test_live_tables_drake import (
    PER_MOVE,
    START,
    LiveTable,
    check_clock_follows,
    nothing_listed,
    play_bots,
)

RULESET = "serm"


def serm(seed: int = 1, **kwargs) -> LiveTable:
    return LiveTable(RULESET, deck(), 2, seed=seed, **kwargs)


def board(live: LiveTable, seat: int | None = None) -> dict:
    return view_state(live.state, seat)["board"]


def play_until(live: LiveTable, chooser: random.Random, phase: str, *, check: bool = False) -> None:
    """Listed moves of the seats the table waits for, a second apart, until the table is in ``phase``."""
    for _ in range(400):
        if board(live)["phase"] == phase:
            return
        assert live.state.status == "active", f"the game ended before the phase {phase}"
        seat = live.awaited[0]
        live.send(seat, filled(chooser.choice(live.playable(seat)), chooser), after=1)
        if check and live.state.status == "active":
            check_clock_follows(live)
    raise AssertionError(f"the table never came to the phase {phase}")


def test_the_clock_waits_on_the_initiative_then_on_the_enemy_asked_to_react():
    live = serm()
    check_clock_follows(live)
    first = live.state.table.initiative
    assert live.deadlines == {first: START + PER_MOVE}
    play_until(live, random.Random(2), "react", check=True)
    mover = live.state.table.activation.seat
    assert live.awaited == (1 - mover,)
    assert live.deadlines == {1 - mover: live.now + PER_MOVE}
    live.send(1 - mover, {"type": "pass"}, after=1)
    if live.state.status == "active":
        check_clock_follows(live)


def test_while_the_forces_are_built_the_clock_waits_on_each_player_not_ready():
    live = serm(options={"budget": 12})
    assert board(live)["phase"] == "muster"
    assert live.awaited == (0, 1) and live.deadlines == {0: START + PER_MOVE, 1: START + PER_MOVE}
    live.send(0, {"type": "recruit", "card": "Guardsman"}, after=1)
    assert live.deadlines == {0: live.now + PER_MOVE, 1: START + PER_MOVE}
    live.send(0, {"type": "ready"}, after=1)
    assert live.awaited == (1,) and live.deadlines == {1: START + PER_MOVE}
    check_clock_follows(live)


def test_an_expire_before_the_deadline_is_refused():
    live = serm()
    assert live.refusal(None, {"type": "expire"}, after=PER_MOVE - 0.01).code == "clock_running"
    assert live.state.status == "active"


def test_the_player_with_the_initiative_out_of_time_loses():
    live = serm()
    late = live.state.table.initiative
    events = live.expire(after=PER_MOVE)
    assert live.types(events) == ["clock.expired", "game.won_on_time"]
    assert live.state.status == "finished" and list(live.state.winners) == [1 - late]
    assert nothing_listed(live) and live.awaited == () and live.deadlines == {}
    seen = board(live, late)
    assert seen["phase"] == "finished" and seen["activation"] is None and seen["initiative"] is None
    assert seen["waiting_for"] == []


def test_the_enemy_out_of_time_to_react_loses_and_the_move_is_never_made():
    live = serm()
    play_until(live, random.Random(2), "react")
    mover = live.state.table.activation.seat
    events = live.expire(after=PER_MOVE)
    assert events[0].data == {"seats": [1 - mover]}
    assert list(live.state.winners) == [mover] and nothing_listed(live)
    assert board(live)["move"] is None


def test_when_neither_force_is_ever_ready_both_are_out_and_nobody_wins():
    live = serm(options={"budget": 12})
    events = live.expire(after=PER_MOVE)
    assert events[0].data == {"seats": [0, 1]} and events[-1].data == {"winners": []}
    assert live.state.status == "finished" and nothing_listed(live)


def test_a_turn_is_taken_back_by_agreement_but_never_dice_rolled():
    live = serm(options={"react_turn": "never"})
    seat = live.state.table.initiative
    soldier = next(s for s in live.state.table.soldiers if s.seat == seat)
    before_turn = live.state.version
    table_then = live.state.table
    events = live.send(seat, {"type": "turn", "soldier": soldier.id, "facing": "E"}, after=1)
    assert "serm.turned" in live.types(events)
    live.send(seat, {"type": "undo", "to": before_turn})
    events = live.send(1 - seat, {"type": "undo_answer", "accept": True}, after=1)
    assert live.types(events)[:2] == ["undo.answered", "game.undone"]
    assert live.state.table == table_then
    assert live.awaited == (seat,) and live.deadlines == {seat: live.now + PER_MOVE}

    before_roll = live.state.version
    events = live.send(seat, {"type": "advance", "soldier": soldier.id, "direction": "E"}, after=1)
    assert "serm.move_rolled" in live.types(events)
    refused = live.refusal(seat, {"type": "undo", "to": before_roll})
    assert refused.code == "undo_not_possible" and refused.details["type"] == "serm.move_rolled"


@pytest.mark.parametrize("options", [{}, {"budget": 12}])
@pytest.mark.parametrize("levels", [("random", "greedy"), ("greedy", "random"), ("greedy", "greedy")])
def test_computer_players_play_a_whole_game_to_its_end(levels, options):
    live = serm(seed=len(levels[0]), options=options, clock=False)
    sent = play_bots(live, list(levels), cap=2000)
    assert live.state.status == "finished", f"not over after {sent} commands"
    assert live.events[-1].type == "serm.finished"


def test_greedy_reacts_rather_than_let_the_enemy_move_kill_its_soldier():
    """Seat 1's Guardsman advances three squares south, onto seat 0's Guardsman, which sees it coming: passing
    lets the Move kill it; a React, whatever its dice, may stop the Move."""
    game = Skirmish(first=1)
    game.arrange(guardsman_0=(5, 5, "N"), armored_0=(0, 0, "E"), guardsman_1=(5, 8, "S"))
    game.send(1, {"type": "advance", "soldier": "1-guardsman", "direction": "S"}, dice=[3])
    assert game.table.phase == "react" and game.table.pending.kill == "0-guardsman"
    for seed in range(6):
        chosen = bots.choose(game.state, 0, "greedy", SeededRng(seed))
        assert chosen["type"] == "react" and chosen["soldier"] == "0-guardsman"


def test_soldiers_standing_count_for_their_side_and_against_the_other():
    game = Skirmish()
    rules = get_ruleset(RULESET)
    # The same forces, face to face.
    assert rules.evaluate(game.view(0), 0) == pytest.approx(0.0, abs=1e-9)
    assert rules.evaluate(game.view(1), 1) == pytest.approx(0.0, abs=1e-9)
    game.arrange(guardsman_0=(5, 5, "N"), armored_0=(0, 0, "E"), guardsman_1=(5, 8, "E"))
    assert rules.evaluate(game.view(0), 0) > 0 > rules.evaluate(game.view(1), 1)
