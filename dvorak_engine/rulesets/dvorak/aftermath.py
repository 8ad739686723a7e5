"""The Aftermath of a creative game: once somebody has won, the whole table (knocked-out players included)
reviews the deck, votes again on rejected cards and amends it "when everyone's happy with the deck as it
stands"; then the deck, as it stands, is ready for the archive."""

from __future__ import annotations

from dvorak_engine.cards import published_deck
from dvorak_engine.rulesets.dvorak.state import cards_in_the_deck
from dvorak_engine.state import FINISHED, VOTING, GameState


def in_the_aftermath(state: GameState) -> bool:
    """The game is over (or stopped for a vote proposed after it was over)."""
    if state.status == VOTING:
        proposal = state.table.open_proposal()
        # A claim (of a card the server does not understand) is only made while the game is played.
        return proposal is not None and proposal.during == FINISHED
    return state.status == FINISHED


def deck_after_game(state: GameState) -> dict:
    """``DeckData.to_dict()`` of the game's deck: its Special Rules as the game leaves them, each with the rule
    parameters it sets, and every card still in it (accepted, amended, never repealed; not the rejected ones),
    identical cards counted as copies, each with its creator (the player who created it in the game, or the
    original deck's)."""
    table = state.table
    cards = [(table.cards[card_id], table.owners.get(card_id) if table.has_own_decks else None)
             for card_id in cards_in_the_deck(state)]
    return published_deck(state, cards, [
        {"title": rule.title, "text": rule.text, "params": rule.params, "effect": rule.effect}
        for rule in table.special_rules
    ])
