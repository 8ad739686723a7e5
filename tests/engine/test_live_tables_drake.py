"""Virtues of the Drake at a live table (issue 34): the clock waits on the player whose turn it is; a player out of
time is out of the game, their Virtue set aside and the turn passed on, or, with one player left, that player wins;
a card turned up from a deck is never taken back; two computer players play a game to its end; the greedy one goes
for its own Virtue's win.

``LiveTable`` and ``History`` are the live-table harness the other rulesets' tests share: a game played at the
server's time, as the server decides each command (``now``, and the game's history for an undo).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from dvorak_core.errors import DomainError
from dvorak_engine import Actor, SeededRng, bots, create_game, decide, legal_moves, replay, view_state
from dvorak_engine.events import Event
from dvorak_engine.rulesets import get_ruleset
from dvorak_engine.rulesets.virtues_of_the_drake.ruleset import ON_TIME
from dvorak_engine.state import GameState
from tests.engine.test_legal_moves import filled
from tests.engine.virtues_of_the_drake.table import SAMPLE, Table, card, drake_deck

START = 1_800_000_000.0  # the server's time as the game starts
PER_MOVE = 5
CLOCK = Actor(user_id=-1, username="(clock)")  # the server's clock: no seat of any game


class History:
    """The game's history as the server hands it to an undo (``Past``): its state at a version, the events after
    one."""

    def __init__(self, events: list[Event]) -> None:
        self._events = list(events)

    def state(self, version: int) -> GameState:
        return replay(self._events[:version])

    def events(self, after: int) -> list[Event]:
        return self._events[after:]


class LiveTable:
    """A started game of ``ruleset`` timed by a clock of ``PER_MOVE`` seconds a decision (``clock=False``: none),
    every command decided at the server's time ``now``, which only moves on when a test says so."""

    def __init__(self, ruleset: str, deck: dict, players: int = 2, *, options: dict | None = None, seed: int = 1,
                 clock: bool = True) -> None:
        self.ruleset = ruleset
        self.rules = get_ruleset(ruleset)
        self.rng = SeededRng(seed)
        self.now = START
        self.people = [Actor(user_id=100 + seat, username=f"player{seat}") for seat in range(players)]
        options = {**(options or {}), **({"clock": {"per_move": PER_MOVE}} if clock else {})}
        self.events: list[Event] = create_game(ruleset=ruleset, deck=deck, variant="standard", creative=False,
                                               max_players=players, options=options, creator=self.people[0],
                                               rng=self.rng)
        self.state: GameState = replay(self.events)
        for seat in range(1, players):
            self.send(seat, {"type": "join"})
        self.send(0, {"type": "start"})

    def _decided(self, actor: Actor, body: dict[str, Any], after: float) -> list[Event]:
        self.now += after
        events = decide(self.state, body, actor=actor, rng=self.rng, now=self.now, past=History(self.events))
        self.events += events
        self.state = replay(events, self.state)
        return events

    def send(self, seat: int, body: dict[str, Any], *, after: float = 0.0) -> list[Event]:
        """``body`` from ``seat``, ``after`` seconds after the last command."""
        return self._decided(self.people[seat], body, after)

    def expire(self, *, after: float = 0.0) -> list[Event]:
        """The server's clock sending ``expire``, ``after`` seconds after the last command."""
        return self._decided(CLOCK, {"type": "expire"}, after)

    def refusal(self, seat: int | None, body: dict[str, Any], *, after: float = 0.0) -> DomainError:
        """The refusal of ``body`` from ``seat`` (None: the clock) ``after`` seconds on; nothing is appended."""
        actor = CLOCK if seat is None else self.people[seat]
        with pytest.raises(DomainError) as refused:
            decide(self.state, body, actor=actor, rng=self.rng, now=self.now + after, past=History(self.events))
        return refused.value

    @property
    def deadlines(self) -> dict[int, float]:
        return {int(seat): deadline for seat, deadline in self.state.deadlines.items()}

    @property
    def awaited(self) -> tuple[int, ...]:
        return self.rules.awaited(self.state)

    def moves(self, seat: int) -> list[dict[str, Any]]:
        return legal_moves(self.state, seat)

    def playable(self, seat: int) -> list[dict[str, Any]]:
        """The seat's listed moves but for those a clock does not wait for (leaving, undo)."""
        return bots.playable(self.state, seat)

    def with_moves(self) -> list[int]:
        return [seat for seat in range(len(self.people)) if self.playable(seat)]

    def types(self, events: list[Event]) -> list[str]:
        return [event.type for event in events]


