"""The draw piles and discard piles, shared or each player's own (Multi-Deck Dvorak).

In a standard or team game there is one draw pile and one discard pile (``DvorakState.draw_pile`` and
``discard_pile``). In a Multi-Deck or CCG game each player has their own (``Player.draw_pile`` and
``discard_pile``): they draw from their own, and a card that is destroyed or discarded goes to the discard pile of
the player whose deck it came from (``DvorakState.owners``). These functions are the one place that knows which
pile a card goes to, so the appliers read the same in both kinds of game.
"""

from __future__ import annotations

from games.engine.rulesets.dvorak.state import with_player
from games.engine.state import GameState
from games.engine.values import replace


def pile_seat(state: GameState, seat: int | None) -> int | None:
    """Whose piles ``seat`` uses: its own in a Multi-Deck game, the shared ones (None) otherwise."""
    return seat if state.table.has_own_decks else None


def owner_of(state: GameState, card_id: str) -> int | None:
    """The seat whose deck a card came from (None in a game with shared piles)."""
    return state.table.owners.get(card_id) if state.table.has_own_decks else None


def draw_pile_of(state: GameState, seat: int | None) -> tuple[str, ...]:
    return state.table.draw_pile if seat is None else state.table.player(seat).draw_pile


def discard_pile_of(state: GameState, seat: int | None) -> tuple[str, ...]:
    return state.table.discard_pile if seat is None else state.table.player(seat).discard_pile


def with_piles(state: GameState, seat: int | None, *, draw_pile: tuple[str, ...] | None = None,
               discard_pile: tuple[str, ...] | None = None) -> GameState:
    """The state with new contents for the shared piles (``seat`` None) or for one player's own."""
    changes = {}
    if draw_pile is not None:
        changes["draw_pile"] = tuple(draw_pile)
    if discard_pile is not None:
        changes["discard_pile"] = tuple(discard_pile)
    if seat is None:
        return state.with_table(**changes)
    return with_player(state, replace(state.table.player(seat), **changes))


def to_discard_pile(state: GameState, card_ids: list[str] | tuple[str, ...]) -> GameState:
    """Each card onto the top of the discard pile it belongs to, in the order given."""
    for card_id in card_ids:
        seat = owner_of(state, card_id)
        state = with_piles(state, seat, discard_pile=(*discard_pile_of(state, seat), card_id))
    return state


def to_draw_pile(state: GameState, card_id: str, *, top: bool) -> GameState:
    """A card onto the top (or the bottom) of the draw pile it belongs to."""
    seat = owner_of(state, card_id)
    pile = draw_pile_of(state, seat)
    return with_piles(state, seat, draw_pile=(*pile, card_id) if top else (card_id, *pile))


def remove_from_piles(state: GameState, card_ids: list[str] | tuple[str, ...]) -> GameState:
    """The cards taken off whichever draw pile or discard pile holds them."""
    leaving = set(card_ids)
    table = state.table
    table = replace(table, draw_pile=tuple(c for c in table.draw_pile if c not in leaving),
                    discard_pile=tuple(c for c in table.discard_pile if c not in leaving))
    if table.has_own_decks:
        table = replace(table, players=tuple(
            replace(p, draw_pile=tuple(c for c in p.draw_pile if c not in leaving),
                    discard_pile=tuple(c for c in p.discard_pile if c not in leaving))
            for p in table.players
        ))
    return replace(state, table=table)
