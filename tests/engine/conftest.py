"""Fixtures for the engine's tests: pure Python, no database.

The rules tests play with the example cards printed in the rulebook (``tests/fixtures``), a few cards that change
rules (``RULE_CARDS``), and plain cards of unique titles so there is enough to deal.
"""

from __future__ import annotations

import copy
from dataclasses import replace

import pytest

from dvorak_engine import Actor, DomainError, Event, SeededRng, create_game, decide, evolve
from dvorak_engine.rulesets.dvorak.state import PLAY, Turn, locate
from dvorak_engine.state import ACTIVE, GameState
from tests.engine.dvorak_games import unique_title_deck
from tests.seeds import rulebook_example_cards

# Cards that change rules, as the rulebook describes them ("Hand size is three instead of five", "Players may
# not take cards from the discard pile") but prints none of: a Thing of each kind and an Action.
RULE_CARDS = [
    {"title": "Greedy Goblin", "type": "Thing", "text": "Your hand limit is 7."},
    {"title": "Red Tape", "type": "Thing", "text": "Players may not play Things."},
    {"title": "Overtime", "type": "Action", "text": "Any number of Actions may be played this turn."},
]


def rulebook_deck(special_rules: list[dict] | None = None) -> dict:
    deck = unique_title_deck(20, special_rules=special_rules)
    rule_cards = [{**deck["cards"][0], **card} for card in RULE_CARDS]
    deck["cards"] = rulebook_example_cards() + rule_cards + [{**card, "text": ""} for card in deck["cards"]]
    return deck


class Table:
    """A game in progress, with helpers to arrange the cards by title and send commands as a seat."""

    def __init__(self, players: int = 2, *, deck: dict | None = None, seed: int = 7, options: dict | None = None,
                 creative: bool = False, variant: str = "standard", joins: list[dict] | None = None):
        """``joins``: what each seat adds to its join (the creator's goes into the options), e.g. its team."""
        self.rng = SeededRng(seed)
        self.people = [Actor(user_id=10 + seat, username=f"player{seat}") for seat in range(players)]
        self.events: list[Event] = []
        self.state: GameState | None = None
        joins = joins or [{} for _ in self.people]
        self._apply(create_game(ruleset="dvorak", deck=deck or rulebook_deck(), variant=variant,
                                creative=creative, max_players=max(players, 2), options={**(options or {}), **joins[0]},
                                creator=self.people[0], rng=self.rng))
        for person, join in zip(self.people[1:], joins[1:], strict=True):
            self.send_as(person, {"type": "join", **join})

    def start(self) -> Table:
        self.send(0, {"type": "start"})
        return self

    def _apply(self, events: list[Event]) -> list[Event]:
        for event in events:
            self.events.append(event)
            self.state = evolve(self.state, event)
        return events

    def send_as(self, actor: Actor, command: dict) -> list[Event]:
        return self._apply(decide(self.state, command, actor=actor, rng=self.rng))

    def send(self, seat: int, command: dict) -> list[Event]:
        return self.send_as(self.people[seat], command)

    def refuse(self, seat: int, command: dict, code: str) -> DomainError:
        """Send a command the rules must refuse: it raises ``code`` and leaves the state as it was."""
        before = copy.deepcopy(self.state)
        with pytest.raises(DomainError) as refused:
            decide(self.state, command, actor=self.people[seat], rng=self.rng)
        assert refused.value.code == code, refused.value.message
        assert self.state == before
        return refused.value

    def as_first_reading(self) -> Table:
        """The same game as if created before the rulebook's second reading (``game.created`` without its
        ``reading`` stamp), replayed: how a game stored before it plays."""
        created = self.events[0]
        events = [Event(created.type, {k: v for k, v in created.data.items() if k != "reading"}, created.schema),
                  *self.events[1:]]
        old = copy.copy(self)
        old.events, old.state = [], None
        old._apply(events)
        return old

    def card(self, title: str) -> str:
        return next(card.id for card in self.state.table.cards.values() if card.title == title)

    def title(self, card_id: str) -> str:
        return self.state.table.cards[card_id].title

    def titles(self, card_ids) -> list[str]:
        return [self.title(card_id) for card_id in card_ids]

    def hand(self, seat: int) -> list[str]:
        return self.titles(self.state.table.player(seat).hand)

    def in_play(self, seat: int) -> list[str]:
        return self.titles(self.state.table.player(seat).in_play)

    def discard_pile(self) -> list[str]:
        return self.titles(self.state.table.discard_pile)

    def where(self, title: str) -> str:
        return locate(self.state, self.card(title)).zone

    def arrange(self, *, hands: dict[int, list[str]] | None = None, in_play: dict[int, list[str]] | None = None,
                draw_pile: list[str] | None = None, discard_pile: list[str] | None = None,
                turn: int | None = None, stage: str = PLAY) -> None:
        """Put the named cards where a test needs them (tops of piles last). A hand, Things in play or a pile
        that is named holds exactly the cards named; cards pushed out go to the bottom of the draw pile, or out
        of the game when the draw pile itself is named."""
        state = self.state
        named = {self.card(t) for group in [*(hands or {}).values(), *(in_play or {}).values(),
                                           draw_pile or [], discard_pile or []] for t in group}
        players = []
        for player in state.table.players:
            hand = [c for c in player.hand if c not in named]
            if hands and player.seat in hands:
                hand = [self.card(t) for t in hands[player.seat]]
            things = [c for c in player.in_play if c not in named]
            if in_play and player.seat in in_play:
                things = [self.card(t) for t in in_play[player.seat]]
            players.append(replace(player, hand=tuple(hand), in_play=tuple(things)))
        draw = [c for c in state.table.draw_pile if c not in named]
        if draw_pile is not None:
            draw = [self.card(t) for t in draw_pile]
        discard = [c for c in state.table.discard_pile if c not in named]
        if discard_pile is not None:
            discard = [self.card(t) for t in discard_pile]
        placed = {c for p in players for c in (*p.hand, *p.in_play)} | set(draw) | set(discard)
        # Cards displaced from a replaced hand or pile go to the bottom of the draw pile.
        leftovers = [c for c in state.table.cards if c not in placed]
        self.state = replace(state, status=ACTIVE).with_table(
            players=tuple(players), draw_pile=tuple(leftovers if draw_pile is None else []) + tuple(draw),
            discard_pile=tuple(discard), turn=Turn(seat=state.table.turn.seat if turn is None else turn, stage=stage),
        )


@pytest.fixture
def table() -> Table:
    return Table(players=3).start()