def check_clock_follows(live: LiveTable) -> None:
    """What a player would see of the clock: a deadline for exactly the seats the game waits on, each of them with
    a move of its own listed, and no later than one decision from now."""
    waiting = live.awaited
    assert sorted(waiting) == live.with_moves()
    assert sorted(live.deadlines) == sorted(waiting)
    assert all(live.now < deadline <= live.now + PER_MOVE for deadline in live.deadlines.values())


def play_bots(live: LiveTable, levels: list[str], *, cap: int) -> int:
    """Computer players of ``levels`` (by seat) playing the game until it ends or ``cap`` commands were sent, each
    command accepted as sent; the number of commands."""
    chooser = SeededRng(f"bots-{live.ruleset}-{levels}")
    for sent in range(cap):
        if live.state.status not in ("active", "voting"):
            return sent
        waiting = live.awaited
        assert sorted(waiting) == live.with_moves()
        seat = waiting[chooser.randbelow(len(waiting))]
        command = bots.choose(live.state, seat, levels[seat], chooser)
        assert command is not None
        live.send(seat, command, after=1)  # a DomainError here is a command the rules refused
    return cap


def nothing_listed(live: LiveTable) -> bool:
    return all(legal_moves(live.state, seat) == [] for seat in range(len(live.people)))


# --- Virtues of the Drake ---------------------------------------------------------------------------------------


def sample_deck() -> dict:
    return json.loads(SAMPLE.read_text(encoding="utf-8"))


def drake(players: int = 2, seed: int = 1, **kwargs: Any) -> LiveTable:
    return LiveTable("virtues_of_the_drake", sample_deck(), players, seed=seed, **kwargs)


def random_turns(live: LiveTable, chooser: random.Random, commands: int) -> None:
    """``commands`` listed moves of the player whose turn it is, a second apart."""
    for _ in range(commands):
        seat = live.state.table.turn.seat
        live.send(seat, filled(chooser.choice(live.playable(seat)), chooser), after=1)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_clock_waits_on_the_player_whose_turn_it_is(players):
    live = drake(players)
    chooser = random.Random(players)
    check_clock_follows(live)
    assert live.deadlines == {live.state.table.turn.seat: START + PER_MOVE}
    for _ in range(40):
        if live.state.status != "active":
            break
        seat = live.state.table.turn.seat
        before = live.deadlines[seat]
        live.send(seat, filled(chooser.choice(live.playable(seat)), chooser), after=1)
        if live.state.status != "active":
            assert live.deadlines == {}
            break
        check_clock_follows(live)
        mover = live.state.table.turn.seat
        # A new decision starts a new count: the card played, the player's action is timed afresh; the next
        # player's turn likewise.
        assert live.deadlines == {mover: live.now + PER_MOVE}
        assert live.deadlines[mover] > before


def test_an_expire_before_the_deadline_is_refused():
    live = drake()
    refused = live.refusal(None, {"type": "expire"}, after=PER_MOVE - 0.01)
    assert refused.code == "clock_running"
    assert live.state.status == "active"


def test_two_players_the_one_out_of_time_loses_and_nothing_is_left_to_play():
    live = drake()
    late = live.state.table.turn.seat
    events = live.expire(after=PER_MOVE)
    assert live.types(events) == ["clock.expired", "game.won_on_time"]
    assert events[0].data == {"seats": [late]}
    assert live.state.status == "finished" and list(live.state.winners) == [1 - late]
    assert live.awaited == () and live.deadlines == {}
    assert nothing_listed(live)
    shown = view_state(live.state, 1 - late)
    assert shown["players"][late]["status"] == "eliminated"
    assert shown["board"]["turn"] is None
    assert shown["board"]["outcome"] == {"virtue": shown["players"][1 - late]["virtue"], "winners": [1 - late],
                                         "rule": ON_TIME}
    assert live.refusal(None, {"type": "expire"}, after=PER_MOVE).code == "game_not_active"


@pytest.mark.parametrize("players", [3, 4])
def test_with_three_or_more_the_game_goes_on_without_the_player_out_of_time(players):
    live = drake(players, seed=players)
    chooser = random.Random(players)
    random_turns(live, chooser, 3)
    late = live.state.table.turn.seat
    virtue = live.state.table.turn.virtue
    order = live.state.table.play_order()
    expected_next = order[(order.index(virtue) + 1) % len(order)]
    events = live.expire(after=PER_MOVE)
    assert live.types(events) == ["clock.expired", "drake.virtue_set_aside", "drake.turn_began"]
    assert "clock" in events[-1].data
    assert live.state.status == "active"
    # Their Virtue is no longer in play; the next Virtue in the order has the turn, with a fresh decision.
    table = live.state.table
    assert virtue not in table.play_order() and virtue in table.set_aside
    assert table.turn.virtue == expected_next
    assert live.deadlines == {table.turn.seat: live.now + PER_MOVE}
    check_clock_follows(live)
    assert live.moves(late) == []
    assert live.refusal(late, {"type": "play_top", "deck": "treasures"}).code == "eliminated"
    shown = view_state(live.state, late)
    assert shown["players"][late]["status"] == "eliminated" and shown["players"][late]["virtue"] is None
    # Every later turn skips them.
    for _ in range(30):
        if live.state.status != "active":
            break
        assert live.state.table.turn.seat != late
        random_turns(live, chooser, 1)


