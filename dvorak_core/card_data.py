"""What a ruleset needs its cards to carry, as plain values the archive and the engine share.

A ruleset that plays cards by their numbers (a Filibuster card's value, a Knight's strength) lists what a deck's
cards lack or carry wrongly as problems (``card_problem``). The engine refuses a game while any is left; the
archive refuses a card whose value cannot be right, asking the engine's registry
(``dvorak_engine.rulesets.card_problems``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

MISSING, INVALID = "missing", "invalid"


def card_problem(index: int | None, card: Mapping[str, Any], field: str, problem: str, message: str) -> dict[str, Any]:
    """One thing a card lacks (``MISSING``) or carries wrongly (``INVALID``) for a ruleset: the card by its
    position in the deck's list and its title, the field (``type``, ``corner_value``, ``stats.<name>``)."""
    return {"card": index, "title": str(card.get("title", "")), "field": field, "problem": problem,
            "message": message}


def cards_named(problems: list[dict[str, Any]]) -> str:
    """The cards a list of problems is about, for a message: a few titles, then "and others"."""
    titles = list(dict.fromkeys(problem["title"] for problem in problems if problem["title"]))
    return ", ".join(repr(title) for title in titles[:5]) + (" and others" if len(titles) > 5 else "")
