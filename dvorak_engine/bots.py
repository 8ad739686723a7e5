"""Computer players: which command a seat played by the computer sends, from what that seat may see.

A computer player reads its own seat's view (``view_state``) and its listed moves (``legal_moves``), never the
state behind them, and plays as any player does: the command it returns goes through the one command pipeline.

- ``random``: one of its listed moves, uniformly, each choice a move leaves open made at random.
- ``greedy``: every listed move (each choice made at random, a few fillings of a move with choices), looked at one
  move ahead: the move is decided on a copy of the game with randomness of its own, and the seat's view of the
  result is scored by the ruleset's ``evaluate`` (a win above everything, a loss below). A move whose events would
  show the seat something it cannot see yet (a card drawn, a throw revealed: ``Ruleset.revealing``) is not looked
  through: it scores as the game stands, so looking ahead never tells the computer what a hidden card is.
  The best score wins; ties are broken at random.

Both answer an undo by accepting it, never concede, leave or agree to abandon, and vote and answer claims by the
same choice among their listed moves as any other move.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dvorak_core.errors import DomainError
from dvorak_engine.events import Actor
from dvorak_engine.game import legal_moves, view_state
from dvorak_engine.rng import Rng, SeededRng
from dvorak_engine.ruleset import FREE_MOVES
from dvorak_engine.rulesets import get_ruleset
from dvorak_engine.state import ABANDONED, OVER, GameState

LEVELS = ("random", "greedy")
# How many commands a greedy player looks at, at most, and how many fillings of one move with choices.
CANDIDATES, FILLINGS = 48, 3
WIN, LOSS = 1e9, -1e9


def sample(items: Sequence[Any], count: int, rng: Rng) -> list[Any]:
    """``count`` different items, at random (a partial shuffle by ``rng``)."""
    pool = list(items)
    for index in range(count):
        pick = index + rng.randbelow(len(pool) - index)
        pool[index], pool[pick] = pool[pick], pool[index]
    return pool[:count]


def filled(move: dict[str, Any], rng: Rng) -> dict[str, Any]:
    """A listed move as a command: each choice it leaves open (``{"choose": k, "from": [...], "list": bool}``)
    made at random."""
    command = {}
    for key, value in move.items():
        if isinstance(value, dict) and "choose" in value:
            picked = sample(value["from"], value["choose"], rng)
            command[key] = picked if value["list"] else picked[0]
        else:
            command[key] = value
    return command


def playable(state: GameState, seat: int) -> list[dict[str, Any]]:
    """The seat's listed moves a computer player chooses among (none of ``FREE_MOVES``)."""
    return [move for move in legal_moves(state, seat) if move["type"] not in FREE_MOVES]


def choose(state: GameState, seat: int, level: str, rng: Rng) -> dict[str, Any] | None:
    """The command the computer player of ``seat`` sends now, or None when it has nothing to do."""
    listed = legal_moves(state, seat)
    if any(move["type"] == "undo_answer" for move in listed):
        return {"type": "undo_answer", "accept": True}
    moves = [move for move in listed if move["type"] not in FREE_MOVES]
    if not moves:
        return None
    if level != "greedy":
        return filled(moves[rng.randbelow(len(moves))], rng)
    return _greedy(state, seat, moves, rng)


def _greedy(state: GameState, seat: int, moves: list[dict[str, Any]], rng: Rng) -> dict[str, Any]:
    rules = get_ruleset(state.ruleset)
    here = score(rules, view_state(state, seat), seat)
    actor = Actor(user_id=state.seat(seat).user_id, username=state.seat(seat).username)
    candidates: list[dict[str, Any]] = []
    for move in sample(moves, min(len(moves), CANDIDATES), rng):
        open_choices = any(isinstance(value, dict) and "choose" in value for value in move.values())
        candidates.extend(filled(move, rng) for _ in range(FILLINGS if open_choices else 1))
    best: list[dict[str, Any]] = []
    best_score = None
    for command in candidates[:CANDIDATES * 2]:
        value = look_ahead(rules, state, seat, actor, command, here)
        if value is None:
            continue
        if best_score is None or value > best_score:
            best, best_score = [command], value
        elif value == best_score:
            best.append(command)
    if not best:  # nothing looked at was accepted: any listed move
        return filled(moves[rng.randbelow(len(moves))], rng)
    return best[rng.randbelow(len(best))]


def look_ahead(rules: Any, state: GameState, seat: int, actor: Actor, command: dict[str, Any],
               here: float) -> float | None:
    """The score of the game for ``seat`` after ``command``, from the seat's view of it; ``here`` (the game as it
    stands) for a command whose events reveal something; None for a command the rules refuse."""
    try:
        events = rules.decide(state, command, actor=actor, rng=SeededRng(f"look-ahead:{state.version}"))
    except DomainError:
        return None
    if any(rules.revealing(event.type) for event in events):
        return here
    after = rules.fold(state, events)
    return score(rules, view_state(after, seat), seat)


def score(rules: Any, view: dict[str, Any], seat: int) -> float:
    """A win above everything, a loss below, an abandoned game nothing; else the ruleset's ``evaluate``."""
    status = view.get("status")
    if status in OVER:
        if status == ABANDONED:
            return 0.0
        return WIN if seat in view.get("winners", ()) else LOSS
    return float(rules.evaluate(view, seat))
