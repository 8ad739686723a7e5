"""What a viewer sees of a S.E.R.M. game: everything. The skirmish has no hidden information, so every seat and
every spectator sees the same table: each soldier's square and facing, what it can see, the Move under way, the
dice of every roll (in the events).

The view is made from the state as its viewer may see it (``visibility.Seen``): the table's fields are declared
``public`` (``table``), and what a soldier sees is the table's ``in_sight``, a ``derived`` reading of it."""

from __future__ import annotations

from typing import Any

from dvorak_engine import visibility
from dvorak_engine.rulesets.serm.cards import card_json
from dvorak_engine.rulesets.serm.geometry import cell_name
from dvorak_engine.rulesets.serm.reading import acting_seats
from dvorak_engine.visibility import Seen

# The options a client needs to read the table, shown under "rules". ``react_turn`` is shown where the game's
# options name it: a game created before every game's options did shows its rules as it always did.
SHOWN_OPTIONS = ("budget", "react_stop", "reacts", "blast")
SHOWN_WHEN_WRITTEN = ("react_turn",)


def _pending(pending: Seen | None, viewer: int | None) -> dict[str, Any] | None:
    if pending is None:
        return None
    return {"soldier": pending.soldier, "direction": pending.direction, "facing": pending.facing,
            "roll": visibility.state_view(pending.roll, viewer), "path": [cell_name(c) for c in pending.path],
            "steps_left": pending.steps_left, "halted": pending.halted, "kill": pending.kill,
            "reacted": list(pending.reacted), "reactors": list(pending.reactors)}


def _spent(table: Seen, cards: tuple[str, ...]) -> int:
    """What a force built with points has cost so far (``reading.spent``, from the cards as seen)."""
    cost: dict[str, int] = {}
    for card in table.cards:
        cost.setdefault(card.title, card.cost)
    return sum(cost[title] for title in cards)


def _board(state: Seen, viewer: int | None) -> dict[str, Any] | None:
    table = state.table
    if table.phase is None:
        return None
    activation = table.activation
    return {
        "phase": table.phase,
        "field": {"width": table.width, "height": table.height},
        "terrain": [{"x": r.x, "y": r.y, "width": r.width, "height": r.height} for r in table.terrain],
        "soldiers": [{"id": s.id, "seat": s.seat, "title": s.title, "x": s.x, "y": s.y, "facing": s.facing,
                      "in_sight": list(table.in_sight(s.id))} for s in table.soldiers],
        "fallen": [{"id": s.id, "seat": s.seat, "title": s.title} for s in table.fallen],
        "forces": [{"seat": f.seat, "cards": list(f.cards), "ready": f.ready,
                    "spent": _spent(table, f.cards)} for f in table.forces],
        "initiative": table.initiative,
        "activation": None if activation is None else {"seat": activation.seat, "soldier": activation.soldier,
                                                        "moved": activation.moved, "shot": activation.shot},
        "move": _pending(table.pending, viewer),
        "waiting_for": acting_seats(state),
    }


def view(state: Seen, viewer: int | None) -> dict[str, Any]:
    """The envelope's players (each one's soldiers standing as the counter ``soldiers``), the deck, its soldier
    cards, the rules the game is played with, and the ``board`` (null until the game starts): from the state as
    ``viewer`` may see it (``visibility.seen``)."""
    table = state.table
    standing = {seat: sum(1 for s in table.soldiers if s.seat == seat) for seat in range(len(state.seats))}
    players = [{"seat": s.seat, "username": s.username, "team": s.team, "status": s.status,
                "counters": {"soldiers": standing.get(s.seat, 0)}} for s in state.seats]
    rules = {name: state.options.get(name) for name in SHOWN_OPTIONS}
    rules.update((name, state.options[name]) for name in SHOWN_WHEN_WRITTEN if name in state.options)
    return {"deck": dict(table.deck), "players": players, "cards": [card_json(card) for card in table.cards],
            "rules": rules, "board": _board(state, viewer)}
