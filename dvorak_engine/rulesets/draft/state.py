"""The table of a booster draft: the set's cards, each player's pack and picks, the packs still to be opened, and
where the draft stands.

Each field's declaration says who may read it (``dvorak_engine.visibility``): the pack a player holds and the cards
they picked only that player; the packs of the rounds to come nobody but the server; the cards by the ids a viewer
is shown. The ruleset's ``shown`` builds each viewer's view from what it may read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dvorak_engine.cards import Card
from dvorak_engine.values import replace
from dvorak_engine.visibility import derived, lookup, owner, public

LEFT, RIGHT = "left", "right"


@dataclass(frozen=True)
class Drafter:
    """One seat's pack (the one it holds now) and picks, both card ids, in order."""

    seat: int = public()
    pack: tuple[str, ...] = owner(())
    picks: tuple[str, ...] = owner(())

    @derived
    def pack_count(self) -> int:
        """How many cards the pack holds: everyone sees its size, only its holder its cards."""
        return len(self.pack)

    @derived
    def picks_count(self) -> int:
        return len(self.picks)


@dataclass(frozen=True)
class DraftState:
    # The card set drafted: {"slug", "title", "version"} (the version of the set the cards come from).
    deck: dict[str, Any] = public(default_factory=dict)
    # Every card of the set by its id (the card's id in the set's version), read by the ids a viewer is shown.
    cards: dict[str, Card] = lookup(default_factory=dict)
    # How many copies of each card the set holds (the pool of ``options.pool`` "copies"): the server's own.
    copies: dict[str, int] = field(default_factory=dict)
    # Whether the set's cards carry their rarity (``stats.rarity``): the packs are then dealt by rarity.
    by_rarity: bool = public(False)
    players: tuple[Drafter, ...] = public(())
    # Settled at the start: the cards of a pack, and its rare and uncommon slots (empty without rarity).
    pack_size: int = public(0)
    slots: dict[str, int] = public(default_factory=dict)
    # The round (one pack each), the pick within it (1 to the pack size), and where packs pass this round.
    round: int = public(0)
    pick: int = public(0)
    direction: str = public("")
    # The packs of the rounds to come, by round and then by seat: dealt at the start, seen by nobody until opened.
    unopened: tuple[tuple[tuple[str, ...], ...], ...] = ()

    @derived
    def player(self, seat: int) -> Drafter:
        return self.players[seat]

    def with_player(self, seat: int, **changes: Any) -> DraftState:
        return replace(self, players=tuple(replace(p, **changes) if p.seat == seat else p for p in self.players))
