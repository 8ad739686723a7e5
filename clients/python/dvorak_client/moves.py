"""Turning a listed move into a command: the one thing a client needs to know of ``/moves/`` to play any ruleset."""

from __future__ import annotations

import random
from typing import Any

__all__ = ["fill", "is_choice"]


def is_choice(value: Any) -> bool:
    """A field left for you to choose: ``{"choose": k, "from": [...], "list": true|false}``."""
    return isinstance(value, dict) and set(value) == {"choose", "from", "list"}


def fill(move: dict[str, Any], rng: random.Random | None = None) -> dict[str, Any]:
    """A listed move with each of its choices made at random: ``k`` different values of ``from``, sent as a list
    when ``list`` is true, else the one value itself. Any move filled so, sent while the game is still at the
    version ``/moves/`` gave, is accepted."""
    chooser = rng or random.Random()

    def made(value: Any) -> Any:
        if is_choice(value):
            picked = chooser.sample(value["from"], value["choose"])
            return picked if value["list"] else picked[0]
        if isinstance(value, dict):
            return {key: made(item) for key, item in value.items()}
        if isinstance(value, list):
            return [made(item) for item in value]
        return value

    return {key: made(value) for key, value in move.items()}
