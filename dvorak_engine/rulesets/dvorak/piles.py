"""The draw piles and discard piles, shared or each player's own (Multi-Deck Dvorak).

In a standard or team game there is one draw pile and one discard pile (``DvorakState.draw_pile`` and
``discard_pile``). In a Multi-Deck or CCG game each player has their own (``Player.draw_pile`` and
``discard_pile``): they draw from their own, and a card that is destroyed or discarded goes to the discard pile of
the player whose deck it came from (``DvorakState.owners``). These functions are the one place that knows which
pile a card goes to, so the appliers read the same in both kinds of game.

The appliers make their changes on a ``TableDraft``: everything one event changes is gathered and the state is
copied once, not once for each card moved (a full replay folds thousands of events; each copy counts).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from dvorak_engine.rulesets.dvorak.state import DvorakState, Player, with_player
from dvorak_engine.state import GameState
from dvorak_engine.values import replace, replace_inner


def pile_seat(state: GameState, seat: int | None) -> int | None:
    """Whose piles ``seat`` uses: its own in a Multi-Deck game, the shared ones (None) otherwise."""
    return seat if state.table.has_own_decks else None


def owner_of(state: GameState, card_id: str) -> int | None:
    """The seat whose deck a card came from (None in a game with shared piles)."""
    return state.table.owners.get(card_id) if state.table.has_own_decks else None


def draw_pile_of(state: GameState, seat: int | None) -> tuple[str, ...]:
    result: tuple[str, ...] = state.table.draw_pile if seat is None else state.table.player(seat).draw_pile
    return result


def discard_pile_of(state: GameState, seat: int | None) -> tuple[str, ...]:
    result: tuple[str, ...] = state.table.discard_pile if seat is None else state.table.player(seat).discard_pile
    return result


def without(cards: tuple[str, ...], card_id: str) -> tuple[str, ...]:
    """``cards`` without ``card_id`` (every copy of it): the same tuple when it holds none."""
    try:
        index = cards.index(card_id)
    except ValueError:
        return cards
    rest = cards[index + 1:]
    if card_id in rest:
        return tuple(c for c in cards if c != card_id)
    return cards[:index] + rest


class TableDraft:
    """The changes one applier makes to the table, gathered so that the table and the state holding it are copied
    once (``state(...)``), and each player once per change, however many cards move. It reads as the table
    would with the changes made so far; the table it starts from is never changed, and the draft is dropped
    once its state is made."""

    __slots__ = ("changes", "own_decks", "players", "table")

    def __init__(self, table: DvorakState) -> None:
        self.table = table
        self.changes: dict[str, Any] = {}
        self.players: list[Player] | None = None
        self.own_decks = table.has_own_decks

    def get(self, name: str) -> Any:
        changes = self.changes
        return changes[name] if name in changes else getattr(self.table, name)

    def set(self, **changes: Any) -> None:
        self.changes.update(changes)

    def player(self, seat: int) -> Player:
        return (self.table.players if self.players is None else self.players)[seat]

    def all_players(self) -> Sequence[Player]:
        return self.table.players if self.players is None else self.players

    def change_player(self, seat: int, **changes: Any) -> None:
        if self.players is None:
            self.players = list(self.table.players)
        self.players[seat] = replace(self.players[seat], **changes)

    def state(self, state: GameState) -> GameState:
        """``state`` (whose table the draft began from) with the table changed: a new state, the one given left
        as it was."""
        changes = self.changes
        if self.players is not None:
            changes["players"] = tuple(self.players)
        return replace_inner(state, "table", **changes)

    # --- the piles ----------------------------------------------------------------------------------------

    def owner(self, card_id: str) -> int | None:
        """The seat whose deck a card came from (None in a game with shared piles)."""
        return self.get("owners").get(card_id) if self.own_decks else None

    def draw_pile(self, seat: int | None) -> tuple[str, ...]:
        return self.get("draw_pile") if seat is None else self.player(seat).draw_pile

    def discard_pile(self, seat: int | None) -> tuple[str, ...]:
        return self.get("discard_pile") if seat is None else self.player(seat).discard_pile

    def set_piles(self, seat: int | None, **piles: tuple[str, ...]) -> None:
        """New contents for the shared piles (``seat`` None) or for one player's own (``draw_pile``,
        ``discard_pile``)."""
        if seat is None:
            self.changes.update(piles)
        else:
            self.change_player(seat, **piles)

    def to_discard_pile(self, card_ids: Iterable[str]) -> None:
        """Each card onto the top of the discard pile it belongs to, in the order given."""
        for card_id in card_ids:
            seat = self.owner(card_id)
            self.set_piles(seat, discard_pile=(*self.discard_pile(seat), card_id))

    def to_draw_pile(self, card_id: str, *, top: bool) -> None:
        """A card onto the top (or the bottom) of the draw pile it belongs to."""
        seat = self.owner(card_id)
        pile = self.draw_pile(seat)
        self.set_piles(seat, draw_pile=(*pile, card_id) if top else (card_id, *pile))

    def remove_from_piles(self, card_ids: Sequence[str]) -> None:
        """The cards taken off whichever draw pile or discard pile holds them (a pile holding none is kept)."""
        if len(card_ids) == 1:
            self._remove_one(card_ids[0])
            return
        leaving = set(card_ids)
        for name in ("draw_pile", "discard_pile"):
            pile = self.get(name)
            if not leaving.isdisjoint(pile):
                self.changes[name] = tuple(c for c in pile if c not in leaving)
        if self.own_decks:
            for player in tuple(self.all_players()):
                changes = {name: tuple(c for c in pile if c not in leaving)
                           for name, pile in (("draw_pile", player.draw_pile), ("discard_pile", player.discard_pile))
                           if not leaving.isdisjoint(pile)}
                if changes:
                    self.change_player(player.seat, **changes)

    def _remove_one(self, card_id: str) -> None:
        changes = self.changes
        for name in ("draw_pile", "discard_pile"):
            pile = changes[name] if name in changes else getattr(self.table, name)
            if card_id in pile:
                changes[name] = without(pile, card_id)
        if self.own_decks:
            for player in tuple(self.all_players()):
                if card_id in player.draw_pile or card_id in player.discard_pile:
                    self.change_player(player.seat, draw_pile=without(player.draw_pile, card_id),
                                       discard_pile=without(player.discard_pile, card_id))

    # --- where cards are ----------------------------------------------------------------------------------

    def where(self, card_id: str) -> tuple[str, int | None] | None:
        """Where a card is, as ``state.locate`` says it (zone, seat), in the table as changed so far."""
        for player in self.all_players():
            if card_id in player.hand:
                return "hand", player.seat
            if card_id in player.in_play:
                return "in_play", player.seat
            if card_id in player.discard_pile:
                return "discard_pile", player.seat
            if card_id in player.draw_pile:
                return "draw_pile", player.seat
        if card_id in self.get("discard_pile"):
            return "discard_pile", None
        if card_id in self.get("draw_pile"):
            return "draw_pile", None
        return None


def with_piles(state: GameState, seat: int | None, *, draw_pile: tuple[str, ...] | None = None,
               discard_pile: tuple[str, ...] | None = None) -> GameState:
    """The state with new contents for the shared piles (``seat`` None) or for one player's own."""
    changes = {}
    if draw_pile is not None:
        changes["draw_pile"] = tuple(draw_pile)
    if discard_pile is not None:
        changes["discard_pile"] = tuple(discard_pile)
    if seat is None:
        return replace_inner(state, "table", **changes)
    return with_player(state, replace(state.table.player(seat), **changes))


def to_discard_pile(state: GameState, card_ids: list[str] | tuple[str, ...]) -> GameState:
    """Each card onto the top of the discard pile it belongs to, in the order given."""
    draft = TableDraft(state.table)
    draft.to_discard_pile(card_ids)
    return draft.state(state)


def to_draw_pile(state: GameState, card_id: str, *, top: bool) -> GameState:
    """A card onto the top (or the bottom) of the draw pile it belongs to."""
    draft = TableDraft(state.table)
    draft.to_draw_pile(card_id, top=top)
    return draft.state(state)


def remove_from_piles(state: GameState, card_ids: list[str] | tuple[str, ...]) -> GameState:
    """The cards taken off whichever draw pile or discard pile holds them."""
    draft = TableDraft(state.table)
    draft.remove_from_piles(card_ids)
    return draft.state(state)
