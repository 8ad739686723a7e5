"""Socialism at a live table (issue 34): the clock waits on the player whose turn it is, on every player of the
Sherman Act window who has not answered, and on a Viral Post's player choosing its new user; a player out of time
is out of the game (their window answered with a pass, their Viral Post left where it is, their turn ended, later
turns skipping them), or, with one player left, that player wins; an undo never goes back across a card drawn or a
die rolled; two computer players play a game to its end; the greedy one places a token when it can.

The live-table harness (``LiveTable``, ``play_bots``...) is the one the other rulesets' tests share
(``tests.engine.test_live_tables_drake``).
"""

from __future__ import annotations

import random

import pytest

from dvorak_engine import SeededRng, bots, view_state
from dvorak_engine.rulesets import get_ruleset
from dvorak_engine.rulesets.socialism.board import INVITE, PLAY, ViralPost
from tests.engine.socialism.table import Table, deck
from tests.engine.test_legal_moves import filled
from tests.engine.test_live_tables_drake import (
    PER_MOVE,
    START,
    LiveTable,
    check_clock_follows,
    nothing_listed,
    play_bots,
)

RULES = get_ruleset("socialism")
CLOCKED = {"clock": {"per_move": PER_MOVE}}


def socialism(players: int = 2, seed: int = 1, **kwargs) -> LiveTable:
    return LiveTable("socialism", deck(), players, seed=seed, **kwargs)


class ArrangedTable(LiveTable):
    """A clocked game arranged with the Socialism tests' ``Table`` (created with ``CLOCKED``): the clock starts with
    the first command sent."""

    def __init__(self, table: Table) -> None:
        assert table.state.options["clock"] == CLOCKED["clock"]
        self.ruleset, self.rules, self.rng, self.now = "socialism", RULES, table.rng, START
        self.people, self.events, self.state = table.people, list(table.events), table.state


def random_move(live: LiveTable, chooser: random.Random) -> list:
    """A listed move of a seat the game waits on, one second after the last command."""
    seat = chooser.choice(live.awaited)
    return live.send(seat, filled(chooser.choice(live.playable(seat)), chooser), after=1)


def turn_seat(live: LiveTable) -> int:
    return live.state.table.turn.seat


# --- the clock -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_clock_waits_on_the_seats_the_game_waits_for(players):
    live = socialism(players, seed=players)
    chooser = random.Random(players)
    first = turn_seat(live)
    assert live.awaited == (first,) and live.deadlines == {first: START + PER_MOVE}
    windows = 0
    for _ in range(120):
        before = live.deadlines
        seat = chooser.choice(live.awaited)
        live.send(seat, filled(chooser.choice(live.playable(seat)), chooser), after=1)
        if live.state.status != "active":
            break
        check_clock_follows(live)
        assert live.awaited == tuple(view_state(live.state, None)["board"]["waiting_for"])
        # The seat that moved, and a seat the game waits on anew, decide afresh; a seat still answering the same
        # Sherman Act window keeps its deadline.
        for waiting, deadline in live.deadlines.items():
            kept = waiting != seat and waiting in before and live.state.table.pending is not None
            assert deadline == (before[waiting] if kept else live.now + PER_MOVE)
        if live.state.table.pending is not None:
            windows += 1
            assert set(live.awaited) == set(live.state.table.pending.waiting)
    assert windows > 0  # the Sherman Act window was met, waiting on every other player at once


def test_an_expire_before_the_deadline_is_refused():
    live = socialism()
    assert live.refusal(None, {"type": "expire"}, after=PER_MOVE - 0.01).code == "clock_running"
    assert live.state.status == "active"


