"""Filibuster at a live table (issue 34), played as by default with each player's own deck built from the set (the
``ccg`` variant): the clock waits on the seats the campaign waits for (a filibuster window's, the two seats of a
reveal, the seat to play, stack, counter, respond or resolve; after a campaign died, the first roller still in the
game); a player out of time is out of the game, whatever the step was waiting for from them settled (a pass, a
filibuster dropped unrevealed, the pitch handed on), or, with one player left, that player wins; an undo never goes
back across the dice or a card drawn; two computer players play to 200 points; the greedy one plays its best
Campaign.

The live-table harness (``LiveTable``, ``History``...) is the one the other rulesets' tests share
(``tests.engine.test_live_tables_drake``); a Filibuster game's is made of CCG decks.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from dvorak_engine import Actor, SeededRng, bots, create_game, replay, view_state
from dvorak_engine.rulesets import get_ruleset
from dvorak_engine.rulesets.filibuster.cards import CAMPAIGN
from dvorak_engine.rulesets.filibuster.ruleset import waiting_for
from dvorak_engine.rulesets.filibuster.state import (
    BEGINNING,
    COUNTER,
    DIED,
    EFFECT,
    PLAY_CAMPAIGN,
    PLAY_CONSTANT,
    RESPONSE,
    REVEAL,
    STACK,
    WINDOW,
)
from tests.engine.filibuster.table import sample_set
from tests.engine.filibuster.test_campaigns import at_beginning
from tests.engine.filibuster.test_filibuster_options import player_deck
from tests.engine.test_legal_moves import filled
from tests.engine.test_live_tables_drake import PER_MOVE, START, LiveTable, nothing_listed

RULES = get_ruleset("filibuster")


class CcgTable(LiveTable):
    """A started ``ccg`` game, each seat with its own player deck of the sample set, timed by a clock of
    ``PER_MOVE`` seconds a decision (``clock=False``: none)."""

    def __init__(self, players: int = 2, *, seed: int = 1, options: dict | None = None, clock: bool = True) -> None:
        self.ruleset, self.rules, self.rng, self.now = "filibuster", RULES, SeededRng(seed), START
        self.people = [Actor(user_id=100 + seat, username=f"player{seat}") for seat in range(players)]
        options = {**(options or {}), **({"clock": {"per_move": PER_MOVE}} if clock else {})}
        self.events = create_game(ruleset="filibuster", deck=sample_set(), variant="ccg", creative=False,
                                  max_players=players, options={**options, "player_deck": player_deck(100)},
                                  creator=self.people[0], rng=self.rng)
        self.state = replay(self.events)
        for seat in range(1, players):
            self.send(seat, {"type": "join", "player_deck": player_deck(100 + seat)})
        self.send(0, {"type": "start"})

    @property
    def phase(self) -> str | None:
        return self.state.table.phase


def check_clock_follows(live: CcgTable) -> None:
    """A deadline for exactly the seats the game waits on, each with a move listed; every seat the campaign waits
    for is waited on, but after a campaign died, when any player may roll and the clock waits on the first in the
    dice's order still in the game."""
    waiting = live.awaited
    assert sorted(live.deadlines) == sorted(waiting)
    assert set(waiting) <= set(live.with_moves())
    if live.phase == DIED:
        standing = [seat for seat in live.state.table.order if live.state.seat(seat).status == "playing"]
        assert waiting == (standing[0],)
    else:
        assert sorted(waiting) == sorted(waiting_for(live.state)) == live.with_moves()
    assert all(live.now < deadline <= live.now + PER_MOVE for deadline in live.deadlines.values())


def random_move(live: CcgTable, chooser: random.Random) -> list:
    """A listed move of a seat the game waits on, one second after the last command."""
    seat = chooser.choice(live.awaited)
    return live.send(seat, filled(chooser.choice(live.playable(seat)), chooser), after=1)


def until(live: CcgTable, reached, chooser: random.Random, cap: int = 3000) -> None:
    """Random listed moves until ``reached(live)``."""
    for _ in range(cap):
        if reached(live):
            return
        assert live.state.status == "active", "the game ended first"
        random_move(live, chooser)
    raise AssertionError("not reached")


