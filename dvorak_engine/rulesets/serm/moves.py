"""The legal moves of S.E.R.M.: every command a seat may send now, complete, its choices as ``{"choose", "from",
"list"}`` fields. Every combination of the choices a move lists is accepted."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from dvorak_engine.ruleset import choose
from dvorak_engine.rulesets.serm.cards import BLAST, ONE_ACTION, STEERS, VOLLEY
from dvorak_engine.rulesets.serm.geometry import COMPASS, cell_name
from dvorak_engine.rulesets.serm.options import REACTOR_CHOOSES, chosen
from dvorak_engine.rulesets.serm.reading import acting_seats, affordable, blast_targets
from dvorak_engine.rulesets.serm.table import BATTLE, MUSTER, REACT, STEER, Soldier, enemies_in_sight
from dvorak_engine.state import GameState


def _one(values: Iterable[Any]) -> dict[str, Any]:
    return choose(1, values, as_list=False)


def legal_moves(state: GameState, seat: int) -> list[dict[str, Any]]:
    if seat not in acting_seats(state):
        return []
    table = state.table
    if table.phase == MUSTER:
        moves: list[dict[str, Any]] = []
        titles = affordable(state, seat)
        if titles:
            moves.append({"type": "recruit", "card": _one(titles)})
        if table.force(seat).cards:
            moves.append({"type": "ready"})
        return moves
    if table.phase == STEER:
        return [{"type": "step", "direction": _one(COMPASS)}]
    if table.phase == REACT:
        react: dict[str, Any] = {"type": "react", "soldier": _one(table.pending.reactors)}
        if chosen(state.options, "react_stop") == REACTOR_CHOOSES:
            react["stop"] = _one(dict.fromkeys(cell_name(c) for c in table.pending.path))
        return [react, {"type": "pass"}]
    if table.phase != BATTLE:
        return []
    activation = table.activation
    if activation.soldier is None:
        soldiers = [s for s in table.soldiers if s.seat == seat]
    else:
        soldiers = [table.soldier(activation.soldier)]
    moves = []
    for soldier in soldiers:
        moves += _moves_of(state, soldier)
    if activation.moved or activation.shot:
        moves.append({"type": "pass"})
    return moves


def _moves_of(state: GameState, soldier: Soldier) -> list[dict[str, Any]]:
    """What the activated soldier (or each soldier, before one is chosen) may do: its Move (``advance``, or a
    ``turn`` in place) if it has not moved, its Shoot if it has not shot; one of them only for a soldier that
    cannot do both."""
    table = state.table
    activation = table.activation
    card = table.card(soldier.title)
    one_only = card.has(ONE_ACTION) and (activation.moved or activation.shot)
    moves: list[dict[str, Any]] = []
    if not activation.moved and not one_only:
        if card.move >= 1:
            advance: dict[str, Any] = {"type": "advance", "soldier": soldier.id}
            if not card.has(STEERS):
                advance["direction"] = _one(COMPASS)
            advance["facing"] = _one(COMPASS)
            moves.append(advance)
        moves.append({"type": "turn", "soldier": soldier.id,
                      "facing": _one(d for d in COMPASS if d != soldier.facing)})
    if not activation.shot and not one_only and card.shoot >= 1:
        if card.has(BLAST):
            cells = blast_targets(table, soldier)
            if cells:
                moves.append({"type": "shoot", "soldier": soldier.id, "at": _one(cell_name(c) for c in cells)})
        else:
            enemies = enemies_in_sight(table, soldier)
            if enemies and card.has(VOLLEY):
                moves.append({"type": "shoot", "soldier": soldier.id})
            elif enemies:
                moves.append({"type": "shoot", "soldier": soldier.id, "target": _one(e.id for e in enemies)})
    return moves
