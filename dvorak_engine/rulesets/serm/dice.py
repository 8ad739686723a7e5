"""The dice of S.E.R.M.: "Roll 1D6 for each number allocated in the stat ... Whenever a six is rolled, re-roll the
dice adding all results towards a total score."

A roll is written into its event as ``{"dice": [[6, 6, 2], [3]], "total": 17}``: one list per die, each six
followed by its re-roll, so anyone reading the game can add it up again.
"""

from __future__ import annotations

from typing import Any

from dvorak_engine.rng import Rng

SIDES = 6


def roll(count: int, rng: Rng) -> dict[str, Any]:
    """``count`` exploding six-sided dice (none for a stat of 0, whose total is 0)."""
    dice: list[list[int]] = []
    for _ in range(count):
        faces = [rng.randbelow(SIDES) + 1]
        while faces[-1] == SIDES:
            faces.append(rng.randbelow(SIDES) + 1)
        dice.append(faces)
    return {"dice": dice, "total": sum(sum(faces) for faces in dice)}