# --- the clock -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3])
def test_the_clock_waits_on_the_seats_the_campaign_waits_for(players):
    live = CcgTable(players, seed=players)
    chooser = random.Random(players)
    check_clock_follows(live)
    seen = set()
    for _ in range(250):
        before = live.deadlines
        seat = chooser.choice(live.awaited)
        live.send(seat, filled(chooser.choice(live.playable(seat)), chooser), after=1)
        if live.state.status != "active":
            break
        check_clock_follows(live)
        seen.add(live.phase)
        # The seat that moved decides afresh; another still asked the same thing (a window, a reveal) keeps its
        # deadline.
        if seat in live.deadlines:
            assert live.deadlines[seat] == live.now + PER_MOVE
        for other in set(before) & set(live.deadlines) - {seat}:
            assert live.deadlines[other] in (before[other], live.now + PER_MOVE)
    assert {WINDOW, REVEAL, PLAY_CAMPAIGN, STACK} <= seen


def test_an_expire_before_the_deadline_is_refused():
    live = CcgTable()
    assert live.refusal(None, {"type": "expire"}, after=PER_MOVE - 0.01).code == "clock_running"
    assert live.state.status == "active"


def test_two_players_the_one_out_of_time_loses_and_nothing_is_left_to_play():
    live = CcgTable(seed=2)
    [late] = live.awaited
    events = live.expire(after=PER_MOVE)
    assert live.types(events) == ["clock.expired", "game.won_on_time"]
    assert live.state.status == "finished" and list(live.state.winners) == [1 - late]
    assert live.awaited == () and live.deadlines == {} and nothing_listed(live)
    shown = view_state(live.state, 1 - late)
    assert shown["players"][late]["status"] == "eliminated"
    assert shown["board"]["phase"] == "finished" and shown["board"]["waiting_for"] == []


def test_a_reveal_one_player_did_not_make_in_time_ends_the_game_and_asks_for_nothing_more():
    live = CcgTable(seed=4)
    chooser = random.Random(4)
    until(live, lambda live: live.phase == WINDOW, chooser)
    live.send(live.awaited[0], {"type": "filibuster"}, after=1)
    assert live.phase == REVEAL and len(live.awaited) == 2
    first, late = live.awaited
    live.send(first, {"type": "reveal_card", "card": live.state.table.player(first).hand[0]}, after=1)
    events = live.expire(after=PER_MOVE)
    assert events[0].data == {"seats": [late]} and list(live.state.winners) == [first]
    assert nothing_listed(live) and live.state.choosing == ()
    assert "choices" not in view_state(live.state, first)


# --- three or four players: the game goes on ----------------------------------------------------------------------


def one_awaited(live: CcgTable) -> int:
    """Every seat the game waits on but one answers (a window's pass, a reveal's card), so that one alone runs out of
    time; that seat."""
    while len(live.awaited) > 1:
        seat = live.awaited[0]
        if live.phase == WINDOW:
            live.send(seat, {"type": "pass"})
        else:
            live.send(seat, {"type": "reveal_card", "card": live.state.table.player(seat).hand[0]})
    [seat] = live.awaited
    return seat


def campaign_dies(live: CcgTable, chooser: random.Random) -> None:
    """At the beginning of a campaign, every Campaign Card in a hand goes back to its holder's draw pile (a CCG
    deck holds enough Campaigns that a campaign rarely dies by chance): nobody can play one, and the campaign dies
    once the window is answered."""
    until(live, lambda live: live.phase == WINDOW and live.state.table.step == BEGINNING, chooser)
    table = live.state.table
    players = []
    for player in table.players:
        campaigns = tuple(card for card in player.hand if table.kind(card) == CAMPAIGN)
        players.append(replace(player, hand=tuple(card for card in player.hand if card not in campaigns),
                               draw_pile=(*player.draw_pile, *campaigns)))
    live.state = live.state.with_table(players=tuple(players))
    while live.phase == WINDOW:
        live.send(live.awaited[0], {"type": "pass"}, after=1)
    assert live.phase == DIED


@pytest.mark.parametrize("phase", [WINDOW, REVEAL, COUNTER, RESPONSE, PLAY_CAMPAIGN, PLAY_CONSTANT, STACK, EFFECT,
                                   DIED])
