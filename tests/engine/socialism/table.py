"""A game of Socialism in progress, for the tests: built from the project's own copy of the deck
(``decks/seed_data/socialism.json``), with helpers to arrange the grid and the hands by card title, to act as a
seat, and to say what the dice show."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from typing import Any

import pytest

from dvorak_engine import Actor, DomainError, Event, SeededRng, create_game, decide, evolve, legal_moves
from dvorak_engine.rulesets.socialism.board import (
    Identity,
    Placed,
    SocialismState,
    Turn,
    new_placed,
)
from tests.seeds import SEED_DATA

DECK_FILE = SEED_DATA / "socialism.json"


def deck() -> dict[str, Any]:
    return json.loads(DECK_FILE.read_text(encoding="utf-8"))


def rule(title: str) -> str:
    """A Special Rule's text, by its heading (the first, untitled, by "")."""
    return next(r["text"] for r in deck()["special_rules"] if r["title"] == title)


def card_text(title: str) -> str:
    return next(c["text"] for c in deck()["cards"] if c["title"] == title)


class LoadedDice(SeededRng):
    """The server's randomness with the dice said in advance: each six-sided roll is the next of ``rolls``
    (every other draw of randomness, a shuffle or a pick, stays seeded)."""

    def __init__(self, rolls: list[int], seed: int = 0) -> None:
        super().__init__(seed)
        self.rolls = list(rolls)

    def randbelow(self, n: int) -> int:
        if n == 6:
            assert self.rolls, "a die was rolled that the test did not expect"
            return self.rolls.pop(0) - 1
        return super().randbelow(n)


