"""The options of a Filibuster game: the points of the procedure the set leaves open and players might settle
differently (docs/filibuster.md, "Readings and options").

``read_options`` checks what the game's creator sent and writes every option into the game's options, defaults
filled in: the game keeps them, so it is played to its end, and replayed, under the options it was created with.
A game created before an option existed has none written, and keeps the reading it was played by then
(``filibusters_of``, ``dice_of``).
"""

from __future__ import annotations

from typing import Any

from dvorak_core.errors import DomainError

# How many filibusters a step's beginning allows: "each" non-pitcher may filibuster the pitcher once, whoever
# pitches by then; "one": the first filibuster closes the window.
EACH, ONE = "each", "one"
FILIBUSTERS = (EACH, ONE)
DEFAULT_FILIBUSTERS = EACH
# A game created before the option was written plays one filibuster a step.
UNSTAMPED_FILIBUSTERS = ONE
# "All players roll their dice": how many six-sided dice each.
DEFAULT_DICE, MIN_DICE, MAX_DICE = 2, 1, 6
SIDES = 6
# The options the game keeps and its view shows (``rules``), in this order.
SHOWN = ("filibusters", "dice")


def _invalid(message: str, field: str, **details: Any) -> DomainError:
    return DomainError(message, code="invalid", details={"field": field, **details})


def read_options(options: dict[str, Any]) -> dict[str, Any]:
    """The game's options, checked, each of this module's written with its default when not given. A player
    deck never stays in them: everyone sees a game's options, and its cards come with each join."""
    filibusters = options.get("filibusters", DEFAULT_FILIBUSTERS)
    if filibusters not in FILIBUSTERS:
        raise _invalid(f"\"options.filibusters\" is one of: {', '.join(FILIBUSTERS)}.", "options.filibusters",
                       choices=list(FILIBUSTERS))
    dice = options.get("dice", DEFAULT_DICE)
    if isinstance(dice, bool) or not isinstance(dice, int) or not MIN_DICE <= dice <= MAX_DICE:
        raise _invalid(f"\"options.dice\" is how many dice each player rolls, {MIN_DICE} to {MAX_DICE}.",
                       "options.dice")
    kept = {key: value for key, value in options.items() if key not in ("player_deck", *SHOWN)}
    return {**kept, "filibusters": filibusters, "dice": dice}


def stamped(options: dict[str, Any]) -> bool:
    """Whether the game was created with its options written (every game since they exist)."""
    return "filibusters" in options


def filibusters_of(options: dict[str, Any]) -> str:
    result: str = options.get("filibusters", UNSTAMPED_FILIBUSTERS)
    return result


def dice_of(options: dict[str, Any]) -> int:
    result: int = options.get("dice", DEFAULT_DICE)
    return result


def rules_shown(options: dict[str, Any]) -> dict[str, Any]:
    return {name: options[name] for name in SHOWN}
