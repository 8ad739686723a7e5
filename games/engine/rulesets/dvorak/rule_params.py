"""The rule parameters of the Basic Rules, each with its type and bounds, checked wherever a value comes in: a
game's options, ``set_rule`` and a Special Rule's ``params``. A value that breaks them is refused there (400
``invalid``), so it is never found later by the command that reads it (an ``end_turn`` that cannot compare a hand
with ``"abc"``), and no player can make a draw deal out a million cards under the game's lock.

A parameter the Basic Rules do not have (a permission a card invents) is kept as the card gives it.
"""

from __future__ import annotations

from typing import Any

from dvorak_core import vote_rules
from dvorak_core.errors import DomainError

# Whole numbers: (least, most). The most is far beyond any deck's needs and keeps one command's work small.
NUMBERS: dict[str, tuple[int, int]] = {
    "hand_limit": (0, 100),
    "starting_hand": (0, 50),
    "draws_per_turn": (0, 20),
    "things_per_turn": (0, 20),
    "actions_per_turn": (0, 20),
}
COUNTER_BOUND = 1_000_000


def checked_rule_value(param: str, value: Any, *, field: str) -> Any:
    """``value`` for ``param`` as the game keeps it, or a DomainError naming ``field``."""
    if param in NUMBERS:
        least, most = NUMBERS[param]
        if value is None:  # no limit at all (a Special Rule may lift the hand limit)
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
            raise DomainError(f"{param} is a whole number from {least} to {most}, or null.", code="invalid",
                              details={"field": field, "minimum": least, "maximum": most})
        return value
    if param == "vote_rule":
        try:
            return vote_rules.parse_vote_rule(value).to_json()
        except vote_rules.InvalidVoteRule as bad:
            raise DomainError(str(bad), code="invalid", details={"field": field}) from None
    if param == "counters":
        if not isinstance(value, dict) or not all(
                isinstance(name, str) and isinstance(start, int) and not isinstance(start, bool)
                and -COUNTER_BOUND <= start <= COUNTER_BOUND for name, start in value.items()):
            raise DomainError(f"counters maps names to whole numbers from {-COUNTER_BOUND} to {COUNTER_BOUND}.",
                              code="invalid", details={"field": field})
        return dict(value)
    return value
