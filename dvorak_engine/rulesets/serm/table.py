"""The table of a S.E.R.M. game: the soldier cards, the field and its terrain, each soldier's square and facing,
who has the initiative, and a Move under way. Everything on it is in plain sight of both players and of anyone
watching: the game has no hidden information, so what a view shows is declared ``public``
(``dvorak_engine.visibility``); what only the server uses is left undeclared."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dvorak_engine.rulesets.serm.cards import ALL_ROUND, SoldierCard
from dvorak_engine.rulesets.serm.geometry import Cell, Rect, in_cone, sight_blocked
from dvorak_engine.values import replace
from dvorak_engine.visibility import derived, public

# The phases: players build their forces with points (``muster``, only in a game with a budget); the battle, in
# which the player with the initiative activates a soldier; a Move's React attempts (``react``); a steering
# soldier's Move being traced square by square (``steer``); the end.
MUSTER, BATTLE, REACT, STEER, FINISHED = "muster", "battle", "react", "steer", "finished"
PHASES = (MUSTER, BATTLE, REACT, STEER, FINISHED)


@dataclass(frozen=True)
class Soldier:
    """A soldier on the field: whose it is, which card it is, its square and its facing."""

    id: str = public()
    seat: int = public()
    title: str = public()
    x: int = public()
    y: int = public()
    facing: str = public()

    @property
    def cell(self) -> Cell:
        return self.x, self.y


@dataclass(frozen=True)
class Force:
    """A force being built with points: the soldier cards chosen so far, and whether the player is done."""

    seat: int = public()
    cards: tuple[str, ...] = public(())
    ready: bool = public(False)


@dataclass(frozen=True)
class Activation:
    """The initiative being played: the seat, the soldier it activates (None until it picks one) and whether that
    soldier has made its Move and its Shoot."""

    seat: int = public()
    soldier: str | None = public(None)
    moved: bool = public(False)
    shot: bool = public(False)


@dataclass(frozen=True)
class PendingMove:
    """A Move rolled and traced but not yet made: the enemy may still React to it.

    ``path`` is the squares the soldier would pass through, its own first; ``headings`` the direction of each
    step tried; ``halted`` why it would stop short (``edge``, ``terrain``, ``soldier``) or None; ``kill`` the
    enemy it would kill on the way and ``kill_step`` the index of the path's square from which (or into which)
    it does so. ``steps_left``: squares a steering soldier has still to trace. ``reacted``: the soldiers that
    already tried to React to this Move; ``reactors``: those that may still, while the enemy is asked. A turn in
    place the enemy may React to is such a Move too: its ``path`` the soldier's own square, no step tried, its
    ``facing`` the way it turns.
    """

    soldier: str = public()
    direction: str | None = public()
    facing: str | None = public()
    roll: dict[str, Any] = public()
    path: tuple[Cell, ...] = public()
    headings: tuple[str, ...] = ()
    halted: str | None = public(None)
    kill: str | None = public(None)
    kill_step: int = 0
    steps_left: int = public(0)
    reacted: tuple[str, ...] = public(())
    reactors: tuple[str, ...] = public(())

    @property
    def traced(self) -> bool:
        return self.halted is not None or self.steps_left == 0

    @property
    def in_place(self) -> bool:
        """A turn in place: a Move that tries no step ("Turning counts as the start and end of a Move")."""
        return not self.headings

    def heading_at(self, index: int) -> str | None:
        """The direction the soldier travels as it reaches the path's square ``index``."""
        if not self.headings:
            return None
        return self.headings[min(max(index - 1, 0), len(self.headings) - 1)]


@dataclass(frozen=True)
class SermState:
    deck: dict[str, Any] = public(default_factory=dict)
    cards: tuple[SoldierCard, ...] = public(())
    width: int = public(0)
    height: int = public(0)
    terrain: tuple[Rect, ...] = public(())
    phase: str | None = public(None)
    forces: tuple[Force, ...] = public(())
    soldiers: tuple[Soldier, ...] = public(())
    fallen: tuple[Soldier, ...] = public(())
    initiative: int | None = public(None)
    activation: Activation | None = public(None)
    pending: PendingMove | None = public(None)
    activations: int = 0

    def card(self, title: str) -> SoldierCard:
        return next(card for card in self.cards if card.title == title)

    def soldier(self, soldier_id: str | None) -> Soldier | None:
        return next((s for s in self.soldiers if s.id == soldier_id), None)

    def standing(self, soldier_id: str) -> Soldier:
        """The soldier ``soldier_id``, on the field: one that has fallen (or never was) is an error here."""
        soldier = self.soldier(soldier_id)
        if soldier is None:
            raise LookupError(f"no soldier {soldier_id!r} stands on the field")
        return soldier

    def current_activation(self) -> Activation:
        """The activation under way: there is one from the battle's first initiative on."""
        if self.activation is None:
            raise LookupError("no soldier is being activated")
        return self.activation

    def pending_move(self) -> PendingMove:
        """The Move being made, from its roll until it is made."""
        if self.pending is None:
            raise LookupError("no Move is being made")
        return self.pending

    def card_of(self, soldier_id: str) -> SoldierCard:
        return self.card(self.standing(soldier_id).title)

    def soldier_at(self, cell: Cell) -> Soldier | None:
        return next((s for s in self.soldiers if s.cell == cell), None)

    def on_field(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.width and 0 <= cell[1] < self.height

    def is_terrain(self, cell: Cell) -> bool:
        return any(rect.covers(cell) for rect in self.terrain)

    def force(self, seat: int) -> Force:
        return next(force for force in self.forces if force.seat == seat)

    def with_soldier(self, soldier: Soldier) -> SermState:
        return replace(self, soldiers=tuple(soldier if s.id == soldier.id else s for s in self.soldiers))

    def with_force(self, force: Force) -> SermState:
        return replace(self, forces=tuple(force if f.seat == force.seat else f for f in self.forces))

    def seats_with_soldiers(self) -> list[int]:
        return sorted({s.seat for s in self.soldiers})

    @derived
    def in_sight(self, soldier_id: str) -> list[str]:
        """The ids of the enemy soldiers in the line of sight of the soldier ``soldier_id``: seen by everyone, as
        the whole table is."""
        return [enemy.id for enemy in enemies_in_sight(self, self.standing(soldier_id))]


# --- Line of sight (the table's own measure; ``reading`` builds on it) ---------------------------------------


def sees(table: SermState, soldier: Soldier, cell: Cell) -> bool:
    """Whether ``soldier`` has line of sight to the square ``cell``: inside its sight lines (all round for a
    soldier with a 360 degree line of sight), and no terrain between. "Soldiers do not block line of sight"."""
    if cell == soldier.cell or not table.on_field(cell) or table.is_terrain(cell):
        return False
    offset = (cell[0] - soldier.x, cell[1] - soldier.y)
    if not table.card(soldier.title).has(ALL_ROUND) and not in_cone(soldier.facing, offset):
        return False
    return not sight_blocked(soldier.cell, cell, table.terrain)


def enemies_in_sight(table: SermState, soldier: Soldier) -> list[Soldier]:
    return [s for s in table.soldiers if s.seat != soldier.seat and sees(table, soldier, s.cell)]
