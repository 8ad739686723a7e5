"""Whole games played by random legal moves, in every Variant of Dvorak: replay, snapshots and hidden information
hold at every step."""

from __future__ import annotations

import copy
import json

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dvorak_engine import (
    DomainError,
    SeededRng,
    decide,
    evolve,
    replay,
    state_from_json,
    state_to_json,
    state_to_json_bytes,
    view_event,
    view_state,
)
from dvorak_engine.rulesets.dvorak.state import VARIANTS, cards_in_the_deck, cards_in_zones
from tests.engine.dvorak_games import (
    actors,
    legal_commands,
    public_titles,
    random_game,
    visible_titles_and_ids,
)
from tests.sizes import size

GAMES = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# The leak scan: 25 random games in `make test`, 300 in `make soak`, or LEAK_SCAN_GAMES.
LEAK_SCAN = settings(GAMES, max_examples=size("LEAK_SCAN_GAMES", 15, 300))
seeds = st.integers(min_value=0, max_value=2**32)
player_counts = st.integers(min_value=2, max_value=5)
creative_games = st.booleans()
variants = st.sampled_from(VARIANTS)


def seated(players: int, variant: str) -> int:
    """A team game needs three players or more."""
    return max(players, 3) if variant == "team" else players


@GAMES
@given(seed=seeds, players=player_counts, creative=creative_games, variant=variants)
def test_replaying_the_events_gives_the_state_built_step_by_step(seed, players, creative, variant):
    players = seated(players, variant)
    game = random_game(seed, players=players, steps=150, creative=creative, variant=variant)
    assert replay(game.events) == game.state
    middle = len(game.events) // 2
    assert replay(game.events[middle:], game.states[middle - 1]) == game.state


@GAMES
@given(seed=seeds, players=player_counts, creative=creative_games, variant=variants)
def test_a_snapshot_round_trips_through_json_exactly(seed, players, creative, variant):
    players = seated(players, variant)
    game = random_game(seed, players=players, steps=150, creative=creative, variant=variant)
    for state in game.states[::10] + [game.state]:
        snapshot = json.loads(json.dumps(state_to_json(state)))
        assert state_from_json(snapshot) == state
        # Written out straight from the dataclasses (the snapshot writer's way), the same JSON, byte for byte.
        assert state_to_json_bytes(state) == orjson.dumps(state_to_json(state))


@LEAK_SCAN
@given(seed=seeds, players=player_counts, creative=creative_games, variant=variants)
def test_no_view_shows_a_card_its_viewer_cannot_see(seed, players, creative, variant):
    players = seated(players, variant)
    game = random_game(seed, players=players, steps=120, creative=creative, variant=variant)
    every_card = {card_id for state in game.states if state for card_id in state.table.cards} | {
        c.title for state in game.states if state for c in state.table.cards.values()}
    before = None
    for event, after in zip(game.events, game.states, strict=True):
        # What was proposed is read by everyone who votes; ids of hidden cards must still never show.
        public = public_titles(after)
        for viewer in [None, *range(players)]:
            allowed = visible_titles_and_ids(after, viewer) | public
            if before is not None:
                allowed |= visible_titles_and_ids(before, viewer)
            if event.type == "card.revealed":
                revealed = event.data["card"]
                allowed |= {revealed, after.table.cards[revealed].title}
            _assert_shows_nothing_of(view_event(event, viewer, before, after), every_card - allowed)
            _assert_shows_nothing_of(view_state(after, viewer),
                                     every_card - visible_titles_and_ids(after, viewer) - public)
        before = after


def _assert_shows_nothing_of(view: dict, hidden: set[str]) -> None:
    text = json.dumps(view)
    leaked = [secret for secret in hidden if secret in text]
    assert not leaked, f"{leaked} leaked in {text[:300]}"


@GAMES
@given(seed=seeds, players=player_counts, creative=creative_games, variant=variants)
def test_every_listed_legal_command_is_accepted_and_changes_nothing_until_applied(seed, players, creative, variant):
    players = seated(players, variant)
    game = random_game(seed, players=players, steps=60, creative=creative, variant=variant)
    people = actors(players)
    state = game.state
    frozen = copy.deepcopy(state)
    for seat in range(players):
        for command in legal_commands(state, seat):
            events = decide(state, command, actor=people[seat], rng=SeededRng(seed))
            assert events, command
            for event in events:
                evolve(state, event)  # applying to the same state must not change it
    assert state == frozen


@GAMES
@given(seed=seeds, players=player_counts, creative=creative_games, variant=variants)
def test_a_refused_command_produces_no_events_and_leaves_the_state_alone(seed, players, creative, variant):
    players = seated(players, variant)
    game = random_game(seed, players=players, steps=40, creative=creative, variant=variant)
    state = game.state
    frozen = copy.deepcopy(state)
    refused = 0
    for person in actors(players):
        for command in ({"type": "draw"}, {"type": "end_turn"}, {"type": "play", "card": "nope"}):
            try:
                decide(state, command, actor=person, rng=SeededRng(seed))
            except DomainError as error:
                refused += 1
                assert 400 <= error.status < 500
    assert refused >= players
    assert state == frozen


def test_two_to_five_players_play_long_games_to_the_end_without_errors():
    finished = 0
    for seed in range(40):
        variant = VARIANTS[seed % len(VARIANTS)]
        game = random_game(seed, players=seated(2 + seed % 4, variant), steps=400, creative=seed % 2 == 1,
                           variant=variant)
        finished += game.state.status == "finished"
        # No card is lost or doubled, whatever piles the variant has.
        assert sorted(cards_in_zones(game.state)) == sorted(cards_in_the_deck(game.state))
    assert finished > 0
