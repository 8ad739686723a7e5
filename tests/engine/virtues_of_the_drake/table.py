"""A Virtues of the Drake game in progress for the rules tests, with its cards laid out by title.

The test deck has cards of unique titles, so a test names a card by its title: "Maiden 3" is a Maiden of chastity
3, "Knight 5" a Knight of strength 5 and wealth 5, "Treasure 2" a Treasure of value 2; a test adds cards of its own
(an action card, the Sangria All).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from dvorak_engine import Actor, SeededRng, create_game, decide, evolve
from dvorak_engine.events import Event
from dvorak_engine.game import legal_moves
from dvorak_engine.rulesets.virtues_of_the_drake.cards import DECKS, LOCATIONS, VIRTUES
from dvorak_engine.rulesets.virtues_of_the_drake.ruleset import Turn
from dvorak_engine.state import GameState
from tests.engine.test_legal_moves import filled

RULESET = "virtues_of_the_drake"
SAMPLE = Path(__file__).resolve().parents[3] / "decks" / "sample_data" / "virtues-of-the-drake-sample.json"


def sample_deck() -> dict:
    return json.loads(SAMPLE.read_text(encoding="utf-8"))


def card(title: str, card_type: str, text: str = "", copies: int = 1, **stats: int) -> dict:
    return {"title": title, "type": card_type, "text": text, "copies": copies, "stats": stats}


def drake_deck(*extra: dict, per_deck: int = 9) -> dict:
    cards = [card(virtue, "Virtue") for virtue in VIRTUES]
    for n in range(1, per_deck + 1):
        cards += [card(f"Maiden {n}", "Maiden", chastity=n), card(f"Knight {n}", "Knight", strength=n, wealth=n),
                  card(f"Treasure {n}", "Treasure", value=n)]
    return {"slug": "drake-test", "title": "Drake test deck", "ruleset": RULESET, "cards": [*cards, *extra]}


class Table:
    def __init__(self, players: int = 4, *, deck: dict | None = None, seed: int = 3):
        self.rng = SeededRng(seed)
        self.people = [Actor(user_id=10 + seat, username=f"player{seat}") for seat in range(players)]
        self.events: list[Event] = []
        self.state: GameState | None = None
        self._apply(create_game(ruleset=RULESET, deck=deck or drake_deck(), variant="standard", creative=False,
                                max_players=players, options={}, creator=self.people[0], rng=self.rng))
        for person in self.people[1:]:
            self._apply(decide(self.state, {"type": "join"}, actor=person, rng=self.rng))
        self.send(0, {"type": "start"})

    def _apply(self, events: list[Event]) -> list[Event]:
        for event in events:
            self.events.append(event)
            self.state = evolve(self.state, event)
        return events

    @property
    def table(self):
        return self.state.table

    def send(self, seat: int, body: dict) -> list[Event]:
        return self._apply(decide(self.state, body, actor=self.people[seat], rng=self.rng))

    def id_of(self, title: str) -> str:
        [found] = [c.id for c in self.table.cards.values() if c.title == title]
        return found

    def title_of(self, card_id: str) -> str:
        return self.table.cards[card_id].title

    def titles(self, ids) -> list[str]:
        return [self.title_of(card_id) for card_id in ids]

    def seat_of(self, virtue: str) -> int:
        return self.table.virtues[virtue]

    @property
    def turn(self) -> Turn:
        return self.table.turn

    def moves(self, seat: int | None = None) -> list[dict[str, Any]]:
        return legal_moves(self.state, self.turn.seat if seat is None else seat)

    def act(self, body: dict) -> list[Event]:
        """The command, sent by the player whose turn it is."""
        return self.send(self.turn.seat, body)

    def arrange(self, *, turn: str | None = None, stage: str = "play", **zones: list[str]) -> Table:
        """Lay the named zones out by title (decks top first, locations left to right, ``maiden``/``knight`` in
        play, discards as ``<deck>_discards``); the turn goes to the Virtue ``turn`` at ``stage``. A card named
        leaves the zone it was in."""
        table = self.table
        named = {self.id_of(title) for titles in zones.values() for title in titles}
        decks = {deck: tuple(c for c in table.decks[deck] if c not in named) for deck in DECKS}
        discards = {deck: tuple(c for c in table.discards[deck] if c not in named) for deck in DECKS}
        locations = {name: tuple(c for c in table.location(name) if c not in named) for name in LOCATIONS}
        in_play = {slot: c for slot, c in table.in_play.items() if c not in named}
        for zone, titles in zones.items():
            ids = tuple(self.id_of(title) for title in titles)
            if zone in DECKS:
                decks[zone] = ids
            elif zone.endswith("_discards"):
                discards[zone.removesuffix("_discards")] = ids
            elif zone in LOCATIONS:
                locations[zone] = ids
            else:
                if ids:
                    in_play[zone] = ids[0]
                else:
                    in_play.pop(zone, None)
        virtue = turn or table.turn.virtue
        self.state = self.state.with_table(decks=decks, discards=discards, in_play=in_play, **locations,
                                           turn=Turn(seat=table.virtues[virtue], virtue=virtue, stage=stage))
        return self


def random_game(seed: int, players: int, deck: dict | None = None, *, check=None) -> Table:
    """A whole game of random listed moves; ``check(table)`` is called before each."""
    chooser = random.Random(seed)
    game = Table(players, deck=deck or sample_deck(), seed=seed)
    for _ in range(2000):
        if check:
            check(game)
        offers = [seat for seat in range(players) if game.moves(seat)]
        if not offers:
            break
        seat = chooser.choice(offers)
        game.send(seat, filled(chooser.choice(game.moves(seat)), chooser))
    return game

