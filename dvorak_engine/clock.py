"""Clocks kept by the server: ``options.clock``, and the events that set and end them.

A game created with ``options.clock`` gives every seat it waits on (``Ruleset.awaited``: the player to move, the
voters of an open vote, the seats of a secret throw not yet made) a deadline:

- ``{"per_move": s}``: ``s`` seconds for each decision; a seat's every command starts its next decision afresh;
- ``{"initial": s, "increment": s}``: a bank of seconds per seat, as in chess: it runs down while the game waits on
  the seat, and the seat's own command stops it and adds the increment.

The clock is time the server reads while deciding a command (``now``, as randomness is an ``rng``), never while
replaying: whenever a command of a clocked game changes the deadlines or banks, its last event carries them as
they now stand (``data.clock``), and folding that event sets them. (Games stored before then have a ``clock.set``
event of their own after such a command; it is folded alike.) When a deadline has passed, the server's clock sends ``expire`` through the one
command pipeline: ``clock.expired`` names the seats whose time ran out and each of them is out of the game; the
ruleset says how its game goes on without them (``Ruleset.timed_out``), and when one side is left standing it
wins (``game.won_on_time``).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from dvorak_core.errors import DomainError
from dvorak_engine.events import Event
from dvorak_engine.state import ACTIVE, PLAYING, VOTING, GameState

LOWEST, HIGHEST = 1, 7 * 24 * 3600  # a clock of one second to seven days
RUNNING = (ACTIVE, VOTING)


def read_option(value: Any) -> dict[str, float] | None:
    """``options.clock`` checked: None (no clock), ``{"per_move": s}`` or ``{"initial": s, "increment": s}``."""
    if value is None:
        return None

    def refused(message: str) -> DomainError:
        return DomainError(message, code="invalid", details={"field": "options.clock"})

    def seconds(key: str, low: float) -> float:
        number = value.get(key)
        if isinstance(number, bool) or not isinstance(number, int | float) or not low <= number <= HIGHEST:
            raise refused(f"\"options.clock.{key}\" is a number of seconds from {low:g} to {HIGHEST} (seven days).")
        return number

    if not isinstance(value, dict):
        raise refused("\"options.clock\" is {\"per_move\": seconds} or {\"initial\": seconds, \"increment\": seconds}.")
    if set(value) == {"per_move"}:
        return {"per_move": seconds("per_move", LOWEST)}
    if set(value) in ({"initial"}, {"initial", "increment"}):
        return {"initial": seconds("initial", LOWEST), "increment": seconds("increment", 0) if "increment" in value
                else 0}
    raise refused("\"options.clock\" is {\"per_move\": seconds} or {\"initial\": seconds, \"increment\": seconds}.")


def spec_of(state: GameState) -> dict[str, float] | None:
    """The game's clock, None for a game without one. (A game stored before clocks existed whose free-form options
    happened to hold a ``clock`` the server would refuse now has none.)"""
    clock = state.options.get("clock") if isinstance(state.options, dict) else None
    if type(clock) is dict and clock.keys() == PER_MOVE and _seconds(clock["per_move"], LOWEST):
        return clock  # as read_option gives it back (the shape of nearly every clocked game's, read on each command)
    try:
        return read_option(clock)
    except DomainError:
        return None


PER_MOVE = frozenset({"per_move"})


def _seconds(number: Any, low: float) -> bool:
    return type(number) in (int, float) and low <= number <= HIGHEST


def _at(seconds: float) -> float:
    return round(seconds, 3)


def after_command(rules: Any, before: GameState, after: GameState, events: list[Event], actor_seat: int | None,
                  now: float) -> dict[str, Any] | None:
    """The clock after a command of a clocked game, if the command changed it: ``{"deadlines", "banks"}``, carried
    by the command's last event (``carried``). ``after`` is the state its ``events`` lead to. A seat the game now
    waits on and did not (or that sent this command) starts a new decision; a seat no longer waited on has its bank
    settled (under a bank clock: what was left of it, plus the increment if it moved)."""
    spec = spec_of(before)
    if spec is None or not events:
        return None
    old_deadlines, banks = after.deadlines, dict(after.banks)
    if "initial" in spec:
        for seat in after.seats:
            banks.setdefault(str(seat.seat), float(spec["initial"]))
    waited = set(rules.awaited(before)) if before.status in RUNNING else set()
    waiting = rules.awaited(after) if after.status in RUNNING else ()
    undone = any(event.type == "game.undone" for event in events)
    deadlines: dict[str, float] = {}
    for seat in waiting:
        key = str(seat)
        if key in old_deadlines and seat in waited and seat != actor_seat and not undone:
            deadlines[key] = old_deadlines[key]  # the same decision, still being made
    if "initial" in spec:
        for key, deadline in old_deadlines.items():
            if deadlines.get(key) != deadline:  # this seat's clock stopped
                moved = actor_seat is not None and key == str(actor_seat)
                banks[key] = _at(max(0.0, deadline - now) + (spec["increment"] if moved else 0))
    for seat in waiting:
        key = str(seat)
        if key not in deadlines:
            deadlines[key] = _at(now + (spec["per_move"] if "per_move" in spec else banks[key]))
    if deadlines == after.deadlines and banks == after.banks:
        return None
    return {"deadlines": deadlines, "banks": banks}


# The key of an event's data that carries the clock a command set (never a key of a ruleset's own events).
CARRIED = "clock"


def carried(event: Event, timing: dict[str, Any]) -> Event:
    """The command's last ``event``, carrying the clock as it set it (``data.clock``): no event of its own, so a
    clocked command writes no more rows than another."""
    if CARRIED in event.data:
        raise ValueError(f"event {event.type!r} has a data key {CARRIED!r} of its own: the clock's")
    return Event(event.type, {**event.data, CARRIED: timing}, event.schema)


def apply_carried(state: GameState, timing: dict[str, Any]) -> GameState:
    """The deadlines and banks an event carries, after its own change to the state."""
    from dvorak_engine.values import replace

    return replace(state, deadlines=dict(timing["deadlines"]), banks=dict(timing["banks"]))


def late_seats(state: GameState, now: float) -> list[int]:
    """The seats whose deadline has passed at ``now``."""
    return sorted(int(key) for key, deadline in state.deadlines.items() if deadline <= now)


def overdue(state: GameState, now: float) -> bool:
    """Whether a clock of this game has run out and nothing has said so yet."""
    return state.status in RUNNING and any(deadline <= now for deadline in state.deadlines.values())


def next_deadline(state: GameState) -> float | None:
    """The earliest deadline of a game being played, None when no clock is running."""
    return min(state.deadlines.values()) if state.deadlines and state.status in RUNNING else None


def sides_standing(state: GameState) -> list[list[int]]:
    """The seats still playing, by side: a team's seats together, each player without a team alone."""
    sides: dict[str, list[int]] = {}
    for seat in state.seats:
        if seat.status == PLAYING:
            sides.setdefault(f"team:{seat.team}" if seat.team is not None else f"seat:{seat.seat}", []).append(
                seat.seat)
    return list(sides.values())


