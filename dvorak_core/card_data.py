"""What a ruleset needs its cards to carry, as plain values the archive and the engine share.

A ruleset that plays cards by their numbers (a Filibuster card's value, a Knight's strength) lists what a deck's
cards lack or carry wrongly as problems (``card_problem``). The engine refuses a game while any is left; the
archive refuses a card whose value cannot be right. The archive asks through ``problems_for``: the games app
installs the finder (``install_finder``) when Django starts, so the archive needs no import of the games app.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

MISSING, INVALID = "missing", "invalid"

Finder = Callable[[str, dict], list[dict[str, Any]]]
_finder: Finder | None = None


def card_problem(index: int, card: dict, field: str, problem: str, message: str) -> dict[str, Any]:
    """One thing a card lacks (``MISSING``) or carries wrongly (``INVALID``) for a ruleset: the card by its
    position in the deck's list and its title, the field (``type``, ``corner_value``, ``stats.<name>``)."""
    return {"card": index, "title": str(card.get("title", "")), "field": field, "problem": problem,
            "message": message}


def cards_named(problems: list[dict[str, Any]]) -> str:
    """The cards a list of problems is about, for a message: a few titles, then "and others"."""
    titles = list(dict.fromkeys(problem["title"] for problem in problems if problem["title"]))
    return ", ".join(repr(title) for title in titles[:5]) + (" and others" if len(titles) > 5 else "")


def install_finder(finder: Finder) -> None:
    """Name the function that lists a deck's problems for a ruleset by name (``[]`` for a ruleset it lacks)."""
    global _finder
    _finder = finder


def problems_for(ruleset: str, deck: dict) -> list[dict[str, Any]]:
    """What the named ruleset finds wrong with the deck's cards; nothing before a finder is installed."""
    return _finder(ruleset, deck) if _finder is not None else []
