"""The Aftermath of a creative game: the deck as it stands once the game is over, ready for the archive."""

from __future__ import annotations

from dvorak_core.deckdata import CardData, DeckData, SpecialRuleData
from games.engine.state import Card, GameState, cards_in_the_deck


def _copy_key(card: Card) -> tuple:
    return (card.title, card.type, card.text, card.flavor, card.corner_value, card.creator,
            tuple(card.stats.items()))


def deck_after_game(state: GameState) -> dict:
    """``DeckData.to_dict()`` of the game's deck: its Special Rules and every card still in it (accepted, amended,
    never repealed; not the rejected ones), identical cards counted as copies, each with its creator (the player
    who created it in the game, or the original deck's)."""
    # In Multi-Deck games every player's deck is a copy of the one deck: count a card's copies in one player's
    # deck (the one holding the most), not in all of them, or the published deck would be N decks in one.
    per_deck: dict[tuple, dict[int | None, int]] = {}
    first: dict[tuple, Card] = {}
    for card_id in cards_in_the_deck(state):
        card = state.cards[card_id]
        key = _copy_key(card)
        owner = state.owners.get(card_id) if state.has_own_decks else None
        counts = per_deck.setdefault(key, {})
        counts[owner] = counts.get(owner, 0) + 1
        first.setdefault(key, card)
    copies = {key: max(counts.values()) for key, counts in per_deck.items()}
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
