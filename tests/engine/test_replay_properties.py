"""Whole games played by random legal moves: replay, snapshots and hidden information hold at every step."""

from __future__ import annotations

import copy
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    DomainError,
    SeededRng,
    decide,
    evolve,
    replay,
    state_from_json,
    state_to_json,
    view_event,
    view_state,
)
from games.engine.state import cards_in_the_deck
from games.engine.testing import actors, legal_commands, public_titles, random_game, visible_titles_and_ids

GAMES = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32)
player_counts = st.integers(min_value=2, max_value=5)
creative_games = st.booleans()


@GAMES
@given(seed=seeds, players=player_counts, creative=creative_games)
def test_replaying_the_events_gives_the_state_built_step_by_step(seed, players, creative):
    game = random_game(seed, players=players, steps=150, creative=creative)
    assert replay(game.events) == game.state
    middle = len(game.events) // 2
    assert replay(game.events[middle:], game.states[middle - 1]) == game.state


@GAMES
@given(seed=seeds, players=player_counts, creative=creative_games)
def test_a_snapshot_round_trips_through_json_exactly(seed, players, creative):
    game = random_game(seed, players=players, steps=150, creative=creative)
    for state in game.states[::10] + [game.state]:
        snapshot = json.loads(json.dumps(state_to_json(state)))
        assert state_from_json(snapshot) == state


@GAMES
@given(seed=seeds, players=player_counts, creative=creative_games)
def test_no_view_shows_a_card_its_viewer_cannot_see(seed, players, creative):
    game = random_game(seed, players=players, steps=120, creative=creative)
    every_card = {card_id for state in game.states if state for card_id in state.cards} | {
        c.title for state in game.states if state for c in state.cards.values()}
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
                allowed |= {revealed, after.cards[revealed].title}
            _assert_shows_nothing_of(view_event(event, viewer, before, after), every_card - allowed)
            _assert_shows_nothing_of(view_state(after, viewer),
                                     every_card - visible_titles_and_ids(after, viewer) - public)
        before = after


def _assert_shows_nothing_of(view: dict, hidden: set[str]) -> None:
    text = json.dumps(view)
    leaked = [secret for secret in hidden if secret in text]
    assert not leaked, f"{leaked} leaked in {text[:300]}"


@GAMES
@given(seed=seeds, players=player_counts, creative=creative_games)
def test_every_listed_legal_command_is_accepted_and_changes_nothing_until_applied(seed, players, creative):
    game = random_game(seed, players=players, steps=60, creative=creative)
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
@given(seed=seeds, players=player_counts, creative=creative_games)
def test_a_refused_command_produces_no_events_and_leaves_the_state_alone(seed, players, creative):
    game = random_game(seed, players=players, steps=40, creative=creative)
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
        game = random_game(seed, players=2 + seed % 4, steps=400, creative=seed % 2 == 1)
        finished += game.state.status == "finished"
        in_zones = [c for p in game.state.players for c in (*p.hand, *p.in_play)]
        in_zones += [*game.state.draw_pile, *game.state.discard_pile]
        assert sorted(in_zones) == sorted(cards_in_the_deck(game.state))  # no card is lost or doubled
    assert finished > 0
