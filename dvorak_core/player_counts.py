"""A deck's player count as the deck writes it ("2", "2-4", "2+", "3 or more", "any") read as a range of numbers.

The archive keeps the text as written and beside it the range this reads (`Deck.players_min`, `players_max`), so
that "a game for 3" finds a "2-4" deck, a "2+" deck and a "3 or more" deck. Pure: no Django.

- A range is `PlayerRange(low, high)`; `high` is None when there is no upper bound ("2+", "3 or more").
- "any" (any number, unlimited) reads as 1 or more; "up to 4" (and the wiki's "-4") as 1 to 4.
- Text that says something else ("2 (4 in teams)", "2 or 4", "even numbers", "") reads as nothing: such a deck
  keeps being found by its exact text.
"""

from __future__ import annotations

import re
from typing import NamedTuple

# More players than any table holds: a number beyond it is not read as a count.
MAX_PLAYERS = 999

_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12,
}
_WORD = re.compile(r"\b(" + "|".join(_WORDS) + r")\b")
_DASHES = re.compile(r"\s*[-‐‑‒–—―−]\s*")
_NOUN = re.compile(r"\s*\b(?:players?|people|persons|gamers)\s*\.?$|(?<=\d)\s*p$")

_N = r"(\d{1,4})"
_OR_MORE = (r"(?:\+|plus|or more|and more|and up|and upwards?|or above|and above|or over|or greater|"
            r"-(?:\+|∞|inf|infinity|infinite|many|n|any|more|…|\.\.\.|unlimited)?)")
_SINGLE = re.compile(rf"^{_N}$")
_BETWEEN = re.compile(rf"^(?:{_N}\s*(?:-|to|~|through|thru)\s*{_N}|between\s+{_N}\s+and\s+{_N}|from\s+{_N}\s+to\s+{_N})$")
_AT_LEAST = re.compile(rf"^(?:{_N}\s*{_OR_MORE}|(?:at least|min\.?|minimum(?: of)?|>=|≥)\s*{_N}|{_N}\s*(?:minimum|min\.?|at least))$")
_UP_TO = re.compile(rf"^(?:(?:-|up to|at most|max\.?|maximum(?: of)?|<=|≤)\s*{_N}|{_N}\s*(?:or fewer|or less|max\.?|maximum|at most))$")
_LIST = re.compile(rf"^{_N}(?:\s*(?:,|/|or|,\s*or|and|,\s*and)\s*{_N})+$")
_ANY = re.compile(r"^(?:any|any number|any number of|anyone|unlimited|no limit|as many as you like|all|"
                  r"any amount)$")
_ALONE = re.compile(r"^(?:solo|solitaire|single|single player|one player)$")


class PlayerRange(NamedTuple):
    low: int
    high: int | None  # None: no upper bound

    def holds(self, count: int) -> bool:
        return self.low <= count and (self.high is None or count <= self.high)


def _normal(text: str) -> str:
    text = " ".join(str(text).casefold().split())
    text = _WORD.sub(lambda match: str(_WORDS[match[1]]), text)
    text = _DASHES.sub("-", text)
    text = re.sub(r"\s*\+\s*$", "+", text)
    text = _NOUN.sub("", text).strip()
    return text.rstrip(".").strip()


def _count(text: str) -> int | None:
    number = int(text)
    return number if 1 <= number <= MAX_PLAYERS else None


def parse_players(text: str) -> PlayerRange | None:
    """The range of player counts `text` gives, or None when it gives none that can be read."""
    text = _normal(text or "")
    if not text:
        return None
    if _ANY.match(text):
        return PlayerRange(1, None)
    if _ALONE.match(text):
        return PlayerRange(1, 1)
    if match := _SINGLE.match(text):
        number = _count(match[1])
        return None if number is None else PlayerRange(number, number)
    if match := _BETWEEN.match(text):
        low, high = (_count(group) for group in match.groups() if group)
        if low is None or high is None:
            return None
        return PlayerRange(min(low, high), max(low, high))
    if match := _AT_LEAST.match(text):
        low = _count(next(group for group in match.groups() if group))
        return None if low is None else PlayerRange(low, None)
    if match := _UP_TO.match(text):
        high = _count(next(group for group in match.groups() if group))
        return None if high is None else PlayerRange(1, high)
    if _LIST.match(text):
        numbers = sorted({int(number) for number in re.findall(r"\d+", text)})
        # "2, 3 or 4" is a range; "2 or 4" is not (a 3-player game is not one of them).
        if numbers == list(range(numbers[0], numbers[-1] + 1)) and _count(str(numbers[0])) and _count(str(numbers[-1])):
            return PlayerRange(numbers[0], numbers[-1])
    return None


def describe(low: int | None, high: int | None) -> str:
    """A range for people: "2 players", "2–4 players", "3 or more players", "any number of players"; "" for
    none."""
    if low is None:
        return ""
    if high is None:
        return "any number of players" if low <= 1 else f"{low} or more players"
    if low == high:
        return f"{low} player{'' if low == 1 else 's'}"
    return f"{low}–{high} players"
