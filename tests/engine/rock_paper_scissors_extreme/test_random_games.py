"""Whole games of Rock Paper Scissors Extreme played by random legal moves: every listed move is accepted, each
game ends with a winner, replay rebuilds the board, and no view shows a pending throw or the supply."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dvorak_engine.rng import SeededRng
from dvorak_engine.rulesets import rock_paper_scissors_extreme as rpsx
from dvorak_engine.rulesets.rock_paper_scissors_extreme.rules import MAX_ITEMS, TARGET_POINTS
from tests.engine.rock_paper_scissors_extreme.match import deck, fill, fold
from tests.sizes import size

GAMES = settings(max_examples=size("RPSX_RANDOM_GAMES", 30, 100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
# About 300 commands make a game (at most ~550 in 2,000 seeded games); far more means a game that cannot end.
MAX_COMMANDS = 3000


def play(seed: int, check_step=None):
    """A game from the deck, every command a move ``legal_moves`` listed, filled at random."""
    rng, choices = SeededRng(seed), random.Random(seed)
    events = rpsx.setup(deck()["cards"], [0, 1], rng)
    board = fold(events)
    commands = 0
    while rpsx.winners(board) is None:
        assert commands < MAX_COMMANDS, "the game did not end"
        acting = rpsx.active_seats(board)
        assert acting, "nobody can move in an unfinished game"
        for seat in board.seats:
            assert bool(rpsx.legal_moves(board, seat)) == (seat in acting)
        seat = choices.choice(acting)
        command = fill(choices.choice(rpsx.legal_moves(board, seat)), choices.sample)
        new_events = rpsx.decide(board, seat, command, rng)  # a listed move is never refused
        before = board
        board = fold(new_events, board)
        events.extend(new_events)
        commands += 1
        if check_step:
            check_step(before, board, new_events)
    return events, board


@GAMES
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_a_game_of_random_legal_moves_ends_with_a_winner_at_21(seed):
    events, board = play(seed)
    top = max(p.points for p in board.players)
    assert top >= TARGET_POINTS
    assert rpsx.winners(board) == [p.seat for p in board.players if p.points == top]
    assert events[-1]["type"] == "rpsx.finished"


@GAMES
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_replay_and_snapshots_rebuild_the_board(seed):
    events, board = play(seed)
    assert fold(events) == board
    middle = len(events) // 2
    assert fold(events[middle:], fold(events[:middle])) == board
    snapshot = json.loads(json.dumps(rpsx.board_to_json(board)))
    assert rpsx.board_from_json(snapshot) == board
    assert all(json.loads(json.dumps(e)) == e for e in events)


def _cards_everywhere(board) -> list[str]:
    held = [c for p in board.players for c in p.items]
    return [*board.supply, *board.discard_pile, *board.center, *held]


@GAMES
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_every_card_is_in_exactly_one_place_and_hands_stay_at_three(seed):
    def check(before, board, new_events):
        assert sorted(_cards_everywhere(board)) == sorted(board.cards)
        if board.phase == "throw":
            assert len(board.center) == 3
            assert all(len(p.items) <= MAX_ITEMS for p in board.players)
        assert all(p.points >= 0 for p in board.players)

    play(seed, check)


@settings(GAMES, max_examples=8)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_no_view_shows_a_pending_choice_of_the_opponent_or_the_supply(seed):
    def check(before, board, new_events):
        hidden_supply = set(board.supply)
        for viewer in (0, 1, None):
            view = rpsx.view(board, viewer)
            text = json.dumps(view)
            assert not any(card in text for card in hidden_supply)
            assert all(set(t) == {"seat"} for t in view["throws"] if t["seat"] != viewer)
            assert all(set(a) == {"seat"} for a in view["answers"] if a["seat"] != viewer)
            # A card back in the supply may have been seen before (discarded, then reshuffled); no event shows
            # any other.
            seen_before = json.dumps(rpsx.view(before, viewer))
            unseen = {card for card in hidden_supply if card not in seen_before}
            for event in new_events:
                shown = rpsx.view_event(event, viewer)
                assert not any(card in json.dumps(shown) for card in unseen)
                if event["type"] in {"rpsx.thrown", "rpsx.potion_chosen"} and event["data"]["seat"] != viewer:
                    assert shown["data"] == {"seat": event["data"]["seat"]}

    play(seed, check)
