"""The rule parameters of Dvorak's Basic Rules: each one's type and bounds, and the words by which a card's text
speaks of it.

Values are checked wherever they come in: a game's options, ``set_rule``, a Special Rule's ``params`` (proposed
in a game, in the deck a game is created from, or in a deck imported into the archive). A value that breaks them
is refused there (400 ``invalid``), so it is never found later by the command that reads it (an ``end_turn`` that
cannot compare a hand with ``"abc"``), and no player can make a draw deal out a million cards under the game's
lock. A parameter the Basic Rules do not have (a permission a card invents) is kept as the card gives it.

The words (``KEYWORDS``) decide which cards may be cited to change a parameter with ``set_rule``: a card "could
change" ``hand_limit`` when its text speaks of a hand. It is a plain test of the text, which every player can
check for themselves: a word is found at the start of a word of the text, in any case ("Actions" has "action").
A parameter the Basic Rules do not have is spoken of by its own name: a text must hold each of its words
(``take_from_discard``: "take", "from" and "discard"; a plural word also in the singular).

This module sits below the archive and the engine, which both check Special Rules' parameters with it.
"""

from __future__ import annotations

import re
from typing import Any

from dvorak_core import vote_rules
from dvorak_core.errors import DomainError

PARAM_NAME = re.compile(r"^[a-z][a-z0-9_]{0,63}$")

# Whole numbers: (least, most). The most is far beyond any deck's needs and keeps one command's work small.
NUMBERS: dict[str, tuple[int, int]] = {
    "hand_limit": (0, 100),
    "starting_hand": (0, 50),
    "draws_per_turn": (0, 20),
    "things_per_turn": (0, 20),
    "actions_per_turn": (0, 20),
}
COUNTER_BOUND = 1_000_000

# What a card's text says when it could change a parameter: any one of these, at the start of a word.
KEYWORDS: dict[str, tuple[str, ...]] = {
    "hand_limit": ("hand",),
    "starting_hand": ("hand", "deal"),
    "draws_per_turn": ("draw",),
    "things_per_turn": ("thing",),
    "actions_per_turn": ("action",),
    "use_actions": ("action",),
    "vote_rule": ("vote", "veto", "propos", "majority", "unanim", "dictator"),
}
# Words of an invented parameter's name that say nothing of what it is about.
_FILLER_WORDS = frozenset({"a", "an", "of", "to", "per", "the"})


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
                isinstance(name, str) and PARAM_NAME.match(name) and isinstance(start, int)
                and not isinstance(start, bool) and -COUNTER_BOUND <= start <= COUNTER_BOUND
                for name, start in value.items()):
            raise DomainError(f"counters maps snake_case names to whole numbers from {-COUNTER_BOUND} to "
                              f"{COUNTER_BOUND}.", code="invalid", details={"field": field})
        return dict(value)
    if not isinstance(value, int | str | bool | None):
        raise DomainError(f"\"{param}\" must be a number, a text, true, false or null.",
                          code="invalid", details={"field": field})
    return value


def checked_params(value: Any, *, field: str = "params") -> dict[str, Any]:
    """A Special Rule's machine-readable ``params`` as a game keeps them: rule parameters in snake_case, each
    value within its bounds (``vote_rule``, ``counters``: ``{name: start}``, or any rule parameter); else a
    DomainError naming ``field`` and the parameter (``params.hand_limit``)."""
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(isinstance(k, str) and PARAM_NAME.match(k) for k in value):
        raise DomainError(f"\"{field}\" maps rule parameters in snake_case to values.",
                          code="invalid", details={"field": field})
    return {param: checked_rule_value(param, param_value, field=f"{field}.{param}")
            for param, param_value in value.items()}


def mentions(text: str, param: str) -> bool:
    """Whether a card's (or a Special Rule's) text speaks of ``param``, so that it could change it."""
    if param in KEYWORDS:
        return any(_has_word(text, keyword) for keyword in KEYWORDS[param])
    words = [word for word in param.split("_") if word and word not in _FILLER_WORDS]
    return bool(words) and all(_has_word(text, word) or _has_word(text, _singular(word)) for word in words)


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


def _has_word(text: str, start: str) -> bool:
    return re.search(rf"\b{re.escape(start)}", text, re.IGNORECASE) is not None
