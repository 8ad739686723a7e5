"""A Filibuster game in the engine, with helpers to arrange the cards by title and send commands as a seat.

Its decks are the project's own sample set (``decks/sample_data/filibuster-sample-set.json``) unless a test gives
another. The engine is given the variant as the service gives it: ``standard`` here unless a test says ``ccg``
(the ruleset's default, which the service fills in when a client names none).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from dvorak_engine import (
    Actor,
    DomainError,
    Event,
    SeededRng,
    create_game,
    decide,
    evolve,
    legal_moves,
    view_state,
)
from dvorak_engine.state import GameState

SAMPLE_SET = Path(__file__).resolve().parents[3] / "decks" / "sample_data" / "filibuster-sample-set.json"


def sample_set() -> dict:
    return json.loads(SAMPLE_SET.read_text(encoding="utf-8"))


class Table:
    def __init__(self, players: int = 2, *, deck: dict | None = None, seed: int = 3, variant: str = "standard",
                 joins: list[dict] | None = None, options: dict | None = None, start: bool = True):
        self.rng = SeededRng(seed)
        self.people = [Actor(user_id=10 + seat, username=f"player{seat}") for seat in range(players)]
        self.events: list[Event] = []
        self.state: GameState | None = None
        joins = joins or [{} for _ in self.people]
        self._apply(create_game(ruleset="filibuster", deck=deck or sample_set(), variant=variant, creative=False,
                                max_players=max(players, 2), options={**(options or {}), **joins[0]},
                                creator=self.people[0], rng=self.rng))
        for person, join in zip(self.people[1:], joins[1:], strict=True):
            self._apply(decide(self.state, {"type": "join", **join}, actor=person, rng=self.rng))
        if start:
            self.send(0, {"type": "start"})

    def _apply(self, events: list[Event]) -> list[Event]:
        for event in events:
            self.state = evolve(self.state, event)
        self.events.extend(events)
        return events

    @property
    def table(self):
        return self.state.table

    def send(self, seat: int, body: dict) -> list[Event]:
        return self._apply(decide(self.state, body, actor=self.people[seat], rng=self.rng))

    def refused(self, seat: int, body: dict) -> DomainError:
        with pytest.raises(DomainError) as refusal:
            decide(self.state, body, actor=self.people[seat], rng=self.rng)
        return refusal.value

    def moves(self, seat: int) -> list[dict]:
        return legal_moves(self.state, seat)

    def view(self, seat: int | None) -> dict:
        return view_state(self.state, seat)

    def types(self, events: list[Event]) -> list[str]:
        return [event.type for event in events]

    # --- arranging the table ------------------------------------------------------------------------------------

    def card(self, seat: int, title: str, nth: int = 0) -> str:
        """The id of a copy of ``title`` in ``seat``'s own deck."""
        found = sorted(card_id for card_id, card in self.table.cards.items()
                       if card.title == title and self.table.owners[card_id] == seat)
        return found[nth]

    def hand(self, seat: int, *titles: str) -> list[str]:
        """Make ``seat``'s hand exactly these cards (copies from its own deck; the old hand goes to its draw pile).
        Returns their ids."""
        table = self.table
        counts: dict[str, int] = {}
        ids = []
        for title in titles:
            ids.append(self.card(seat, title, counts.get(title, 0)))
            counts[title] = counts.get(title, 0) + 1
        player = table.player(seat)
        everything = [*player.hand, *player.draw_pile, *player.discard_pile]
        rest = tuple(card for card in everything if card not in ids)
        players = table.with_player(seat, hand=tuple(ids), draw_pile=rest, discard_pile=()).players
        self.state = self.state.with_table(players=players)
        return ids

    def points(self, seat: int, points: int) -> None:
        self.state = self.state.with_table(players=self.table.with_player(seat, points=points).players)

    def pitch(self, seat: int) -> None:
        """Make ``seat`` the pitcher, first in the dice's order."""
        order = (seat, *(s for s in self.table.order if s != seat))
        self.state = self.state.with_table(pitcher=seat, order=order)

    def reopen_window(self) -> None:
        """Ask the non-pitchers again, as at the beginning of the current step (after arranging hands)."""
        table = self.table
        window = tuple(p.seat for p in table.players if p.seat != table.pitcher and p.hand)
        self.state = replace(self.state, table=replace(table, window=window, phase="filibuster_window",
                                                       filibustered=()))

    def pass_window(self) -> None:
        for seat in list(self.table.window):
            self.send(seat, {"type": "pass"})


def points_of(title: str) -> int:
    """The points a sample card gives its player (its ``stats.points``)."""
    return next(card for card in sample_set()["cards"] if card["title"] == title)["stats"]["points"]