class Table:
    def __init__(self, players: int = 3, *, seed: int = 3, options: dict | None = None) -> None:
        self.rng = SeededRng(seed)
        self.people = [Actor(user_id=100 + seat, username=f"site{seat}") for seat in range(players)]
        self.events: list[Event] = []
        self.last: list[Event] = []
        self.state = None
        self._apply(
            create_game(
                ruleset="socialism",
                deck=deck(),
                variant="standard",
                creative=False,
                max_players=players,
                options=options or {},
                creator=self.people[0],
                rng=self.rng,
            )
        )
        for person in self.people[1:]:
            self._apply(decide(self.state, {"type": "join"}, actor=person, rng=self.rng))
        self._apply(decide(self.state, {"type": "start"}, actor=self.people[0], rng=self.rng))

    # --- acting -----------------------------------------------------------------------------------------------

    def _apply(self, events: list[Event]) -> list[Event]:
        for event in events:
            self.state = evolve(self.state, event)
        self.events += events
        self.last = events
        return events

    def send(self, seat: int, command: dict, dice: list[int] | None = None) -> list[Event]:
        rng = LoadedDice(dice or []) if dice is not None else self.rng
        events = self._apply(decide(self.state, command, actor=self.people[seat], rng=rng))
        if dice is not None:
            assert rng.rolls == [], f"dice {rng.rolls} were not rolled"
        return events

    def refuse(self, seat: int, command: dict, code: str) -> DomainError:
        before = copy.deepcopy(self.state)
        with pytest.raises(DomainError) as refused:
            decide(self.state, command, actor=self.people[seat], rng=LoadedDice([]))
        assert refused.value.code == code, refused.value.message
        assert self.state == before
        return refused.value

    def moves(self, seat: int) -> list[dict]:
        return legal_moves(self.state, seat)

    def of_type(self, event_type: str, events: list[Event] | None = None) -> list[dict]:
        return [e.data for e in (self.last if events is None else events) if e.type == event_type]

    # --- reading ----------------------------------------------------------------------------------------------

    @property
    def table(self) -> SocialismState:
        return self.state.table

    def card(self, title: str, nth: int = 0) -> str:
        return [c.id for c in self.table.cards.values() if c.title == title][nth]

    def title(self, card_id: str) -> str:
        return self.table.cards[card_id].title

    def hand(self, seat: int) -> list[str]:
        return [self.title(c) for c in self.table.player(seat).hand]

    def user(self, title: str, identity: int = 0) -> str:
        """The id of a User's identity on the grid (the second of Alan Sudo/Gerald Sock with ``identity`` 1)."""
        card = self.card(title)
        return next(p for p in self.table.grid if p.card == card).identities[identity].id

    def members(self, title: str, identity: int = 0) -> list[int]:
        card = self.card(title)
        return list(next(p for p in self.table.grid if p.card == card).identities[identity].members)

    def on(self, card_id: str, identity: int = 0) -> list[int]:
        """The seats whose tokens are on a User card on the grid (on one of its identities)."""
        return list(next(p for p in self.table.grid if p.card == card_id).identities[identity].members)

    def on_grid(self, title: str) -> bool:
        return any(self.title(p.card) == title for p in self.table.grid)

    def tokens(self, seat: int) -> int:
        return self.table.player(seat).tokens

    # --- arranging --------------------------------------------------------------------------------------------

    def _take(self, card: str) -> None:
        """The card out of wherever it is (its tokens back to their owners if it was on the grid)."""
        table = self.table
        players = []
        for player in table.players:
            players.append(
                replace(
                    player,
                    hand=tuple(c for c in player.hand if c != card),
                    in_front=tuple(c for c in player.in_front if c != card),
                )
            )
        for placed in table.grid:
            if placed.card == card:
                for identity in placed.identities:
                    for seat in identity.members:
                        players[seat] = replace(players[seat], tokens=players[seat].tokens + 1)
        self._set(
            players=tuple(players),
            grid=tuple(p for p in table.grid if p.card != card),
            draw_pile=tuple(c for c in table.draw_pile if c != card),
            discard_pile=tuple(c for c in table.discard_pile if c != card),
        )

    def _set(self, **changes: Any) -> None:
        self.state = self.state.with_table(**changes)

    def clear(self) -> Table:
        """Nothing on the grid, nothing in front of anyone, every hand back in the draw pile; tokens full."""
        table = self.table
        back = [c for p in table.players for c in (*p.hand, *p.in_front)] + [p.card for p in table.grid]
        self._set(
            players=tuple(replace(p, hand=(), in_front=(), tokens=table.tokens) for p in table.players),
            grid=(),
            viral_posts=(),
            acting_as={},
            pending=None,
            draw_pile=(*table.draw_pile, *back, *table.discard_pile),
            discard_pile=(),
        )
        return self

    def put(self, title: str, x: int, y: int, *members: int | tuple[int, ...], nth: int = 0) -> str:
        """A User on the grid at (x, y), with these seats' tokens on it (for Alan Sudo/Gerald Sock, one tuple of
        seats per identity)."""
        card = self.card(title, nth)
        self._take(card)
        placed = new_placed(self.table.cards[card], x, y)
        per_identity = (
            [m if isinstance(m, tuple) else (m,) for m in members]
            if len(placed.identities) > 1
            else [tuple(m for m in members if isinstance(m, int))]
        )
        per_identity += [()] * (len(placed.identities) - len(per_identity))
        identities = tuple(
            replace(identity, members=seats)
            for identity, seats in zip(placed.identities, per_identity, strict=True)
        )
        players = list(self.table.players)
        for seats in per_identity:
            for seat in seats:
                players[seat] = replace(players[seat], tokens=players[seat].tokens - 1)
        self._set(
            grid=(*self.table.grid, Placed(card=card, x=x, y=y, identities=identities)),
            players=tuple(players),
        )
        return card

    def give(self, seat: int, title: str, nth: int = 0) -> str:
        card = self.card(title, nth)
        self._take(card)
        player = self.table.player(seat)
        players = list(self.table.players)
        players[seat] = replace(player, hand=(*player.hand, card))
        self._set(players=tuple(players))
        return card

    def in_front(self, seat: int, title: str, nth: int = 0, acts_as: str | None = None) -> str:
        card = self.card(title, nth)
        self._take(card)
        players = list(self.table.players)
        players[seat] = replace(players[seat], in_front=(*players[seat].in_front, card))
        self._set(players=tuple(players))
        if acts_as is not None:
            self._set(acting_as={**self.table.acting_as, card: acts_as})
        return card

    def turn(self, seat: int, stage: str, played_user: str | None = None) -> Table:
        self._set(turn=Turn(seat=seat, stage=stage, played_user=played_user), pending=None)
        return self

    def tokens_left(self, seat: int, tokens: int) -> None:
        players = list(self.table.players)
        players[seat] = replace(players[seat], tokens=tokens)
        self._set(players=tuple(players))

    def identity(self, title: str, index: int = 0) -> Identity:
        card = self.card(title)
        return next(p for p in self.table.grid if p.card == card).identities[index]

    def without_sherman_act(self) -> Table:
        """The Sherman Act on the discard pile: no card played opens its window."""
        card = self.card("Sherman Act")
        self._take(card)
        self._set(discard_pile=(*self.table.discard_pile, card))
        return self
