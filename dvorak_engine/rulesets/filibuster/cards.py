"""What a Filibuster card must carry, and how the engine reads it.

"There are 3 types of card in Filibuster": a card's ``type`` is ``Campaign``, ``Gambit`` or ``Constant``. "At the
top right-hand corner of every card is a box with a number in it. That number is that card's value": its
``corner_value``, a whole number. Its effect is its ``text``; where the effect is simple, the card may also carry
it in ``stats``, and the engine applies it:

- ``points``: its player gains that many points (a negative number: loses them);
- ``target_points``: the player it is played on (the play's ``target``) gains or loses that many points;
- ``draw``: its player draws that many cards (1 to ``MAX_DRAW``);
- ``destroy_constant``: 1, it destroys a Constant in play (named by the play's ``destroy``).

A Campaign and a Constant take effect when played; a Gambit when it resolves (never when it fizzles). Any other
effect is carried out by the players with effect moves that name the card. Other ``stats`` are kept and not read.

A card the archive holds without a type yet shows the archive's placeholder, ``Thing``: a curator entering the
cards card by card has simply not typed it, so it is *missing*, as is an empty ``corner_value``. A type outside
the three, a value that is not a whole number or an effect stat out of its range cannot be right: *invalid*.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from dvorak_engine.cards import Card
from dvorak_engine.ruleset import INVALID, MISSING, card_problem

CAMPAIGN, GAMBIT, CONSTANT = "Campaign", "Gambit", "Constant"
TYPES = (CAMPAIGN, GAMBIT, CONSTANT)
# What the archive shows for a card nobody has typed yet (a wiki or MUSHcode listing's Things and Actions).
UNTYPED = ("", "Thing", "Action")
MAX_DRAW = 10
MAX_POINTS = 200
WHOLE_NUMBER = re.compile(r"[+-]?\d{1,6}")

POINTS, TARGET_POINTS, DRAW, DESTROY_CONSTANT = "points", "target_points", "draw", "destroy_constant"
EFFECT_STATS = (POINTS, TARGET_POINTS, DRAW, DESTROY_CONSTANT)


def read_value(corner_value: Any) -> int | None:
    """A card's value from its corner (``"7"``, ``" 12 "``), or None when it is not a whole number."""
    text = str(corner_value if corner_value is not None else "").strip()
    return int(text) if WHOLE_NUMBER.fullmatch(text) else None


def _stat_problem(name: str, value: Any) -> str | None:
    """Why an effect stat cannot be right, or None."""
    if isinstance(value, bool) or not isinstance(value, int):
        return f"\"{name}\" is a whole number."
    if name in (POINTS, TARGET_POINTS) and not -MAX_POINTS <= value <= MAX_POINTS:
        return f"\"{name}\" is between -{MAX_POINTS} and {MAX_POINTS}."
    if name == DRAW and not 1 <= value <= MAX_DRAW:
        return f"\"draw\" is how many cards its player draws, 1 to {MAX_DRAW}."
    if name == DESTROY_CONSTANT and value != 1:
        return "\"destroy_constant\" is 1: the card destroys one Constant in play."
    return None


def card_problems(deck: dict[str, Any]) -> list[dict[str, Any]]:
    """Every card's type, value and effect stats, as Filibuster needs them (see the module's docstring)."""
    problems: list[dict[str, Any]] = []
    for index, card in enumerate(deck.get("cards", [])):
        if not isinstance(card, dict):
            continue
        kind = str(card.get("type") or "")
        if kind in UNTYPED:
            problems.append(card_problem(index, card, "type", MISSING,
                                         "A Filibuster card is a Campaign, a Gambit or a Constant."))
        elif kind not in TYPES:
            problems.append(card_problem(index, card, "type", INVALID,
                                         f"A Filibuster card is a Campaign, a Gambit or a Constant, not {kind!r}."))
        corner = str(card.get("corner_value") or "").strip()
        if not corner:
            problems.append(card_problem(index, card, "corner_value", MISSING,
                                         "The card's value, the number in its top right-hand corner."))
        elif read_value(corner) is None:
            problems.append(card_problem(index, card, "corner_value", INVALID,
                                         f"A card's value is a whole number, not {corner!r}."))
        stats = card.get("stats") or {}
        for name in EFFECT_STATS:
            if name in stats and (why := _stat_problem(name, stats[name])) is not None:
                problems.append(card_problem(index, card, f"stats.{name}", INVALID, why))
    if not problems and not any(isinstance(card, dict) for card in deck.get("cards", [])):
        problems.append({"card": None, "title": "", "field": "cards", "problem": MISSING,
                         "message": "The set has no cards yet: a curator enters them in the archive."})
    return problems


@dataclass(frozen=True)
class Effect:
    """The simple effect a card carries in ``stats``, which the engine applies itself."""

    points: int = 0
    target_points: int = 0
    draw: int = 0
    destroy_constant: bool = False

    @property
    def needs_target(self) -> bool:
        return self.target_points != 0


def carried_out_by_players(card: Card) -> bool:
    """A card whose text is its whole effect (no effect in ``stats``): its player carries it out with effect
    moves."""
    return bool(card.text.strip()) and not any(name in card.stats for name in EFFECT_STATS)


def value_of(card: Card) -> int:
    """The card's value (the game was created only once every card had one)."""
    value = read_value(card.corner_value)
    return 0 if value is None else value


def effect_of(card: Card) -> Effect:
    stats = card.stats
    return Effect(points=int(stats.get(POINTS, 0)), target_points=int(stats.get(TARGET_POINTS, 0)),
                  draw=int(stats.get(DRAW, 0)), destroy_constant=stats.get(DESTROY_CONSTANT) == 1)
