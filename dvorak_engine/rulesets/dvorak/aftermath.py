"""The Aftermath of a creative game: once somebody has won, the whole table (knocked-out players included)
reviews the deck, votes again on rejected cards and amends it "when everyone's happy with the deck as it
stands"; then the deck, as it stands, is ready for the archive.

In a Multi-Deck game with a deck per side (the second reading), each side's deck goes back to its own archive
entry: the game's own deck (the one it was created with) always, with the game's Special Rules, and every other
side's deck the game changed (a card created into it, amended or repealed), with only its cards: its Special
Rules were never the game's, so the archive keeps them as they are.
"""

from __future__ import annotations

from typing import Any

from dvorak_engine.cards import published_deck
from dvorak_engine.rulesets.dvorak.state import MULTI_DECK, READING, cards_in_the_deck
from dvorak_engine.state import OVER, VOTING, GameState

ACCEPTED = "accepted"


def in_the_aftermath(state: GameState) -> bool:
    """The game is over, won or abandoned ("Once somebody has won the game, or the game has been abandoned through
    stalemate or boredom"), or stopped for a vote proposed after it was over."""
    if state.status == VOTING:
        proposal = state.table.open_proposal()
        # A claim (of a card the server does not understand) is only made while the game is played.
        return proposal is not None and proposal.during in OVER
    return state.status in OVER


def has_side_decks(state: GameState) -> bool:
    """A Multi-Deck game in which each seat plays its own side's deck (the second reading); before it, every
    player had a copy of the game's deck."""
    result: bool = state.table.variant == MULTI_DECK and state.table.reading >= READING
    return result


def side_deck_of(state: GameState, seat: int) -> dict[str, Any]:
    """The deck ``seat`` plays in a game with side decks: ``{"slug", "title"}``."""
    return state.table.player(seat).deck or dict(state.table.deck)


def deck_after_game(state: GameState) -> dict[str, Any]:
    """``DeckData.to_dict()`` of the game's deck: its Special Rules as the game leaves them, each with the rule
    parameters it sets, and every card still in it (accepted, amended, never repealed; not the rejected ones),
    identical cards counted as copies, each with its creator (the player who created it in the game, or the
    original deck's).

    In a game with side decks (``has_side_decks``) these are the cards of the seats playing the game's own deck,
    and ``side_decks`` lists each other side's deck the game changed, as ``DeckData.to_dict()`` too, with no
    Special Rules (the archive keeps its own)."""
    table = state.table
    special_rules = [{"title": rule.title, "text": rule.text, "params": rule.params, "effect": rule.effect}
                     for rule in table.special_rules]
    in_the_deck = cards_in_the_deck(state)
    if not has_side_decks(state):
        cards = [(table.cards[card_id], table.owners.get(card_id) if table.has_own_decks else None)
                 for card_id in in_the_deck]
        return published_deck(state, cards, special_rules)
    own_slug = table.deck.get("slug", "")
    side_of_seat = {player.seat: side_deck_of(state, player.seat) for player in table.players}
    sides = {side["slug"]: side for side in side_of_seat.values()}
    slug_of_seat = {seat: side["slug"] for seat, side in side_of_seat.items()}

    def cards_of(slug: str) -> list[Any]:
        return [(table.cards[card_id], table.owners.get(card_id)) for card_id in in_the_deck
                if slug_of_seat.get(table.owners.get(card_id), own_slug) == slug]

    changed = {slug_of_seat.get(seat, own_slug) for seat in seats_whose_deck_changed(state)}
    deck = published_deck(state, cards_of(own_slug), special_rules)
    deck["side_decks"] = [published_deck(state, cards_of(slug), [], deck=side)
                          for slug, side in sides.items() if slug != own_slug and slug in changed]
    return deck


def seats_whose_deck_changed(state: GameState) -> set[int]:
    """The seats into whose deck the game put a card (an accepted new card, going "into the creator's deck by
    default"), or of whose deck it amended or repealed a card."""
    owners = state.table.owners
    seats: set[int] = set()
    for proposal in state.table.proposals:
        if proposal.status != ACCEPTED:
            continue
        seats.update(owners[card_id] for card_id in proposal.cards if card_id in owners)
        if proposal.target is not None and proposal.target in owners:
            seats.add(owners[proposal.target])
    return seats