def test_a_player_out_of_time_at_any_point_of_a_campaign_leaves_the_others_playing_to_200(phase):
    live = CcgTable(4, seed=7)
    chooser = random.Random(phase)
    if phase == DIED:
        campaign_dies(live, chooser)
    until(live, lambda live: live.phase == phase and (phase != REVEAL or len(live.awaited) == 2), chooser)
    late = one_awaited(live)
    pitcher = live.state.table.pitcher
    expired_at = len(live.events)
    events = live.expire(after=PER_MOVE)
    assert {key: value for key, value in events[0].data.items() if key != "clock"} == {"seats": [late]}
    assert live.state.status == "active" and live.state.seat(late).status == "eliminated"
    assert late not in live.awaited and live.awaited
    check_clock_follows(live)
    assert live.moves(late) == []
    if phase == REVEAL:
        assert "filibuster.dropped" in live.types(events) and live.state.choosing == ()
    if pitcher == late and phase != DIED:
        # The pitch is theirs no more.
        assert live.state.table.pitcher != late

    for _ in range(8000):
        if live.state.status != "active":
            break
        check_clock_follows(live)
        random_move(live, chooser)
    assert live.state.status == "finished"
    later = live.events[expired_at:]
    # They roll no dice, draw no card, are asked nothing, hold no pitch, and score nothing.
    for event in later:
        if event.type == "filibuster.rolled":
            assert late not in event.data["order"]
        if event.type in ("filibuster.drew", "filibuster.scored", "filibuster.priority"):
            assert event.data["seat"] != late
        if event.type in ("filibuster.step_began", "filibuster.window_reopened"):
            assert late not in event.data["window"]
    [winner] = live.state.winners
    assert winner != late and live.state.table.player(winner).points >= 200


# --- undo ------------------------------------------------------------------------------------------------------


def test_an_undo_across_the_dice_or_a_card_drawn_is_refused_one_across_a_card_played_is_agreed():
    live = CcgTable(seed=6)
    rolled = next(v for v, event in enumerate(live.events, start=1) if event.type == "filibuster.rolled")
    seat = live.awaited[0]
    refused = live.refusal(seat, {"type": "undo", "to": rolled - 1})
    assert refused.code == "undo_not_possible" and refused.details["type"] == "filibuster.rolled"
    refused = live.refusal(seat, {"type": "undo", "to": rolled})
    assert refused.code == "undo_not_possible" and refused.details["type"] == "filibuster.drew"

    chooser = random.Random(6)
    until(live, lambda live: live.phase == PLAY_CAMPAIGN, chooser)
    seat, before = live.state.table.acting, live.state
    campaign = next(move for move in live.playable(seat)
                    if "draw" not in live.state.table.cards[move["card"]].stats)
    live.send(seat, campaign, after=1)
    assert live.state.table.campaign_card == campaign["card"]
    live.send(seat, {"type": "undo", "to": before.version})
    events = live.send(1 - seat, {"type": "undo_answer", "accept": True}, after=1)
    assert live.types(events)[:2] == ["undo.answered", "game.undone"]
    assert live.state.table == before.table and campaign["card"] in live.state.table.player(seat).hand


# --- computer players ------------------------------------------------------------------------------------------


def play_bots(live: CcgTable, levels: list[str], *, cap: int) -> int:
    """Computer players of ``levels`` (by seat) playing until the game ends or ``cap`` commands were sent, each
    command accepted as sent; the number of commands."""
    chooser = SeededRng(f"bots-filibuster-{levels}")
    for sent in range(cap):
        if live.state.status != "active":
            return sent
        waiting = live.awaited
        seat = waiting[chooser.randbelow(len(waiting))]
        command = bots.choose(live.state, seat, levels[seat], chooser)
        assert command is not None
        live.send(seat, command, after=1)  # a DomainError here is a command the rules refused
    return cap


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("levels", [("random", "greedy"), ("greedy", "greedy")])
def test_computer_players_play_to_200_points(levels, players):
    live = CcgTable(players, seed=players, clock=False)
    sent = play_bots(live, [*levels, *levels][:players], cap=3000)
    assert live.state.status == "finished", f"not over after {sent} commands"
    [winner] = live.state.winners
    assert live.state.table.player(winner).points >= 200


def test_greedy_plays_its_best_campaign():
    t = at_beginning(0, {0: ("Grassroots Tour", "Landslide Bid", "Photo Op"), 1: ("Poll Surge",)})
    assert t.table.phase == PLAY_CAMPAIGN and t.table.acting == 0
    for seed in range(6):
        chosen = bots.choose(t.state, 0, "greedy", SeededRng(seed))
        assert chosen == {"type": "play", "card": t.card(0, "Landslide Bid")}


def test_the_greedy_score_is_the_lead_in_points_with_a_little_for_cards_constants_and_the_pitch():
    t = at_beginning(0, {0: ("Grassroots Tour", "Photo Op"), 1: ("Poll Surge",)})
    t.points(0, 40)
    t.points(1, 55)
    scores = [RULES.evaluate(view_state(t.state, seat), seat) for seat in range(2)]
    # Seat 0: 15 points behind, two cards, the pitch; seat 1: 15 ahead, one card.
    assert scores == [-15 + 2 * 2 + 5, 15 + 2]
