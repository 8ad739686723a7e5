"""The table of S.E.R.M. measured in card lengths: squares, facings, line of sight, paths and the blast.

The field is ``width`` by ``height`` squares, each one card length on a side; a soldier's card fills one square,
named by its column and row (``x`` from 0 at the west edge, ``y`` from 0 at the south edge, where seat 0 stands).
A soldier faces one of the eight compass directions. All of it is integer arithmetic, and the one slanted line
(sight past terrain) is clipped with exact fractions, so a replay measures exactly what the game measured.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from dvorak_engine.visibility import public

# The eight compass directions, north first, clockwise; north is towards seat 1's edge (y grows).
DIRECTIONS: dict[str, tuple[int, int]] = {
    "N": (0, 1), "NE": (1, 1), "E": (1, 0), "SE": (1, -1),
    "S": (0, -1), "SW": (-1, -1), "W": (-1, 0), "NW": (-1, 1),
}
COMPASS = tuple(DIRECTIONS)

Cell = tuple[int, int]


def cell_name(cell: Cell) -> str:
    """A square as clients name it: ``"x,y"``."""
    return f"{cell[0]},{cell[1]}"


def parse_cell(name: object) -> Cell | None:
    """The square ``"x,y"`` names, or None for anything else (each of ``x`` and ``y`` a whole number, one ``-`` at
    most before it)."""
    if not isinstance(name, str):
        return None
    parts = name.split(",")
    if len(parts) != 2 or not all(part.strip().removeprefix("-").isdecimal() for part in parts):
        return None
    return int(parts[0]), int(parts[1])


@dataclass(frozen=True)
class Rect:
    """A piece of terrain: a rectangle of whole squares, its south-west square at ``x``, ``y``."""

    x: int = public()
    y: int = public()
    width: int = public()
    height: int = public()

    def covers(self, cell: Cell) -> bool:
        return self.x <= cell[0] < self.x + self.width and self.y <= cell[1] < self.y + self.height


def in_cone(facing: str, offset: Cell) -> bool:
    """Whether a card facing ``facing`` sees the square at ``offset`` from its own: "A soldiers' line of sight
    extends out diagonally from the top corners of their card".

    Facing a side of the field (N, E, S, W), the two lines leave the card's top corners at 45 degrees, so the
    squares seen are those ahead of the card no further to either side than they are ahead (``|side| <= ahead``,
    ``ahead >= 1``): any part of such a square lies between the lines. Facing a corner (NE, SE, SW, NW), the card
    stands turned by 45 degrees in its square and its lines run along the two sides of the field it faces, so it
    sees the quarter of the field between them (both squares beside it on those sides included).
    """
    if offset == (0, 0):
        return False
    dx, dy = DIRECTIONS[facing]
    a, b = offset
    if dx == 0 or dy == 0:
        ahead = a * dx + b * dy
        side = b * dx - a * dy
        return ahead >= 1 and abs(side) <= ahead
    return a * dx >= 0 and b * dy >= 0


def sight_blocked(start: Cell, end: Cell, terrain: tuple[Rect, ...]) -> bool:
    """Whether terrain stands between two squares: the straight line between their centres passes through the
    inside of a piece of terrain (grazing its edge or corner does not block)."""
    # Doubled coordinates: centres at odd numbers, terrain edges at even ones.
    sx, sy = 2 * start[0] + 1, 2 * start[1] + 1
    ex, ey = 2 * end[0] + 1, 2 * end[1] + 1
    for rect in terrain:
        if _crosses_inside(sx, sy, ex - sx, ey - sy, 2 * rect.x, 2 * (rect.x + rect.width),
                           2 * rect.y, 2 * (rect.y + rect.height)):
            return True
    return False


def _crosses_inside(px: int, py: int, dx: int, dy: int, x0: int, x1: int, y0: int, y1: int) -> bool:
    """Whether the segment ``p + t·d`` (0 <= t <= 1) meets the open rectangle ``(x0, x1) × (y0, y1)``."""
    low, high = Fraction(0), Fraction(1)
    for p, d, lo, hi in ((px, dx, x0, x1), (py, dy, y0, y1)):
        if d == 0:
            if not lo < p < hi:
                return False
            continue
        t_a, t_b = Fraction(lo - p, d), Fraction(hi - p, d)
        low, high = max(low, min(t_a, t_b)), min(high, max(t_a, t_b))
    return low < high


def blast_covers(centre: Cell, cell: Cell, radius: int, *, partly: bool) -> bool:
    """Whether a blast of ``radius`` card lengths around the centre of the square ``centre`` covers the card in
    ``cell``: with ``partly``, when any part of its square lies strictly inside the circle; else when the centre
    of its square lies within the radius."""
    a, b = abs(cell[0] - centre[0]), abs(cell[1] - centre[1])
    if not partly:
        return a * a + b * b <= radius * radius
    # The nearest point of the square to the blast's centre, in half card lengths.
    near_x, near_y = max(0, 2 * a - 1), max(0, 2 * b - 1)
    return near_x * near_x + near_y * near_y < (2 * radius) ** 2


def neighbour(cell: Cell, direction: str) -> Cell:
    """The square one card length from ``cell`` in ``direction``."""
    dx, dy = DIRECTIONS[direction]
    return cell[0] + dx, cell[1] + dy
