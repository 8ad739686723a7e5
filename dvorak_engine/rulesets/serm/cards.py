"""The soldiers of S.E.R.M., read from the deck's cards as the game is created.

"Each soldier has 4 stats: Shoot, Endure, React, Move": the deck carries them in each card's ``stats``, and its
corner value is the soldier's cost when a force is built with points. What a soldier's text lets it do is read
from the text itself, by the phrases the deck's cards use, so the deck, not this module, says which soldier does
what; a card whose stats are missing cannot be played and the game is refused with the list of such cards.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from dvorak_core.errors import DomainError
from dvorak_engine.visibility import public

STATS = ("Shoot", "Endure", "React", "Move")
# More dice than this in one stat is no soldier of a skirmish: a bound on what one roll may cost the server.
MAX_STAT = 12

# What a soldier's text says it may do, by the words of the deck's cards.
ALL_ROUND = "all_round"  # "Ranger has a 360 degree line of sight."
VOLLEY = "volley"  # "May fire once at each enemy soldier in line of sight"
ONE_ACTION = "one_action"  # "Cannot move then shoot (or shoot then move) in the same activation"
MOVE_PROOF = "move_proof"  # "Cannot be killed by a Move."
STEERS = "steers"  # "Does not need to declare direction for moving, and can turn during a Move."
TRAMPLES = "tramples"  # "Killing a soldier during movement does not end Brawlers' movement"
BLAST = "blast"  # "May target empty space when shooting. Range of explosion is 2 cards radius"

_ABILITIES = (
    (ALL_ROUND, re.compile(r"360 degree line of sight", re.IGNORECASE)),
    (VOLLEY, re.compile(r"fire once at each enemy soldier", re.IGNORECASE)),
    (ONE_ACTION, re.compile(r"cannot move then shoot", re.IGNORECASE)),
    (MOVE_PROOF, re.compile(r"cannot be killed by a move", re.IGNORECASE)),
    (STEERS, re.compile(r"does not need to declare direction", re.IGNORECASE)),
    (TRAMPLES, re.compile(r"killing a soldier during movement does not end", re.IGNORECASE)),
    (BLAST, re.compile(r"may target empty space", re.IGNORECASE)),
)
_BLAST_RADIUS = re.compile(r"explosion is (\d+) cards? radius", re.IGNORECASE)
DEFAULT_BLAST_RADIUS = 2


@dataclass(frozen=True)
class SoldierCard:
    """One soldier card of the deck: its stats, its cost (the corner value; None when the card has none), its text
    and the abilities read from it. Everyone sees all of it."""

    title: str = public()
    text: str = public()
    shoot: int = public()
    endure: int = public()
    react: int = public()
    move: int = public()
    cost: int | None = public(None)
    abilities: tuple[str, ...] = public(())
    blast_radius: int = public(0)

    def has(self, ability: str) -> bool:
        return ability in self.abilities

    def to_json(self) -> dict[str, Any]:
        return card_json(self)


def card_json(card: SoldierCard) -> dict[str, Any]:
    """A soldier card as JSON: from its declared fields only, so a view makes it alike of the card as a viewer sees
    it (``visibility.Seen``)."""
    return {"title": card.title, "text": card.text, "cost": card.cost,
            "stats": {"shoot": card.shoot, "endure": card.endure, "react": card.react, "move": card.move},
            "abilities": list(card.abilities), "blast_radius": card.blast_radius}


def points_cost(card: SoldierCard) -> int:
    """What a soldier costs in a force built with points: its corner value, which every soldier of such a game
    has (``options.read_options`` refuses the game otherwise)."""
    if card.cost is None:
        raise DomainError("A force built with points needs every soldier's corner value.", code="denied",
                          details={"cards": [card.title]})
    return card.cost


def _stat(stats: dict[str, Any], name: str) -> int | None:
    value = stats.get(name, stats.get(name.lower()))
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_STAT:
        return None
    return value


def _cost(corner_value: Any) -> int | None:
    text = str(corner_value if corner_value is not None else "").strip()
    return int(text) if text.isdigit() else None


def read_card(card: dict[str, Any]) -> SoldierCard | None:
    """The soldier a deck card describes, or None when its four stats are not all there."""
    given = card.get("stats")
    stats: dict[str, Any] = given if isinstance(given, dict) else {}
    shoot, endure, react, move = (_stat(stats, name) for name in STATS)
    if shoot is None or endure is None or react is None or move is None:
        return None
    text = str(card.get("text") or "")
    abilities = tuple(name for name, phrase in _ABILITIES if phrase.search(text))
    radius = 0
    if BLAST in abilities:
        found = _BLAST_RADIUS.search(text)
        radius = int(found[1]) if found else DEFAULT_BLAST_RADIUS
    return SoldierCard(title=str(card.get("title", "")), text=text, shoot=shoot, endure=endure, react=react,
                       move=move, cost=_cost(card.get("corner_value")), abilities=abilities, blast_radius=radius)


def read_deck(deck_cards: list[Any]) -> list[SoldierCard]:
    """Every soldier of the deck, once each, in the deck's order; refuse a deck with a card these rules cannot
    play (409 ``denied``, its title in ``details.cards``) or with no soldier at all."""
    cards = [card for card in deck_cards if isinstance(card, dict)]
    unreadable = sorted({str(card.get("title", "")) for card in cards if read_card(card) is None})
    if unreadable:
        raise DomainError("S.E.R.M. cannot play these cards: each soldier needs its four stats, Shoot, Endure, "
                          "React and Move, as whole numbers.", code="denied", details={"cards": unreadable})
    soldiers: list[SoldierCard] = []
    for card in cards:
        soldier = read_card(card)
        assert soldier is not None, "a card no soldier was read from is refused above"
        if soldier.title not in {s.title for s in soldiers}:
            soldiers.append(soldier)
    if not soldiers:
        raise DomainError("S.E.R.M. needs a deck of soldiers.", code="not_enough_cards", details={"cards": 0})
    return soldiers


def card_from_json(data: dict[str, Any]) -> SoldierCard:
    stats = data["stats"]
    return SoldierCard(title=data["title"], text=data["text"], shoot=stats["shoot"], endure=stats["endure"],
                       react=stats["react"], move=stats["move"], cost=data.get("cost"),
                       abilities=tuple(data.get("abilities", ())), blast_radius=data.get("blast_radius", 0))