def test_two_players_the_one_out_of_time_loses_and_nothing_is_left_to_play():
    live = socialism(seed=4)
    late = turn_seat(live)
    events = live.expire(after=PER_MOVE)
    assert live.types(events) == ["clock.expired", "game.won_on_time"]
    assert events[0].data == {"seats": [late]}
    assert live.state.status == "finished" and list(live.state.winners) == [1 - late]
    assert live.awaited == () and live.deadlines == {} and nothing_listed(live)
    shown = view_state(live.state, 1 - late)
    assert shown["players"][late]["status"] == "eliminated" and shown["board"]["waiting_for"] == []


@pytest.mark.parametrize("players", [3, 4])
def test_with_three_or_more_the_game_goes_on_without_the_player_out_of_time(players):
    live = socialism(players, seed=players + 20)
    chooser = random.Random(players)
    for _ in range(6):
        random_move(live, chooser)
    while len(live.awaited) != 1:  # a turn, not a window
        random_move(live, chooser)
    late = live.awaited[0]
    assert turn_seat(live) == late
    expired_at = len(live.events)
    events = live.expire(after=PER_MOVE)
    assert live.types(events)[:3] == ["clock.expired", "social.turn_ended", "social.turn_began"]
    following = turn_seat(live)
    assert following == (late + 1) % players and live.state.status == "active"
    check_clock_follows(live)
    assert live.moves(late) == [] and live.refusal(late, {"type": "draw"}).code == "eliminated"

    play_bots(live, ["random", "greedy"] * 3, cap=4000)
    assert live.state.status == "finished"
    later = live.events[expired_at:]
    # They take no turn, are asked nothing in a Sherman Act window, and place no token.
    assert all(event.data["seat"] != late for event in later if event.type == "social.turn_began")
    assert all(late not in event.data["waiting"] for event in later if event.type == "social.played")
    assert all(event.data["seat"] != late for event in later if event.type == "social.joined")
    assert late not in live.state.winners


def test_the_players_of_a_sherman_act_window_out_of_time_pass_and_the_card_takes_effect():
    game = Table(4, options=CLOCKED).clear().turn(0, PLAY)  # a Sherman Act in the draw pile: a window opens
    user = game.give(0, "John Smith")
    live = ArrangedTable(game)
    live.send(0, {"type": "play", "card": user, "x": 0, "y": 0}, after=1)
    assert live.awaited == (1, 2, 3) and live.deadlines == dict.fromkeys((1, 2, 3), live.now + PER_MOVE)
    live.send(1, {"type": "pass"}, after=1)
    assert live.awaited == (2, 3) and live.deadlines == dict.fromkeys((2, 3), live.now - 1 + PER_MOVE)
    events = live.expire(after=PER_MOVE - 1)
    assert events[0].data == {"seats": [2, 3]}
    assert [e.data["seat"] for e in events if e.type == "social.passed"] == [2, 3]
    assert "social.placed" in live.types(events)
    assert live.state.status == "active" and live.state.table.pending is None
    assert live.state.table.turn.stage == INVITE and live.awaited == (0,)
    # Two players left: from now on a card played waits on the other alone.
    live.send(0, {"type": "end_turn"}, after=1)
    assert turn_seat(live) == 1


def test_a_viral_post_whose_player_chooses_no_new_user_in_time_stays_where_it_is():
    game = Table(3, options=CLOCKED).clear().without_sherman_act()
    center = game.put("John Smith", 0, 0, 0)
    game.put("Debbie Webceleb", 1, 0)
    game.put("Fa3ryAlly", -1, 0, 1)
    post = game.in_front(0, "Viral Post")
    game._set(viral_posts=(ViralPost(card=post, owner=0, on=center),))
    game.turn(0, INVITE)
    live = ArrangedTable(game)
    live.send(0, {"type": "end_turn"}, after=1)
    assert turn_seat(live) == 1 and live.state.table.viral_choice.owner == 0 and live.awaited == (0,)
    events = live.expire(after=PER_MOVE)
    assert live.types(events) == ["clock.expired", "social.viral_lapsed"] and "clock" in events[-1].data
    assert {key: value for key, value in events[1].data.items() if key != "clock"} == {"card": post, "owner": 0}
    assert live.state.table.viral_choice is None and live.awaited == (1,)
    assert live.moves(1) == [{"type": "draw"}]
    shown = view_state(live.state, 1)["board"]
    assert shown["viral_choice"] is None and shown["viral_posts"] == [{"card": post, "owner": 0, "on": center}]
    # The turns go round seats 1 and 2; seat 0's Viral Post moves no more.
    chooser = random.Random(3)
    expired_at = len(live.events)
    while sum(e.type == "social.turn_began" for e in live.events[expired_at:]) < 3:
        random_move(live, chooser)
    later = live.events[expired_at:]
    assert [e.data["seat"] for e in later if e.type == "social.turn_began"] == [2, 1, 2]
    assert not any(e.type.startswith("social.viral") for e in later)


