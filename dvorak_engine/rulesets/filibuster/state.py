"""The table of a Filibuster game: each player's own deck, hand, discard pile, Constants and points, and where the
current campaign stands.

States are frozen values; the ruleset's appliers build new ones. Each field's declaration says who may read it
(``dvorak_engine.visibility``: a hand only its holder, a draw pile only as a count, the cards by the ids a viewer is
shown); the ruleset's ``shown`` builds each viewer's view from what it may read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dvorak_engine.cards import Card
from dvorak_engine.rulesets.filibuster.cards import value_of
from dvorak_engine.values import replace
from dvorak_engine.visibility import counted, derived, lookup, owner, public

# The four steps of a campaign, in order.
ROLL, BEGINNING, MAIN, END = "roll", "beginning", "main", "end"
STEPS = (ROLL, BEGINNING, MAIN, END)
# What the game waits for within a step (``phase``):
WINDOW = "filibuster_window"   # the non-pitchers asked whether they filibuster, at the beginning of a step
REVEAL = "reveal"              # the filibusterer and the pitcher each choose a card to reveal, in secret
COUNTER = "counter"            # the former pitcher may counter a successful filibuster
RESPONSE = "response"          # the filibusterer may respond to the counter with a second card
PLAY_CAMPAIGN = "campaign"     # the seat that must play a Campaign Card
PLAY_CONSTANT = "constant"     # the pitcher may play one Constant
STACK = "stack"                # Gambits are stacked, the seat with ``priority`` playing one or passing
EFFECT = "effect"              # the top Gambit's player carries out its text, then resolves it
DIED = "died"                  # the campaign died: a roll starts the next one
GAME_OVER = "finished"
PHASES = (WINDOW, REVEAL, COUNTER, RESPONSE, PLAY_CAMPAIGN, PLAY_CONSTANT, STACK, EFFECT, DIED, GAME_OVER)


@dataclass(frozen=True)
class Player:
    """One seat's own cards (ids): its deck is its draw pile; ``constants`` are its Constants in play. ``deck``
    names the CCG player deck it brought (None when it plays a copy of the set)."""

    seat: int = public()
    hand: tuple[str, ...] = owner(())
    draw_pile: tuple[str, ...] = counted(())
    discard_pile: tuple[str, ...] = public(())
    constants: tuple[str, ...] = public(())
    points: int = public(0)
    deck: dict[str, Any] | None = public(None)

    @derived
    def hand_count(self) -> int:
        """How many cards the hand holds: everyone sees its size, only its holder its cards."""
        return len(self.hand)


@dataclass(frozen=True)
class Filibuster:
    """A filibuster under way: who filibusters (``seat``) whom (``pitcher``, the pitcher it was made against),
    the cards revealed and not yet discarded or taken back (seat, card), the value a counter must beat, and the
    counter's card."""

    seat: int = public()
    pitcher: int = public()
    revealed: tuple[tuple[int, str], ...] = public(())
    to_beat: int | None = public(None)
    counter: str | None = public(None)

    def countered_with(self) -> str:
        """The counter's card, once the pitcher has countered (the response is to it)."""
        if self.counter is None:
            raise LookupError("the filibuster has not been countered")
        return self.counter


@dataclass(frozen=True)
class FilibusterState:
    variant: str = public("standard")
    deck: dict[str, Any] = public(default_factory=dict)
    # The card set's cards as created (each joiner of a standard game plays a copy of them): the server's own.
    deck_cards: tuple[dict[str, Any], ...] = ()
    # Every card of the game by its id, those in hands and draw piles too: read by the ids a viewer is shown.
    cards: dict[str, Card] = lookup(default_factory=dict)
    # Whose deck each card comes from: a card always goes back to its owner's piles. Read by the ids a viewer is
    # shown (listing it would list the ids of every hand and draw pile).
    owners: dict[str, int] = lookup(default_factory=dict)
    players: tuple[Player, ...] = public(())
    campaign: int = public(0)
    step: str | None = public(None)
    phase: str | None = public(None)
    # The seat the phase waits for (the Campaign's player, the pitcher choosing a Constant, a counter, a response).
    acting: int | None = public(None)
    rolls: tuple[dict[str, Any], ...] = public(())
    order: tuple[int, ...] = public(())
    pitcher: int | None = public(None)
    campaign_card: str | None = public(None)
    # Gambits on the Campaign, bottom first; what each names (``target``, ``destroy``), by card id (read by the
    # ids of the stack's cards).
    stack: tuple[str, ...] = public(())
    aims: dict[str, dict[str, Any]] = lookup(default_factory=dict)
    # The stacking round: whose turn to stack or pass, who passed since the last Gambit, who played it (None while
    # the pitcher has not yet stacked one in the Main Step; the server's own).
    priority: int | None = public(None)
    passed: tuple[int, ...] = public(())
    last_stacker: int | None = None
    # The seats still to answer in a filibuster window (in a game of a filibuster each, kept while a filibuster
    # is settled: those who had not answered when it was made).
    window: tuple[int, ...] = public(())
    filibuster: Filibuster | None = public(None)
    # The seats that have filibustered in this step (a game of a filibuster each: ``options.filibusters``).
    filibustered: tuple[int, ...] = public((), added=True)
    # The server's own (the envelope's ``winners`` shows them).
    winners: tuple[int, ...] = ()

    @derived
    def player(self, seat: int) -> Player:
        return self.players[seat]

    def with_player(self, seat: int, **changes: Any) -> FilibusterState:
        players = tuple(replace(p, **changes) if p.seat == seat else p for p in self.players)
        return replace(self, players=players)

    def current_pitcher(self) -> int:
        """The pitcher of the campaign under way (there is one from the first roll on)."""
        if self.pitcher is None:
            raise RuntimeError("no campaign has a pitcher yet")
        return self.pitcher

    def pending_filibuster(self) -> Filibuster:
        """The filibuster being settled, from the moment it is made until it is decided (there is none between)."""
        if self.filibuster is None:
            raise RuntimeError("no filibuster is being settled")
        return self.filibuster

    def value(self, card_id: str) -> int:
        return value_of(self.cards[card_id])

    def kind(self, card_id: str) -> str:
        return self.cards[card_id].type

    def in_play(self) -> set[str]:
        """Every card face up on the table: the Campaign, the stack, the Constants, the revealed cards."""
        shown = set(self.stack)
        if self.campaign_card is not None:
            shown.add(self.campaign_card)
        for player in self.players:
            shown.update(player.constants)
        if self.filibuster is not None:
            shown.update(card for _, card in self.filibuster.revealed)
        return shown
