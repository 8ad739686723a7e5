"""A booster draft in the engine: a card set (by default the project's Filibuster sample set, its cards given ids as
a card set's version gives them; or a set of cards carrying their rarity), seated, started, and helpers to pick as
a seat and to read what each seat holds."""

from __future__ import annotations

import json
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
    """The sample set as the service hands it to a draft: its latest version, each card with its id there."""
    deck = json.loads(SAMPLE_SET.read_text(encoding="utf-8"))
    for number, card in enumerate(deck["cards"]):
        card["id"] = 500 + number
    return {**deck, "version": 1}


def rarity_set(commons: int = 20, uncommons: int = 8, rares: int = 4, *, copies: int = 1) -> dict:
    """A set whose cards carry their rarity: ``C1``..., ``U1``..., ``R1``... (``stats.rarity`` 1, 2 and 3)."""
    cards = []
    for letter, rarity, count in (("C", 1, commons), ("U", 2, uncommons), ("R", 3, rares)):
        cards += [{"title": f"{letter}{n}", "type": "Thing", "text": "", "copies": copies, "stats": {"rarity": rarity}}
                  for n in range(1, count + 1)]
    for number, card in enumerate(cards):
        card["id"] = 900 + number
    return {"slug": "rare-set", "title": "Rare set", "kind": "card_set", "cards": cards, "special_rules": [],
            "version": 4}


class Draft:
    def __init__(self, players: int = 2, *, deck: dict | None = None, seed: int = 1, options: dict | None = None,
                 start: bool = True):
        self.rng = SeededRng(seed)
        self.people = [Actor(user_id=10 + seat, username=f"player{seat}") for seat in range(players)]
        self.events: list[Event] = []
        self.state: GameState | None = None
        self._apply(create_game(ruleset="draft", deck=deck or sample_set(), variant="standard", creative=False,
                                max_players=max(players, 2), options=options or {}, creator=self.people[0],
                                rng=self.rng))
        for person in self.people[1:]:
            self._apply(decide(self.state, {"type": "join"}, actor=person, rng=self.rng))
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

    def pack(self, seat: int) -> tuple[str, ...]:
        return self.table.player(seat).pack

    def picks(self, seat: int) -> tuple[str, ...]:
        return self.table.player(seat).picks

    def pick_each(self, choose=lambda pack: pack[0]) -> list[Event]:
        """Every seat still asked picks (by default the first card of its pack); the events of the last pick."""
        events: list[Event] = []
        for seat in list(self.state.choosing):
            events = self.send(seat, {"type": "pick", "card": choose(self.pack(seat))})
        return events