# --- undo ------------------------------------------------------------------------------------------------------


def test_an_undo_across_a_card_drawn_is_refused_one_across_a_card_played_is_agreed():
    live = socialism(seed=6)
    seat = turn_seat(live)
    drawn_at = live.state.version
    live.send(seat, {"type": "draw"}, after=1)
    refused = live.refusal(seat, {"type": "undo", "to": drawn_at})
    assert refused.code == "undo_not_possible" and refused.details["type"] == "social.drew"

    before = live.state
    play = next(move for move in live.playable(seat) if "x" in move)  # a User onto the grid: no die
    live.send(seat, play, after=1)
    assert play["card"] not in live.state.table.player(seat).hand
    live.send(seat, {"type": "undo", "to": before.version})
    events = live.send(1 - seat, {"type": "undo_answer", "accept": True}, after=1)
    assert live.types(events)[:2] == ["undo.answered", "game.undone"]
    assert live.state.table == before.table and play["card"] in live.state.table.player(seat).hand


def test_an_undo_across_a_die_rolled_is_refused():
    live = socialism(seed=6)
    chooser = random.Random(6)
    while not any(event.type == "social.die_rolled" for event in live.events):
        random_move(live, chooser)
    rolled = next(v for v, e in enumerate(live.events, start=1) if e.type == "social.die_rolled")
    refused = live.refusal(turn_seat(live), {"type": "undo", "to": rolled - 1})
    assert refused.code == "undo_not_possible"
    assert refused.details == {"to": rolled - 1, "version": rolled, "type": "social.die_rolled"}


# --- computer players ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("levels", [("random", "greedy"), ("greedy", "greedy")])
def test_computer_players_play_a_game_to_its_end(levels, players):
    live = socialism(players, seed=players, clock=False)
    sent = play_bots(live, [*levels, *levels][:players], cap=4000)
    assert live.state.status == "finished", f"not over after {sent} commands"
    assert live.events[-1].type == "social.finished"


def test_greedy_sends_the_automatic_invitation_rather_than_end_its_turn():
    game = Table(2).clear().without_sherman_act()
    user = game.put("John Smith", 0, 0)
    game.turn(0, INVITE, played_user=user)
    moves = [move["type"] for move in game.moves(0)]
    assert "end_turn" in moves and "invite" in moves
    for seed in range(6):
        chosen = bots.choose(game.state, 0, "greedy", SeededRng(seed))
        assert chosen == {"type": "invite", "how": "auto", "user": user}


def test_the_greedy_score_is_the_lead_in_tokens_placed():
    game = Table(3).clear().without_sherman_act()
    game.put("John Smith", 0, 0, 0)
    game.put("Debbie Webceleb", 1, 0, 0, 1)
    game.put("Fa3ryAlly", -1, 0, 0)
    scores = [RULES.evaluate(view_state(game.state, seat), seat) for seat in range(3)]
    hands = [len(game.table.player(seat).hand) for seat in range(3)]
    assert scores == [2 + 0.1 * hands[0], -2 + 0.1 * hands[1], -3 + 0.1 * hands[2]]
