"""A player's own deck, as a ruleset played from players' own decks (CCG Dvorak, Filibuster) takes it at the door.

The service sends it as ``player_deck``::

    {"id": <int>, "name": <str>, "card_set": <the Card Set's slug>, "version": <int>,
     "cards": [{"title": <str>, "type"?, "text"?, "flavor"?, "corner_value"?, "creator"?, "stats"?: {},
                "copies"?: <int, 1 or more; 1 when left out>}, ...]}

A deck of another Card Set, a deck without cards, or more than ``MAX_PLAYER_DECK_COPIES`` copies is ``invalid``.
"""

from __future__ import annotations

from typing import Any

from dvorak_core.errors import DomainError

MAX_PLAYER_DECK_COPIES = 500


def read_player_deck(value: Any, *, card_set: str) -> dict[str, Any]:
    """A CCG player deck as the service sends it (the shape in this module's docstring), checked."""
    if value is None:
        raise DomainError("A CCG game is joined with a player deck (\"player_deck\").",
                          code="invalid", details={"field": "player_deck"})
    if not isinstance(value, dict):
        raise DomainError("\"player_deck\" must be an object.", code="invalid", details={"field": "player_deck"})
    if str(value.get("card_set", "")) != card_set:
        raise DomainError(f"This game is played with the Card Set {card_set!r}; that deck is built "
                                     f"from another.", code="invalid", details={"field": "player_deck.card_set", "card_set": card_set})
    cards = value.get("cards")
    if not isinstance(cards, list) or not cards:
        raise DomainError("A player deck needs a list of cards.", code="invalid", details={"field": "player_deck.cards"})
    total = 0
    for card in cards:
        if not isinstance(card, dict) or not isinstance(card.get("title"), str) or not card["title"].strip():
            raise DomainError("Each card of a player deck has a title.", code="invalid", details={"field": "player_deck.cards"})
        copies = card.get("copies", 1)
        if isinstance(copies, bool) or not isinstance(copies, int) or copies < 1:
            raise DomainError("A card's \"copies\" is a whole number, 1 or more.",
                              code="invalid", details={"field": "player_deck.cards"})
        total += copies
    if total > MAX_PLAYER_DECK_COPIES:
        raise DomainError(f"A player deck holds at most {MAX_PLAYER_DECK_COPIES} cards.",
                          code="invalid", details={"field": "player_deck.cards"})
    return {**player_deck_summary(value), "cards": cards}


def player_deck_summary(deck: dict[str, Any]) -> dict[str, Any]:
    """What everyone sees of a player's deck: which deck it is, not its cards."""
    version = deck.get("version")
    return {"id": deck.get("id"), "name": str(deck.get("name") or ""), "card_set": str(deck.get("card_set", "")),
            "version": version if isinstance(version, int) and not isinstance(version, bool) else None}
