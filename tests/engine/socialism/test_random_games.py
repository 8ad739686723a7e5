"""Whole games of Socialism played by random legal moves: every listed move is accepted, games end with a
winner, replay and snapshots give the state played, and no view shows a card its viewer may not see (a hand,
the draw pile)."""

from __future__ import annotations

import copy
import json
import random
import re
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from dvorak_engine import (
    Actor,
    DomainError,
    Event,
    GameState,
    SeededRng,
    create_game,
    decide,
    evolve,
    legal_moves,
    replay,
    state_from_json,
    state_to_json,
    view_event,
    view_state,
)
from dvorak_engine.rulesets.socialism.cards import ACTIONS, USERS, unreadable_cards
from tests.engine.socialism.table import deck
from tests.engine.test_legal_moves import filled
from tests.sizes import size

GAMES = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# The leak scan: 5 random games in `make test`, 30 in `make soak`, or SOCIALISM_LEAK_SCAN_GAMES.
LEAK_SCAN = settings(GAMES, max_examples=size("SOCIALISM_LEAK_SCAN_GAMES", 3, 30))
seeds = st.integers(min_value=0, max_value=2**32)
player_counts = st.integers(min_value=2, max_value=5)
MAX_COMMANDS = 12000  # a five-seat game has been seen to need some 3,600
CARD_ID = re.compile(r"[0-9a-f]{16}")


@dataclass
class Played:
    events: list[Event]
    states: list[GameState]
    people: list[Actor]

    @property
    def state(self) -> GameState:
        return self.states[-1]


def random_game(seed: int, players: int, *, steps: int = MAX_COMMANDS, options: dict | None = None) -> Played:
    rng, chooser = SeededRng(seed), random.Random(seed)
    people = [Actor(user_id=500 + n, username=f"site{n}") for n in range(players)]
    played = Played([], [], people)

    def apply(events: list[Event]) -> None:
        state = played.states[-1] if played.states else None
        for event in events:
            state = evolve(state, event)
            played.events.append(event)
            played.states.append(state)

    apply(
        create_game(
            ruleset="socialism",
            deck=deck(),
            variant="standard",
            creative=False,
            max_players=players,
            options=options or {},
            creator=people[0],
            rng=rng,
        )
    )
    for person in people[1:]:
        apply(decide(played.state, {"type": "join"}, actor=person, rng=rng))
    apply(decide(played.state, {"type": "start"}, actor=people[0], rng=rng))
    for _ in range(steps):
        offers = [(seat, moves) for seat in range(players) if (moves := legal_moves(played.state, seat))]
        if not offers:
            break
        seat, moves = chooser.choice(offers)
        command = filled(chooser.choice(moves), chooser)
        apply(decide(played.state, command, actor=people[seat], rng=rng))  # a listed move is never refused
    return played


@GAMES
@given(seed=seeds, players=player_counts)
@example(seed=166, players=5)  # a long game: some 3,600 commands to its end
def test_random_legal_games_end_with_the_first_to_place_all_tokens(seed, players):
    game = random_game(seed, players)
    state = game.state
    assert state.status == "finished", (
        f"not over after {len(game.events)} events: "
        + ("no moves left" if not any(legal_moves(state, seat) for seat in range(players)) else "still going"))
    [winner] = state.winners
    assert state.table.player(winner).tokens == 0
    assert all(player.tokens > 0 for player in state.table.players if player.seat != winner)
    placed = sum(len(identity.members) for card in state.table.grid for identity in card.identities)
    assert placed == sum(state.table.tokens - p.tokens for p in state.table.players)


@GAMES
@given(seed=seeds, players=player_counts)
def test_replaying_the_events_gives_the_state_built_step_by_step_and_snapshots_round_trip(seed, players):
    game = random_game(seed, players)
    assert replay(game.events) == game.state
    middle = len(game.events) // 2
    assert replay(game.events[middle:], game.states[middle - 1]) == game.state
    for state in game.states[::25] + [game.state]:
        assert state_from_json(json.loads(json.dumps(state_to_json(state)))) == state


