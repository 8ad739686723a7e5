"""The options of a S.E.R.M. game: the measures players might disagree on, the field, the forces.

``read_options`` checks what the game's creator sent and fills in the defaults; the game keeps the result, so a
game is replayed under the options it was created with, whatever the defaults are later. docs/serm.md, "Options",
explains each.
"""

from __future__ import annotations

from typing import Any

from dvorak_core.errors import DomainError
from dvorak_engine.rulesets.serm.cards import SoldierCard, points_cost

# The game options and their defaults (docs/serm.md, "Options").
DEFAULT_WIDTH = DEFAULT_HEIGHT = 12
MIN_SIDE, MAX_SIDE = 4, 40
MAX_BUDGET = 200
ENTRY, REACTOR_CHOOSES = "entry", "reactor_chooses"
ONE, EACH = "one", "each"
PARTLY, CENTRE = "partly", "centre"
TURNED, UNTURNED, NEVER = "turned", "unturned", "never"
CHOICES = {"react_stop": (REACTOR_CHOOSES, ENTRY), "reacts": (ONE, EACH), "blast": (PARTLY, CENTRE),
           "react_turn": (TURNED, UNTURNED, NEVER)}
DEFAULTS: dict[str, Any] = {"budget": None, "width": DEFAULT_WIDTH, "height": DEFAULT_HEIGHT, "terrain": [],
            "react_stop": REACTOR_CHOOSES, "reacts": ONE, "blast": PARTLY, "react_turn": TURNED}
# What a game whose options do not name a choice plays by: the defaults of the games created before the choice was
# written into every new game's options (a successful React stopped the mover where its path entered the
# reactor's sight; a turn in place was never Reacted to).
UNWRITTEN = {"react_stop": ENTRY, "reacts": ONE, "blast": PARTLY, "react_turn": NEVER}


def invalid(message: str, field: str) -> DomainError:
    return DomainError(message, code="invalid", details={"field": field})


def _whole(options: dict[str, Any], name: str, low: int, high: int) -> int:
    value = options.get(name, DEFAULTS[name])
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise invalid(f"\"options.{name}\" must be a whole number from {low} to {high}.", f"options.{name}")
    return value


def chosen(options: dict[str, Any], name: str) -> str:
    """The game's choice ``name`` (one of ``CHOICES``): as its options have it, else as games played before it was
    written into them."""
    result: str = options.get(name, UNWRITTEN[name])
    return result


def largest_force(cards: list[SoldierCard], budget: int | None) -> int:
    if budget is None:
        return len(cards)
    cheapest = min(max(points_cost(card), 1) for card in cards)
    return budget // cheapest


def read_options(options: dict[str, Any], cards: list[SoldierCard]) -> dict[str, Any]:
    """The game's options, checked, with the defaults filled in (the options the game keeps)."""
    read = {key: value for key, value in options.items() if key not in DEFAULTS}
    for name, allowed in CHOICES.items():
        value = options.get(name, DEFAULTS[name])
        if value not in allowed:
            raise invalid(f"\"options.{name}\" is one of: {', '.join(allowed)}.", f"options.{name}")
        read[name] = value
    read["width"] = _whole(options, "width", MIN_SIDE, MAX_SIDE)
    read["height"] = _whole(options, "height", MIN_SIDE, MAX_SIDE)
    budget = options.get("budget")
    if budget is not None:
        budget = _whole(options, "budget", 1, MAX_BUDGET)
        costless = sorted(card.title for card in cards if card.cost is None)
        if costless:
            raise DomainError("A force built with points needs every soldier's corner value.", code="denied",
                              details={"cards": costless})
        if budget < min(points_cost(card) for card in cards):
            raise invalid("The budget buys no soldier at all.", "options.budget")
    read["budget"] = budget
    rows = home_rows(largest_force(cards, budget), read["width"])
    if 2 * rows >= read["height"]:
        raise invalid("The field is too small for the forces: each side stands in its own rows at its edge, with "
                       "a row between them.", "options.height")
    read["terrain"] = _read_terrain(options.get("terrain", []), read["width"], read["height"], rows)
    return read


def home_rows(force_size: int, width: int) -> int:
    """The rows at its own edge a force of this size stands in at the start."""
    return max(1, -(-force_size // width))


def _read_terrain(terrain: Any, width: int, height: int, rows: int) -> list[dict[str, int]]:
    """Rectangles of whole squares, inside the field and clear of the rows the forces start in."""
    if not isinstance(terrain, list) or len(terrain) > width * height:
        raise invalid("\"options.terrain\" is a list of rectangles {\"x\", \"y\", \"width\", \"height\"}.",
                       "options.terrain")
    read = []
    for rect in terrain:
        if not isinstance(rect, dict) or set(rect) != {"x", "y", "width", "height"} or any(
                isinstance(v, bool) or not isinstance(v, int) for v in rect.values()):
            raise invalid("A piece of terrain is {\"x\", \"y\", \"width\", \"height\"}, whole numbers of card "
                           "lengths.", "options.terrain")
        inside = (0 <= rect["x"] and rect["width"] >= 1 and rect["x"] + rect["width"] <= width
                  and rows <= rect["y"] and rect["height"] >= 1 and rect["y"] + rect["height"] <= height - rows)
        if not inside:
            raise invalid(f"Terrain lies inside the field and clear of the rows the forces start in (rows {rows} "
                           f"to {height - rows - 1} are free).", "options.terrain")
        read.append(dict(rect))
    return read
