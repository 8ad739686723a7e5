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

import functools
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


# --- The Basic Rule numbers a text names ------------------------------------------------------------------------

# The numbers of the Basic Rules the server enforces: "Each player then draws five cards"; the turn's draw; "one
# Action card and one Thing card"; "more than five cards in their hand".
ENFORCED_NUMBERS = ("hand_limit", "starting_hand", "draws_per_turn", "things_per_turn", "actions_per_turn")

_COUNT = r"(?:an?|no|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|any number of|\d{1,3})"
_HAND = r"(?:your|their|his or her|his|her|a|the|one's|each player's|a player's)\s+hands?"
_TURN = r"(?:each|every|per|a|one|your|their|his|her|his or her|a player's)\s+turn"
_LIMIT = r"(?:up to|at most|no more than|a maximum of|any number of|more than|fewer than|less than|a minimum of)"
_NAMING: dict[str, tuple[str, ...]] = {
    "hand_limit": (
        r"\bhand[- ](?:size|limit)s?\b", r"\bmaximum hand\b", r"\bdiscard(?:s|ing)? down\b",
        rf"\b{_LIMIT}\s+(?:\w+\s+)?cards?\s+in\s+{_HAND}\b", r"\bno hand limit\b",
        r"\b(?:can|may)\s+(?:have|hold|keep)\s+(?:a maximum of|at most|up to|no more than)\s+\w+(?:\s+cards?\b|\s*[.;,])",
    ),
    "starting_hand": (
        r"\b(?:starting|opening|initial|first) hand\b",
        rf"\b(?:start|starts|begin|begins)\s+(?:the game\s+)?with\s+{_COUNT}\s+(?:\w+\s+)?(?:cards?|hands?)\b",
        r"\b(?:deal|deals|dealt)\b[^.]*\bcards?\b",
        rf"\bdraws?\s+(?:an?\s+)?{_COUNT}[- ]card hand\b", rf"\b(?:each|every) player draws\s+{_COUNT}\s+cards?\b",
    ),
    "draws_per_turn": (
        r"\bdraw (?:step|stage|phase)\b",
        rf"\bdraws?\s+(?:{_COUNT}\s+)?(?:extra\s+|additional\s+|more\s+)?(?:cards?\s+)?(?:at the (?:start|beginning) of|in|during)?\s*{_TURN}\b",
        rf"\bdraws?\s+{_COUNT}\s+(?:extra\s+|additional\s+)?cards?\s+instead\b", r"\binstead of drawing\b",
        r"\b(?:do not|don't|does not|doesn't|never|cannot|can't|may not) draw\b",
    ),
    "things_per_turn": (
        rf"\bplay(?:s|ed)?\s+(?:{_COUNT}\s+)?things?\b[^.]*\b{_TURN}\b", rf"\bthings?\s+(?:cards?\s+)?{_TURN}\b",
        r"\bthings? per turn\b", r"\bany number of things\b",
    ),
    "actions_per_turn": (
        rf"\bplay(?:s|ed)?\s+(?:{_COUNT}\s+)?actions?\b[^.]*\b{_TURN}\b", rf"\bactions?\s+(?:cards?\s+)?{_TURN}\b",
        r"\bactions? per turn\b", r"\bany number of actions\b",
    ),
}
_NAMING_RE = {param: tuple(re.compile(pattern, re.IGNORECASE) for pattern in patterns)
              for param, patterns in _NAMING.items()}


@functools.lru_cache(maxsize=4096)
def named_numbers(text: str) -> tuple[str, ...]:
    """The Basic Rule numbers the server enforces (``ENFORCED_NUMBERS``) that a Special Rule's text names: "Hand
    size is seven instead of five." names ``hand_limit``, "Players begin with no cards" ``starting_hand``, "Draw
    two cards each turn" ``draws_per_turn``. Stricter than ``mentions`` (any text with "hand" in it may be cited
    to change the hand limit): a rule that only speaks of a hand ("Discard your hand") names no number. A plain
    test of the words, which a player can check for themselves."""
    return tuple(param for param in ENFORCED_NUMBERS if any(p.search(text) for p in _NAMING_RE[param]))
