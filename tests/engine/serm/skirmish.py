"""A game of S.E.R.M. in progress, for the tests: created from the project's own copy of the deck
(``decks/seed_data``), with helpers to stand soldiers where a rule needs them, to load the dice the server will
roll, and to act as a seat."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from typing import Any

from dvorak_engine import (
    Actor,
    Event,
    SeededRng,
    create_game,
    decide,
    evolve,
    legal_moves,
    replay,
    view_state,
)
from dvorak_engine.rulesets.serm.table import BATTLE, Activation, Soldier
from dvorak_engine.state import GameState
from tests.seeds import SEED_DATA

DECK_FILE = SEED_DATA / "simplistic-wargame-with-four-stats-s-e-r-m.json"
PEOPLE = (Actor(user_id=1, username="ann"), Actor(user_id=2, username="bob"))


def deck() -> dict[str, Any]:
    return json.loads(DECK_FILE.read_text(encoding="utf-8"))


def special_rule(title: str) -> str:
    return next(rule["text"] for rule in deck()["special_rules"] if rule["title"] == title)


def card_text(title: str) -> str:
    return next(card["text"] for card in deck()["cards"] if card["title"] == title)


class Dice:
    """The server's randomness with its dice loaded: each die shows the next face of ``faces``; anything else
    (the first initiative) comes from a seeded source. The tests check every loaded face was rolled."""

    def __init__(self, faces: list[int] | None = None, seed: int = 3) -> None:
        self.faces = list(faces or [])
        self.other = SeededRng(seed)

    def randbelow(self, n: int) -> int:
        if n == 6 and self.faces:
            return self.faces.pop(0) - 1
        assert n != 6, "a die was rolled that the test did not load"
        return self.other.randbelow(n)

    def shuffle(self, items: list) -> None:
        self.other.shuffle(items)

    def token_hex(self, nbytes: int) -> str:
        return self.other.token_hex(nbytes)


class Skirmish:
    """A started two-player game. ``events`` is everything that happened, ``state`` its fold."""

    def __init__(self, options: dict | None = None, *, the_deck: dict | None = None, first: int = 0) -> None:
        rng = SeededRng(1)
        self.events: list[Event] = create_game(
            ruleset="serm", deck=the_deck or deck(), variant="standard", creative=False, max_players=2,
            options=options or {}, creator=PEOPLE[0], rng=rng)
        self.state: GameState = replay(self.events)
        self.apply(decide(self.state, {"type": "join"}, actor=PEOPLE[1], rng=rng))
        self.apply(decide(self.state, {"type": "start"}, actor=PEOPLE[0], rng=rng))
        if self.state.table.phase == BATTLE:
            self.give_initiative(first)

    def apply(self, events: list[Event]) -> list[Event]:
        for event in events:
            self.state = evolve(self.state, event)
            self.events.append(event)
        return events

    # --- arranging the table (the tests' own shortcut past the moves that would get there) ---

    def arrange(self, **placed: tuple[int, int, str]) -> None:
        """Only these soldiers on the field, each at ``(x, y, facing)``; ids are written with ``_`` for ``-``
        (``ranger_0`` is seat 0's Ranger, ``0-ranger``)."""
        table = self.state.table
        soldiers = []
        for name, (x, y, facing) in placed.items():
            soldier_id = self.id_of(name)
            known = next(s for s in (*table.soldiers, *table.fallen) if s.id == soldier_id)
            soldiers.append(replace(known, x=x, y=y, facing=facing))
        self.state = self.state.with_table(soldiers=tuple(soldiers))

    def add(self, soldier_id: str, seat: int, title: str, x: int, y: int, facing: str) -> None:
        """One more soldier on the field (a second of a kind, as a force built with points may have)."""
        soldier = Soldier(id=soldier_id, seat=seat, title=title, x=x, y=y, facing=facing)
        self.state = self.state.with_table(soldiers=(*self.state.table.soldiers, soldier))

    def give_initiative(self, seat: int) -> None:
        self.state = self.state.with_table(initiative=seat, activation=Activation(seat=seat))

    @staticmethod
    def id_of(name: str) -> str:
        title, seat = name.rsplit("_", 1)
        return f"{seat}-{title.replace('_', '-')}"

    # --- playing ---

    def send(self, seat: int, command: dict, dice: list[int] | None = None) -> list[Event]:
        """The command from ``seat``, the server rolling the loaded dice (all of them, no more)."""
        rng = Dice(dice)
        events = decide(self.state, command, actor=PEOPLE[seat], rng=rng)
        assert not rng.faces, f"dice loaded but not rolled: {rng.faces}"
        return self.apply(events)

    def moves(self, seat: int) -> list[dict]:
        return legal_moves(self.state, seat)

    def view(self, seat: int | None = 0) -> dict:
        return view_state(self.state, seat)

    def soldier(self, name: str) -> Soldier | None:
        return self.state.table.soldier(self.id_of(name))

    def at(self, name: str) -> tuple[int, int, str] | None:
        soldier = self.soldier(name)
        return None if soldier is None else (soldier.x, soldier.y, soldier.facing)

    @property
    def table(self):
        return self.state.table


def of_type(events: list[Event], event_type: str) -> list[dict]:
    return [copy.deepcopy(event.data) for event in events if event.type == event_type]


def types(events: list[Event]) -> list[str]:
    return [event.type for event in events]