def test_the_last_two_standing_play_on_until_one_runs_out_of_time():
    live = drake(3, seed=5)
    first = live.state.table.turn.seat
    live.expire(after=PER_MOVE)
    assert live.state.status == "active"
    second = live.state.table.turn.seat
    events = live.expire(after=PER_MOVE)
    assert live.types(events) == ["clock.expired", "game.won_on_time"]
    [winner] = {0, 1, 2} - {first, second}
    assert list(live.state.winners) == [winner] and nothing_listed(live)


def to_action_stage(live: LiveTable, chooser: random.Random) -> None:
    """Turns played until a player has turned up a card and has an action to perform."""
    for _ in range(100):
        if live.state.table.turn.stage == "action":
            return
        random_turns(live, chooser, 1)
    raise AssertionError("no turn came to an action")


def test_an_undo_across_a_card_turned_up_is_refused_one_after_it_is_agreed():
    live = drake(2, seed=7)
    chooser = random.Random(7)
    to_action_stage(live, chooser)
    turned_up = max(version for version, event in enumerate(live.events, start=1)
                    if event.type == "drake.card_played")
    after_play = live.state.version
    table_then = live.state.table
    seat = live.state.table.turn.seat
    live.send(seat, filled(chooser.choice(live.playable(seat)), chooser), after=1)
    assert live.state.table != table_then

    refused = live.refusal(seat, {"type": "undo", "to": turned_up - 1})
    assert refused.code == "undo_not_possible"
    assert refused.details["type"] == "drake.card_played" and refused.details["version"] == turned_up

    live.send(seat, {"type": "undo", "to": after_play})
    assert live.moves(1 - seat)[:2] == [{"type": "undo_answer", "accept": True},
                                        {"type": "undo_answer", "accept": False}]
    events = live.send(1 - seat, {"type": "undo_answer", "accept": True}, after=1)
    assert live.types(events)[:2] == ["undo.answered", "game.undone"]
    # The action is taken back; the card turned up stays where it was played, and the player acts again, on a
    # fresh clock.
    assert live.state.table == table_then
    assert live.state.table.turn.stage == "action" and live.awaited == (seat,)
    assert live.deadlines == {seat: live.now + PER_MOVE}


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("levels", [("random", "greedy"), ("greedy", "random"), ("greedy", "greedy")])
def test_computer_players_play_a_whole_game_to_its_end(levels, players):
    live = drake(players, seed=players, clock=False)
    sent = play_bots(live, [*levels, *levels][:players], cap=600)
    assert live.state.status == "finished", f"not over after {sent} commands"
    assert live.events[-1].type == "drake.game_over"


def test_greedy_swallows_the_maiden_for_gluttony_rather_than_feed_the_lair():
    """Gluttony's action: breathe fire on the Knight in play (a Knight into the Lair: Wrath nearer its win) or the
    harp's action, the Maiden in play swallowed (Gluttony nearer its own)."""
    harp = card("Enchanted Harp", "Treasure", "As an action, swallow the Maiden in play, even if a Knight guards "
                "her: the harp lulls him.", value=1)
    game = Table(4, deck=drake_deck(harp)).arrange(
        turn="Gluttony", stage="action", maiden=["Maiden 3"], knight=["Knight 5"], gullet=["Maiden 1"],
        lair=["Knight 1"], bed=["Treasure 1", "Enchanted Harp"])
    seat = game.seat_of("Gluttony")
    assert sorted(move["type"] for move in game.moves()) == ["breathe_fire", "card_action"]
    for seed in range(6):
        chosen = bots.choose(game.state, seat, "greedy", SeededRng(seed))
        assert chosen == {"type": "card_action", "card": game.id_of("Enchanted Harp")}


def test_each_virtue_is_scored_by_how_near_it_is_to_its_own_win():
    game = Table(4).arrange(turn="Gluttony", stage="play", gullet=["Maiden 1", "Maiden 2", "Maiden 3"],
                            lair=["Knight 1"], bed=["Treasure 1"])
    rules = get_ruleset("virtues_of_the_drake")
    scores = {virtue: rules.evaluate(view_state(game.state, game.seat_of(virtue)), game.seat_of(virtue))
              for virtue in ("Gluttony", "Wrath", "Greed")}
    assert scores["Gluttony"] > 0 > scores["Wrath"]
    assert scores["Wrath"] == scores["Greed"]