@GAMES
@given(seed=seeds, players=player_counts, steps=st.integers(min_value=0, max_value=120))
def test_every_listed_move_is_accepted_and_a_refused_command_changes_nothing(seed, players, steps):
    game = random_game(seed, players, steps=steps)
    state = game.state
    frozen = copy.deepcopy(state)
    for seat in range(players):
        for move in legal_moves(state, seat):
            assert decide(
                state, filled(move, random.Random(seed)), actor=game.people[seat], rng=SeededRng(seed)
            )
        for command in (
            {"type": "draw"},
            {"type": "pass"},
            {"type": "end_turn"},
            {"type": "play", "card": "x"},
            {"type": "invite", "how": "spam", "user": "x"},
            {"type": "block"},
        ):
            if any(m == command for m in legal_moves(state, seat)):
                continue
            with pytest.raises(DomainError):
                decide(state, command, actor=game.people[seat], rng=SeededRng(seed))
    assert state == frozen


def visible_ids(state: GameState, viewer: int | None) -> set[str]:
    """The cards a viewer may see: the grid, what lies in front of the players, the discard pile, the card being
    played, and the viewer's own hand."""
    table = state.table
    if table is None or not table.cards:
        return set()
    seen = {card.card for card in table.grid} | set(table.discard_pile)
    for player in table.players:
        seen.update(player.in_front)
        if player.seat == viewer:
            seen.update(player.hand)
    if table.pending is not None:
        seen.add(table.pending.card)
    return seen


def ids_in(view: dict) -> set[str]:
    """Every card id in a view: the ids are 16 hexadecimal digits (an identity's id begins with its card's)."""
    return set(CARD_ID.findall(json.dumps(view)))


@LEAK_SCAN
@given(seed=seeds, players=player_counts)
def test_no_view_shows_a_card_in_a_hand_or_the_draw_pile_to_anyone_else(seed, players):
    game = random_game(seed, players)
    every = set(game.state.table.cards)
    before = None
    for event, after in zip(game.events, game.states, strict=True):
        for viewer in [None, *range(players)]:
            # A card seen a moment ago (Sloan, logged out into a hand) was seen: its id is no news.
            hidden = every - visible_ids(after, viewer) - (visible_ids(before, viewer) if before else set())
            assert not ids_in(view_state(after, viewer)) & hidden, (viewer, event.type)
            shown_event = view_event(event, viewer, before, after)
            assert not ids_in(shown_event) & hidden, (viewer, shown_event)
        before = after


def test_the_effect_table_has_every_card_of_the_deck_by_its_title():
    cards = deck()["cards"]
    assert {c["title"] for c in cards if c["type"] == "User" and c["text"]} <= set(USERS)
    assert {c["title"] for c in cards if c["type"] == "Action"} == set(ACTIONS)
    assert unreadable_cards(cards) == []


def test_a_deck_with_a_card_the_engine_cannot_carry_out_is_refused_with_its_titles():
    cards = [
        *deck()["cards"],
        {"title": "Poke", "type": "Action", "text": "Poke someone."},
        {"title": "Tom", "type": "User", "text": "Tom befriends everyone."},
        {"title": "Nobody", "type": "User", "text": ""},
    ]
    with pytest.raises(DomainError) as refused:
        create_game(
            ruleset="socialism",
            deck={**deck(), "cards": cards},
            variant="standard",
            creative=False,
            max_players=2,
            options={},
            creator=Actor(1, "ann"),
            rng=SeededRng(1),
        )
    assert refused.value.code == "denied" and refused.value.details["cards"] == ["Poke", "Tom"]


@pytest.mark.parametrize(
    "cards",
    [
        [],
        [{"title": "John Smith", "type": "User", "text": "", "copies": 5}],
        [{"title": "IPO", "type": "Action", "text": "", "copies": 9}],
    ],
)
def test_a_deck_without_users_or_three_cards_for_two_hands_is_refused_when_the_game_is_created(cards):
    with pytest.raises(DomainError) as refused:
        create_game(
            ruleset="socialism",
            deck={**deck(), "cards": cards},
            variant="standard",
            creative=False,
            max_players=2,
            options={},
            creator=Actor(1, "ann"),
            rng=SeededRng(1),
        )
    assert refused.value.code == "not_enough_cards" and refused.value.details["needed"] == 6
