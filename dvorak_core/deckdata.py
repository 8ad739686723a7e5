"""A deck as plain values: what importers produce and exporters consume.

No Django here: the archive's models are filled from these values and turned back into them, so the
importers, exporters and their tests run without a database.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

THING = "Thing"
ACTION = "Action"

DECK = "deck"
CARD_SET = "card_set"
KINDS = (DECK, CARD_SET)

# The wiki infobox's status values; "" is a deck that "has not been categorised".
UNCATEGORISED = ""
STATUSES = (UNCATEGORISED, "unfinished", "untested", "playable", "nomic", "CCG set", "CCG deck")

DEFAULT_RULESET = "dvorak"
# The title of a deck from a format that carries none (MUSHcode, markup without an infobox title).
UNTITLED = "Untitled deck"

# The Basic Rules: "Some Actions specify that they can be played out of turn ... with no excuse at all".
_OUT_OF_TURN = re.compile(r"\b(at any time|out of turn)\b", re.IGNORECASE)


def plays_out_of_turn(card_text: str) -> bool:
    return bool(_OUT_OF_TURN.search(card_text))


def slugify(title: str) -> str:
    """Lowercase words joined by hyphens, ASCII only, as Django's slugify would give."""
    ascii_title = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode("ascii")
    words = re.findall(r"[a-z0-9]+", ascii_title.lower())
    return "-".join(words)


# Bounds that keep one deck from taking a server down (a card of 35 million copies, a printed sheet of them, a
# game dealing them). The archive refuses a deck beyond them; an exporter refuses to write one.
MAX_COPIES_PER_CARD = 100
MAX_CARDS_PER_DECK = 2000  # copies counted


def _effect(value: Any) -> Any:
    # A list is copied; anything else is kept as given, for the archive's check to refuse it by what it is.
    return list(value) if isinstance(value, list | tuple) else value


@dataclass(frozen=True)
class SpecialRuleData:
    title: str
    text: str
    # The rule parameters the rule sets when a game plays it ({"hand_limit": 7}, {"vote_rule": "majority"}); the
    # game checks them against its ruleset. Kept out of the stored form when empty, as most rules are prose only.
    params: dict[str, Any] = field(default_factory=dict)
    # The rule's effect in the effect language (dvorak_core.effects), as its JSON list, once a curator has
    # confirmed it; None: not confirmed (the reader's reading of the text is only a suggestion). Kept out of the
    # stored form when None.
    effect: list[dict[str, Any]] | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"title": self.title, "text": self.text}
        if self.params:
            data["params"] = dict(self.params)
        if self.effect is not None:
            data["effect"] = _effect(self.effect)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SpecialRuleData:
        effect = data.get("effect")
        return cls(title=str(data.get("title", "")), text=str(data["text"]), params=dict(data.get("params") or {}),
                   effect=_effect(effect))


@dataclass(frozen=True)
class CardData:
    title: str
    type: str = THING
    text: str = ""
    flavor: str = ""
    copies: int = 1
    corner_value: str = ""
    creator: str = ""
    # Named numbers printed on the card, e.g. {"Shoot": 1, "Endure": 1}; insertion order is the card's order.
    stats: dict[str, int] = field(default_factory=dict)
    out_of_turn: bool = False
    # The card's effect in the effect language (dvorak_core.effects), as its JSON list, once a curator has
    # confirmed it; None: not confirmed (the reader's reading of the text is only a suggestion). Kept out of the
    # stored form when None.
    effect: list[dict[str, Any]] | None = None

    def __post_init__(self) -> None:
        if self.copies < 1:
            raise ValueError(f"A card has at least one copy; {self.title!r} has {self.copies}.")

    def to_dict(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "type": self.type,
            "text": self.text,
            "flavor": self.flavor,
            "copies": self.copies,
            "corner_value": self.corner_value,
            "creator": self.creator,
            "stats": dict(self.stats),
            "out_of_turn": self.out_of_turn,
        } | ({} if self.effect is None else {"effect": _effect(self.effect)})

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CardData:
        text = str(data.get("text", ""))
        effect = data.get("effect")
        return cls(
            title=str(data["title"]),
            type=str(data.get("type", THING)),
            text=text,
            flavor=str(data.get("flavor", "")),
            copies=int(data.get("copies", 1)),
            corner_value=str(data.get("corner_value", "")),
            creator=str(data.get("creator", "")),
            stats={str(name): int(value) for name, value in dict(data.get("stats", {})).items()},
            out_of_turn=bool(data.get("out_of_turn", plays_out_of_turn(text))),
            effect=_effect(effect),
        )


@dataclass(frozen=True)
class DeckData:
    slug: str
    title: str
    kind: str = DECK
    designers: tuple[str, ...] = ()
    date: str = ""
    players: str = ""
    status: str = UNCATEGORISED
    locked: bool = False
    ruleset: str = DEFAULT_RULESET
    description: str = ""
    special_rules: tuple[SpecialRuleData, ...] = ()
    cards: tuple[CardData, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"A deck's kind is one of {', '.join(KINDS)}, not {self.kind!r}.")

    @property
    def card_count(self) -> int:
        """How many cards a printed deck has: every copy counts."""
        return sum(card.copies for card in self.cards)

    def to_dict(self) -> dict[str, Any]:
        return {
            "slug": self.slug,
            "title": self.title,
            "kind": self.kind,
            "designers": list(self.designers),
            "date": self.date,
            "players": self.players,
            "status": self.status,
            "locked": self.locked,
            "ruleset": self.ruleset,
            "description": self.description,
            "special_rules": [rule.to_dict() for rule in self.special_rules],
            "cards": [card.to_dict() for card in self.cards],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DeckData:
        title = str(data["title"])
        return cls(
            slug=str(data.get("slug") or slugify(title)),
            title=title,
            kind=str(data.get("kind", DECK)),
            designers=tuple(str(name) for name in data.get("designers", ())),
            date=str(data.get("date", "")),
            players=str(data.get("players", "")),
            status=str(data.get("status", UNCATEGORISED)),
            locked=bool(data.get("locked", False)),
            ruleset=str(data.get("ruleset", DEFAULT_RULESET)),
            description=str(data.get("description", "")),
            special_rules=tuple(SpecialRuleData.from_dict(rule) for rule in data.get("special_rules", ())),
            cards=tuple(CardData.from_dict(card) for card in data.get("cards", ())),
        )
