"""Rock Paper Scissors Extreme at a live table (issue 34): the clock waits on the seats the board waits for (both
throwers until each has thrown); a seat out of time loses, and if neither threw nobody wins; a revealed throw is
never taken back; two computer players play a game to its end; the greedy one scores rather than take a card it
has not drawn yet.
"""

from __future__ import annotations

import json

import pytest

from dvorak_engine import SeededRng, bots, view_state
from dvorak_engine.rulesets import get_ruleset
from tests.engine.rock_paper_scissors_extreme.match import DECK_FILE
from tests.engine.test_live_tables_drake import (
    PER_MOVE,
    START,
    LiveTable,
    check_clock_follows,
    nothing_listed,
    play_bots,
)

RULESET = "rock_paper_scissors_extreme"


def rpsx(seed: int = 1, **kwargs) -> LiveTable:
    return LiveTable(RULESET, json.loads(DECK_FILE.read_text()), 2, seed=seed, **kwargs)


def board(live: LiveTable, seat: int | None = None) -> dict:
    return view_state(live.state, seat)["board"]


def test_a_throw_waits_on_each_seat_until_it_has_thrown():
    live = rpsx()
    assert board(live)["phase"] == "throw"
    assert live.awaited == (0, 1)
    assert live.deadlines == {0: START + PER_MOVE, 1: START + PER_MOVE}
    check_clock_follows(live)
    live.send(0, {"type": "throw", "sign": "rock"}, after=1)
    # Seat 1 is still making the same decision: its deadline stands.
    assert live.awaited == (1,)
    assert live.deadlines == {1: START + PER_MOVE}
    live.send(1, {"type": "throw", "sign": "scissors"}, after=1)
    # Rock breaks Scissors: seat 0 claims, on a fresh clock.
    assert board(live)["phase"] == "claim" and live.awaited == (0,)
    assert live.deadlines == {0: live.now + PER_MOVE}
    check_clock_follows(live)
    live.send(0, {"type": "claim", "choice": "take"}, after=1)
    assert board(live)["phase"] == "draw" and live.awaited == (0,)
    check_clock_follows(live)


def test_an_expire_before_the_deadline_is_refused():
    live = rpsx()
    live.send(0, {"type": "throw", "sign": "paper"}, after=1)
    assert live.refusal(None, {"type": "expire"}, after=PER_MOVE - 1.01).code == "clock_running"
    assert live.state.status == "active"


def test_the_seat_that_has_not_thrown_when_its_time_runs_out_loses():
    live = rpsx()
    live.send(0, {"type": "throw", "sign": "paper"}, after=1)
    events = live.expire(after=PER_MOVE - 1)
    assert live.types(events) == ["clock.expired", "game.won_on_time"]
    assert events[0].data == {"seats": [1]}
    assert live.state.status == "finished" and list(live.state.winners) == [0]
    assert nothing_listed(live) and live.awaited == () and live.deadlines == {}
    seen = board(live, 1)
    assert seen["phase"] == "finished" and seen["winners"] == [0] and seen["waiting_for"] == []
    # The throw never revealed stays seat 0's secret.
    assert seen["throws"] == []
    assert view_state(live.state, 1)["players"][1]["status"] == "eliminated"


def test_when_neither_throws_both_are_out_and_nobody_wins():
    live = rpsx()
    events = live.expire(after=PER_MOVE)
    assert live.types(events) == ["clock.expired", "game.won_on_time"]
    assert events[0].data == {"seats": [0, 1]} and events[1].data == {"winners": []}
    assert live.state.status == "finished" and list(live.state.winners) == []
    assert nothing_listed(live)
    for seat in (0, 1):
        shown = view_state(live.state, seat)
        assert [player["status"] for player in shown["players"]] == ["eliminated", "eliminated"]
        assert shown["board"]["winners"] == [] and shown["board"]["waiting_for"] == []
        assert bots.score(get_ruleset(RULESET), shown, seat) == bots.LOSS


def test_a_claim_is_taken_back_by_agreement_but_never_a_revealed_throw():
    live = rpsx()
    live.send(0, {"type": "throw", "sign": "rock"}, after=1)
    before_reveal = live.state.version
    live.send(1, {"type": "throw", "sign": "scissors"}, after=1)
    claiming = live.state.version
    board_then = live.state.table.board
    live.send(0, {"type": "claim", "choice": "take"}, after=1)
    assert board(live)["phase"] == "draw"

    refused = live.refusal(0, {"type": "undo", "to": before_reveal})
    assert refused.code == "undo_not_possible" and refused.details["type"] == "rpsx.revealed"

    live.send(0, {"type": "undo", "to": claiming})
    events = live.send(1, {"type": "undo_answer", "accept": True}, after=1)
    assert live.types(events)[:2] == ["undo.answered", "game.undone"]
    assert live.state.table.board == board_then
    assert board(live)["phase"] == "claim" and live.awaited == (0,)
    assert live.deadlines == {0: live.now + PER_MOVE}


@pytest.mark.parametrize("levels", [("random", "greedy"), ("greedy", "random"), ("greedy", "greedy")])
def test_computer_players_play_a_whole_game_to_its_end(levels):
    live = rpsx(seed=len(levels[0]), clock=False)
    sent = play_bots(live, list(levels), cap=2000)
    assert live.state.status == "finished", f"not over after {sent} commands"
    assert live.events[-1].type == "rpsx.finished"


def test_greedy_scores_its_won_throw():
    """Taking a card from the center gives nothing yet (the draw comes after); scoring gives a point now."""
    live = rpsx(clock=False)
    live.send(0, {"type": "throw", "sign": "scissors"})
    live.send(1, {"type": "throw", "sign": "paper"})
    assert {move["type"] for move in live.playable(0)} == {"claim"}
    for seed in range(6):
        assert bots.choose(live.state, 0, "greedy", SeededRng(seed)) == {"type": "claim", "choice": "score"}


def test_points_and_items_count_for_their_seat_and_against_the_other():
    rules = get_ruleset(RULESET)
    view = {"board": {"players": [{"seat": 0, "points": 5, "items": [{}, {}, {}]},
                                  {"seat": 1, "points": 6, "items": []}]}}
    assert rules.evaluate(view, 0) == -rules.evaluate(view, 1) == 0.0
    view["board"]["players"][0]["points"] = 7
    assert rules.evaluate(view, 0) > 0 > rules.evaluate(view, 1)
