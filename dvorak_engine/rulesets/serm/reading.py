"""Reading a S.E.R.M. table: who sees what, who may React, where a Move goes, whose move it is.

Pure functions of the table (and the game's options), used alike by the commands, the legal moves and the view.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dvorak_engine.rulesets.serm.cards import BLAST, MOVE_PROOF, TRAMPLES, points_cost
from dvorak_engine.rulesets.serm.geometry import Cell, blast_covers, neighbour
from dvorak_engine.rulesets.serm.options import ONE, PARTLY, chosen, home_rows, largest_force
from dvorak_engine.rulesets.serm.table import (
    MUSTER,
    REACT,
    PendingMove,
    SermState,
    Soldier,
    enemies_in_sight,
    sees,
)
from dvorak_engine.state import ACTIVE, GameState
from dvorak_engine.values import replace
from dvorak_engine.visibility import Seen

PLAYERS = 2

# Why a Move stops short of its roll.
EDGE, TERRAIN, SOLDIER = "edge", "terrain", "soldier"


def blast_targets(table: SermState, soldier: Soldier) -> list[Cell]:
    """The squares a soldier that "may target empty space" may aim at: every square in its line of sight."""
    return [(x, y) for y in range(table.height) for x in range(table.width) if sees(table, soldier, (x, y))]


def caught_in_blast(table: SermState, centre: Cell, radius: int, options: dict[str, Any]) -> list[Soldier]:
    """"Range of explosion is 2 cards radius - all partially covered must roll to Endure": every soldier, of
    either side, the blast covers."""
    partly = chosen(options, "blast") == PARTLY
    return [s for s in table.soldiers if blast_covers(centre, s.cell, radius, partly=partly)]


def can_shoot(table: SermState, soldier: Soldier) -> bool:
    """Whether the soldier has a Shoot to make now: dice to roll, and a target."""
    card = table.card(soldier.title)
    if card.shoot < 1:
        return False
    if card.has(BLAST):
        return bool(blast_targets(table, soldier))
    return bool(enemies_in_sight(table, soldier))


def reactors(table: SermState, pending: PendingMove, options: dict[str, Any]) -> list[Soldier]:
    """The enemy soldiers that may React to a Move: "one React attempt with one soldier that has line of sight to
    the Move", a soldier with React dice that sees a square of the path (the mover's own included: the Move is
    made in its sight, and a turn in place's only square) and has not tried already; with ``reacts: one``, nobody
    once one has tried."""
    mover = table.standing(pending.soldier)
    if pending.reacted and chosen(options, "reacts") == ONE:
        return []
    return [s for s in table.soldiers
            if s.seat != mover.seat and s.id not in pending.reacted and table.card(s.title).react >= 1
            and any(sees(table, s, cell) for cell in pending.path)]


def stop_square(table: SermState, pending: PendingMove, reactor: Soldier) -> int:
    """Where a successful React stops the mover with ``react_stop: entry``: the first square of its path the
    reactor sees (its start, if it began the Move in sight; a turn in place's only square)."""
    return next(i for i, cell in enumerate(pending.path) if sees(table, reactor, cell))


def acting_seats(state: GameState | Seen) -> list[int]:
    """The seats the game waits for now: from the state's public fields only, so a view asks it of the state as
    its viewer sees it."""
    table = state.table
    if state.status != ACTIVE or table is None:
        return []
    if table.phase == MUSTER:
        return [force.seat for force in table.forces if not force.ready]
    if table.phase == REACT:
        return [1 - table.activation.seat]
    return [table.activation.seat]


# --- tracing a Move ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Trace:
    """The next square of a Move, or why it stops: ``halted`` (``edge``, ``terrain``, ``soldier``) or the enemy it
    ``kills`` on the way."""

    cell: Cell | None
    halted: str | None = None
    kills: str | None = None


def trace_step(table: SermState, pending: PendingMove, mover: Soldier, direction: str) -> Trace:
    """One card length of a Move. "Movement will be halted before its end point if it connects with a soldier or
    terrain ... When an enemy soldier stops movement, that soldier is killed outright", unless it "Cannot be
    killed by a Move". "If a soldier would move out of bounds, halt them at the edge instead." A soldier whose
    killing "does not end" its movement goes on into the square, but "only one enemy soldier may be killed per
    move"."""
    here = pending.path[-1]
    there = neighbour(here, direction)
    if not table.on_field(there):
        return Trace(None, halted=EDGE)
    if table.is_terrain(there):
        return Trace(None, halted=TERRAIN)
    standing = table.soldier_at(there)
    if standing is None or standing.id in (mover.id, pending.kill):
        return Trace(there)
    killable = standing.seat != mover.seat and not table.card(standing.title).has(MOVE_PROOF) and not pending.kill
    if not killable:
        return Trace(None, halted=SOLDIER)
    if table.card(mover.title).has(TRAMPLES):
        return Trace(there, kills=standing.id)
    return Trace(None, halted=SOLDIER, kills=standing.id)


def traced(pending: PendingMove, direction: str, trace: Trace) -> PendingMove:
    """The Move with one more step traced."""
    headings = (*pending.headings, direction)
    if trace.kills is not None:
        # The index of the square entered over the enemy's body, or, for a kill that halts the Move, one past the
        # last square reached: a React that stops the mover before it gets there spares the enemy.
        pending = replace(pending, kill=trace.kills, kill_step=len(pending.path))
    if trace.cell is None:
        return replace(pending, headings=headings, halted=trace.halted)
    return replace(pending, headings=headings, path=(*pending.path, trace.cell), steps_left=pending.steps_left - 1)


def spent(table: SermState, seat: int) -> int:
    """What a force built with points has cost so far."""
    return sum(points_cost(table.card(title)) for title in table.force(seat).cards)


def affordable(state: GameState, seat: int) -> list[str]:
    """The soldier cards a seat can still pay for, while its force has room in its rows at its edge."""
    table = state.table
    budget = state.options["budget"]
    room = home_rows(largest_force(list(table.cards), budget), table.width) * table.width
    if len(table.force(seat).cards) >= room:
        return []
    return [card.title for card in table.cards if card.cost <= budget - spent(table, seat)]