def iso(seconds: float) -> str:
    moment = dt.datetime.fromtimestamp(seconds, tz=dt.UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def view(state: GameState) -> dict[str, Any] | None:
    """The clock as every viewer sees it: its kind, and each seat's deadline (while the game waits on it) and bank."""
    spec = spec_of(state)
    if spec is None:
        return None
    seats = []
    for seat in state.seats:
        key = str(seat.seat)
        deadline = state.deadlines.get(key) if state.status in RUNNING else None
        entry: dict[str, Any] = {"seat": seat.seat, "deadline": iso(deadline) if deadline is not None else None}
        if "initial" in spec:
            entry["bank"] = state.banks.get(key, float(spec["initial"]))
        seats.append(entry)
    return {**spec, "seats": seats}


# --- the core's appliers ------------------------------------------------------------------------------------


def apply_set(state: GameState, event: Event) -> GameState:
    """``clock.set``, the clock's own event in the games stored before the clock rode on a command's last event."""
    return apply_carried(state, event.data)


def apply_expired(state: GameState, event: Event) -> GameState:
    """The seats whose time ran out are out of the game; their deadlines go."""
    from dvorak_engine.state import ELIMINATED
    from dvorak_engine.values import replace

    late = set(event.data["seats"])
    seats = tuple(replace(seat, status=ELIMINATED) if seat.seat in late else seat for seat in state.seats)
    deadlines = {key: value for key, value in state.deadlines.items() if int(key) not in late}
    return replace(state, seats=seats, deadlines=deadlines)


def apply_won_on_time(state: GameState, event: Event) -> GameState:
    from dvorak_engine.state import FINISHED
    from dvorak_engine.values import replace

    return replace(state, status=FINISHED, winners=tuple(event.data["winners"]), deadlines={})
