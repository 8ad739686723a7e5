"""A game of Rock Paper Scissors Extreme in progress, for the tests: built from the project's own copy of the deck
(``decks/seed_data``), with helpers to arrange the table by card title and to act as a seat."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from typing import Any

import pytest

from dvorak_core.errors import DomainError
from dvorak_engine.rng import SeededRng
from dvorak_engine.rulesets import rock_paper_scissors_extreme as rpsx
from dvorak_engine.rulesets.rock_paper_scissors_extreme.board import Board
from tests.seeds import SEED_DATA

DECK_FILE = SEED_DATA / "rock-paper-scissors-extreme-deck.json"


def deck() -> dict[str, Any]:
    return json.loads(DECK_FILE.read_text())


def deck_card(title: str) -> dict[str, Any]:
    return next(card for card in deck()["cards"] if card["title"] == title)


def notes() -> list[str]:
    """The paragraphs of the deck's Notes."""
    section = next(rule for rule in deck()["special_rules"] if rule["title"] == "Notes")
    return [paragraph.strip() for paragraph in section["text"].split("\n\n") if paragraph.strip()]


def fold(events: list[dict], board: Board | None = None) -> Board:
    for event in events:
        board = rpsx.evolve(board, event)
    return board


def fill(move: dict[str, Any], pick) -> dict[str, Any]:
    """A listed move with each ``{"choose", "from", "list"}`` field filled by ``pick(values, k)``."""
    command = {}
    for field, value in move.items():
        if isinstance(value, dict) and "choose" in value:
            picked = pick(value["from"], value["choose"])
            command[field] = picked if value["list"] else picked[0]
        else:
            command[field] = value
    return command


class Match:
    def __init__(self, seed: int = 1, cards: list[dict] | None = None) -> None:
        self.rng = SeededRng(seed)
        self.events = rpsx.setup(deck()["cards"] if cards is None else cards, [0, 1], self.rng)
        self.board = fold(self.events)

    # --- cards by title ---

    def card(self, title: str) -> str:
        return next(card.id for card in self.board.cards.values() if card.title == title)

    def title(self, card_id: str) -> str:
        return self.board.cards[card_id].title

    def titles(self, card_ids) -> list[str]:
        return [self.title(card_id) for card_id in card_ids]

    def items(self, seat: int) -> list[str]:
        return self.titles(self.board.player(seat).items)

    def points(self, seat: int) -> int:
        return self.board.player(seat).points

    def center(self) -> list[str]:
        return self.titles(self.board.center)

    def discard_pile(self) -> list[str]:
        return self.titles(self.board.discard_pile)

    def arrange(self, *, items: dict[int, list[str]] | None = None, center: list[str] | None = None,
                points: dict[int, int] | None = None, supply: list[str] | None = None,
                discard_pile: list[str] | None = None) -> Match:
        """Put the named cards where a test needs them, at the start of a challenge. A named zone holds exactly
        the cards named; cards pushed out go to the bottom of the supply (to the discard pile when the supply is
        named, and out of the game when both are)."""
        board = self.board
        named = {self.card(t) for group in [*(items or {}).values(), center or [], supply or [], discard_pile or []]
                 for t in group}

        def zone(current, titles):
            return tuple(self.card(t) for t in titles) if titles is not None else tuple(
                c for c in current if c not in named)

        players = tuple(
            replace(p, items=zone(p.items, (items or {}).get(p.seat)), points=(points or {}).get(p.seat, p.points))
            for p in board.players)
        new_center = zone(board.center, center)
        new_supply = zone(board.supply, supply)
        new_discard = zone(board.discard_pile, discard_pile)
        placed = {c for p in players for c in p.items} | set(new_center) | set(new_supply) | set(new_discard)
        leftovers = tuple(c for c in board.cards if c not in placed)
        if supply is None:
            new_supply += leftovers
        elif discard_pile is None:
            new_discard += leftovers
        self.board = replace(board, players=players, center=new_center, supply=new_supply,
                             discard_pile=new_discard)
        return self

    # --- acting as a seat ---

    def send(self, seat: int, command: dict[str, Any]) -> list[dict]:
        events = rpsx.decide(self.board, seat, command, self.rng)
        self.board = fold(events, self.board)
        self.events.extend(events)
        return events

    def refuse(self, seat: int, command: dict[str, Any], code: str) -> DomainError:
        """Send a command the rules must refuse: it raises ``code`` and changes nothing."""
        before = copy.deepcopy(self.board)
        with pytest.raises(DomainError) as refused:
            rpsx.decide(self.board, seat, command, self.rng)
        assert refused.value.code == code, refused.value.message
        assert self.board == before
        return refused.value

    def throw(self, sign0: str, sign1: str) -> list[dict]:
        return self.send(0, {"type": "throw", "sign": sign0}) + self.send(1, {"type": "throw", "sign": sign1})

    def drink(self, seat: int, title: str, simulate: str | None = None) -> list[dict]:
        command = {"type": "drink", "potion": self.card(title)}
        if simulate:
            command["simulate"] = self.card(simulate)
        return self.send(seat, command)

    def pass_(self, seat: int) -> list[dict]:
        return self.send(seat, {"type": "pass"})

    def claim(self, seat: int, choice: str, *, break_: str | None = None, steal: str | None = None) -> list[dict]:
        command = {"type": "claim", "choice": choice}
        if break_:
            command["break"] = self.card(break_)
        if steal:
            command["steal"] = self.card(steal)
        return self.send(seat, command)

    def draw(self, seat: int, title: str) -> list[dict]:
        return self.send(seat, {"type": "draw", "card": self.card(title)})

    def discard(self, seat: int, title: str) -> list[dict]:
        return self.send(seat, {"type": "discard", "cards": [self.card(title)]})

    def moves(self, seat: int) -> list[dict]:
        return rpsx.legal_moves(self.board, seat)

    def waiting_for(self) -> list[int]:
        return rpsx.active_seats(self.board)


def types(events: list[dict]) -> list[str]:
    return [event["type"] for event in events]
