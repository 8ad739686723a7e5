"""The cards of Rock Paper Scissors Extreme, read from the deck as it is given at game creation.

A card's family comes from its title (the first word of a totem, scroll or athame: "Diamond Totem"; the colour
before "Potion": "Murky Purple Potion") and its sign from its text ("If you win with Rock ..."), so the deck, not
this module, says which card does what. A card that names no family, or a signed card whose text names no single
sign, cannot be played by these rules: the game is refused with the list of such cards.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from dvorak_core.errors import DomainError
from dvorak_engine.rng import Rng
from dvorak_engine.visibility import public

ROCK, PAPER, SCISSORS = "rock", "paper", "scissors"
SIGNS = (ROCK, PAPER, SCISSORS)
# "Rock breaks Scissors, Scissors cut Paper, Paper covers Rock."
BEATS = {ROCK: SCISSORS, SCISSORS: PAPER, PAPER: ROCK}

DIAMOND, GOLDEN, ONYX, SILVER, RUBY = "Diamond", "Golden", "Onyx", "Silver", "Ruby"
ITEM_FAMILIES = (DIAMOND, GOLDEN, ONYX, SILVER, RUBY)
RAINBOW, BLACK, SPARKLY, PURPLE, GREEN, BLUE, RED = "Rainbow", "Black", "Sparkly", "Purple", "Green", "Blue", "Red"
POTION_FAMILIES = (RAINBOW, BLACK, SPARKLY, PURPLE, GREEN, BLUE, RED)
# "Drink after you win with Rock ...": these potions belong to one sign, named in their text.
WIN_POTIONS = (PURPLE, GREEN, BLUE, RED)

# "... place three face up in the center."
CENTER_SIZE = 3

_SIGN_WORD = re.compile(r"\b(rock|paper|scissors)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Card:
    """One card of the game: its deck text and what the rules read from it. Everything on it is public: a viewer
    finds it by an id it was shown (the board's ``cards`` are a ``lookup``)."""

    id: str = public()
    title: str = public()
    text: str = public()
    family: str = public()
    sign: str | None = public(None)

    @property
    def is_potion(self) -> bool:
        return self.family in POTION_FAMILIES

    def to_json(self) -> dict[str, Any]:
        return card_json(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Card:
        return cls(id=data["id"], title=data["title"], text=data["text"], family=data["family"],
                   sign=data.get("sign"))


def card_json(card: Card) -> dict[str, Any]:
    """A card as JSON: from its declared fields only, so a view makes it alike of the card as a viewer sees it
    (``visibility.Seen``)."""
    return {"id": card.id, "title": card.title, "text": card.text, "family": card.family, "sign": card.sign}


def sign_in_text(text: str) -> str | None:
    """The one sign a card's text names ("both throw Rock", "win with Paper"), or None if none or several."""
    named = {word.lower() for word in _SIGN_WORD.findall(text)}
    return named.pop() if len(named) == 1 else None


def read_family(title: str, text: str) -> tuple[str, str | None] | None:
    """(family, sign) as the card's title and text give them, or None for a card these rules do not know."""
    words = [word.capitalize() for word in title.split()]
    if len(words) >= 2 and words[-1] == "Potion" and words[-2] in POTION_FAMILIES:
        family = words[-2]
        if family not in WIN_POTIONS:
            return family, None
        sign = sign_in_text(text)
        return (family, sign) if sign else None
    if words and words[0] in ITEM_FAMILIES:
        sign = sign_in_text(text)
        return (words[0], sign) if sign else None
    return None


def unreadable_titles(deck_cards: list[dict[str, Any]]) -> list[str]:
    """The titles of the deck's cards these rules cannot play (no known family, or no single sign)."""
    return sorted({str(card.get("title", "")) for card in deck_cards
                   if read_family(str(card.get("title", "")), str(card.get("text") or "")) is None})


def check_deck(deck_cards: list[dict[str, Any]]) -> None:
    """Refuse a deck these rules cannot play: a card they cannot read (409 ``denied``, its title listed in
    ``details.cards``), or fewer cards than the center holds (409 ``not_enough_cards``)."""
    unknown = unreadable_titles(deck_cards)
    if unknown:
        raise DomainError(
            "Rock Paper Scissors Extreme cannot play these cards: each must be a Diamond, Golden, Onyx, Silver or "
            "Ruby item naming its sign, or one of the deck's potions.", code="denied", details={"cards": unknown})
    count = sum(_copies(card) for card in deck_cards)
    if count < CENTER_SIZE:
        raise DomainError("The game needs at least three cards for the center.", code="not_enough_cards",
                          details={"cards": count})


def _copies(card: dict[str, Any]) -> int:
    copies = card.get("copies", 1)
    return copies if isinstance(copies, int) and not isinstance(copies, bool) and copies > 0 else 1


def deal_deck(deck_cards: list[dict[str, Any]], rng: Rng) -> list[Card]:
    """One Card per copy of each deck card, each with a fresh opaque id, in the deck's order."""
    check_deck(deck_cards)
    cards: list[Card] = []
    used: set[str] = set()
    for entry in deck_cards:
        title, text = str(entry.get("title", "")), str(entry.get("text") or "")
        read = read_family(title, text)
        assert read is not None, "check_deck refuses a card these rules cannot read"
        family, sign = read
        for _ in range(_copies(entry)):
            card_id = rng.token_hex(8)
            while card_id in used:
                card_id = rng.token_hex(8)
            used.add(card_id)
            cards.append(Card(id=card_id, title=title, text=text, family=family, sign=sign))
    return cards
