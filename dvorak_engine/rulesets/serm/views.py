"""What a viewer sees of a S.E.R.M. game: everything. The skirmish has no hidden information, so every seat and
every spectator sees the same table: each soldier's square and facing, what it can see, the Move under way, the
dice of every roll (in the events)."""

from __future__ import annotations

from typing import Any

from dvorak_engine.rulesets.serm.geometry import cell_name
from dvorak_engine.rulesets.serm.reading import acting_seats, enemies_in_sight, spent
from dvorak_engine.rulesets.serm.table import PendingMove, SermState
from dvorak_engine.state import GameState

# The options a client needs to read the table, shown under "rules".
SHOWN_OPTIONS = ("budget", "react_stop", "reacts", "blast")


def _pending(pending: PendingMove | None) -> dict[str, Any] | None:
    if pending is None:
        return None
    return {"soldier": pending.soldier, "direction": pending.direction, "facing": pending.facing,
            "roll": pending.roll, "path": [cell_name(c) for c in pending.path], "steps_left": pending.steps_left,
            "halted": pending.halted, "kill": pending.kill, "reacted": list(pending.reacted),
            "reactors": list(pending.reactors)}


def _board(state: GameState) -> dict[str, Any] | None:
    table: SermState = state.table
    if table.phase is None:
        return None
    activation = table.activation
    return {
        "phase": table.phase,
        "field": {"width": table.width, "height": table.height},
        "terrain": [{"x": r.x, "y": r.y, "width": r.width, "height": r.height} for r in table.terrain],
        "soldiers": [{"id": s.id, "seat": s.seat, "title": s.title, "x": s.x, "y": s.y, "facing": s.facing,
                      "in_sight": [e.id for e in enemies_in_sight(table, s)]} for s in table.soldiers],
        "fallen": [{"id": s.id, "seat": s.seat, "title": s.title} for s in table.fallen],
        "forces": [{"seat": f.seat, "cards": list(f.cards), "ready": f.ready,
                    "spent": spent(table, f.seat)} for f in table.forces],
        "initiative": table.initiative,
        "activation": None if activation is None else {"seat": activation.seat, "soldier": activation.soldier,
                                                        "moved": activation.moved, "shot": activation.shot},
        "move": _pending(table.pending),
        "waiting_for": acting_seats(state),
    }


def view(state: GameState, viewer: int | None) -> dict[str, Any]:
    """The envelope's players (each one's soldiers standing as the counter ``soldiers``), the deck, its soldier
    cards, the rules the game is played with, and the ``board`` (null until the game starts)."""
    table: SermState = state.table
    standing = {seat: sum(1 for s in table.soldiers if s.seat == seat) for seat in range(len(state.seats))}
    players = [{"seat": s.seat, "username": s.username, "team": s.team, "status": s.status,
                "counters": {"soldiers": standing.get(s.seat, 0)}} for s in state.seats]
    rules = {name: state.options.get(name) for name in SHOWN_OPTIONS}
    return {"deck": dict(table.deck), "players": players, "cards": [card.to_json() for card in table.cards],
            "rules": rules, "board": _board(state)}
