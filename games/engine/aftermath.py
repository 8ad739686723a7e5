"""The Aftermath of a creative game: the deck as it stands once the game is over, ready for the archive."""

from __future__ import annotations

from decks.deckdata import CardData, DeckData, SpecialRuleData
from games.engine.state import Card, GameState, cards_in_the_deck


def _copy_key(card: Card) -> tuple:
    return (card.title, card.type, card.text, card.flavor, card.corner_value, card.creator,
            tuple(card.stats.items()))


def deck_after_game(state: GameState) -> dict:
    """``DeckData.to_dict()`` of the game's deck: its Special Rules and every card still in it (accepted, amended,
    never repealed; not the rejected ones), identical cards counted as copies, each with its creator (the player
    who created it in the game, or the original deck's)."""
    copies: dict[tuple, int] = {}
    first: dict[tuple, Card] = {}
    for card_id in cards_in_the_deck(state):
        card = state.cards[card_id]
        key = _copy_key(card)
        copies[key] = copies.get(key, 0) + 1
        first.setdefault(key, card)
    cards = sorted(first.items(), key=lambda item: (item[1].title.lower(), item[1].type, item[1].text))
    deck = DeckData(
        slug=str(state.deck.get("slug", "")),
        title=str(state.deck.get("title", "")),
        ruleset=state.ruleset,
        designers=tuple(dict.fromkeys(p.username for p in state.players)),
        special_rules=tuple(SpecialRuleData(title=r.title, text=r.text) for r in state.special_rules),
        cards=tuple(
            CardData.from_dict({"title": card.title, "type": card.type, "text": card.text, "flavor": card.flavor,
                                "copies": copies[key], "corner_value": card.corner_value,
                                "creator": card.creator, "stats": dict(card.stats)})
            for key, card in cards
        ),
    )
    return deck.to_dict()
