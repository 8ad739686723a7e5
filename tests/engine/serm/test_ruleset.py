"""S.E.R.M. on the ruleset contract: a game from the seed deck plays it, its options are checked when it is
created, every die is written into its event, the legal moves are all accepted, and replay (and a snapshot)
gives the state the game was played to."""

from __future__ import annotations

import json
import random

import pytest

from dvorak_core.errors import DomainError
from dvorak_engine import (
    SeededRng,
    create_game,
    decide,
    evolve,
    legal_moves,
    replay,
    state_from_json,
    state_to_json,
    view_event,
)
from tests.engine.serm.skirmish import PEOPLE, Skirmish, deck
from tests.engine.test_legal_moves import filled

TERRAIN = [{"x": 3, "y": 4, "width": 2, "height": 3}, {"x": 8, "y": 6, "width": 1, "height": 1}]
OPTION_SETS = [
    {},
    {"budget": 12, "terrain": TERRAIN, "width": 10, "height": 9},
    {"react_stop": "reactor_chooses", "reacts": "each", "blast": "centre", "terrain": TERRAIN},
    {"react_stop": "entry", "react_turn": "unturned"},
    {"react_turn": "never", "reacts": "each"},
]


@pytest.mark.parametrize(("options", "field"), [
    ({"width": 3}, "options.width"),
    ({"height": True}, "options.height"),
    ({"react_stop": "anywhere"}, "options.react_stop"),
    ({"react_turn": "sometimes"}, "options.react_turn"),
    ({"react_turn": None}, "options.react_turn"),
    ({"reacts": "all"}, "options.reacts"),
    ({"blast": "whole"}, "options.blast"),
    ({"budget": 0}, "options.budget"),
    ({"budget": "ten"}, "options.budget"),
    ({"terrain": [{"x": 0, "y": 0, "width": 2, "height": 2}]}, "options.terrain"),  # where seat 0 stands
    ({"terrain": [{"x": 10, "y": 5, "width": 3, "height": 1}]}, "options.terrain"),  # off the field
    ({"terrain": {"x": 1}}, "options.terrain"),
    ({"width": 4, "height": 4}, "options.height"),  # eight soldiers a side need two rows each, and one between
])
def test_options_out_of_range_are_refused_when_the_game_is_created(options, field):
    with pytest.raises(DomainError) as refused:
        Skirmish(options)
    assert refused.value.code == "invalid" and refused.value.details["field"] == field


def test_a_game_is_for_two_players_and_has_no_creative_play():
    with pytest.raises(DomainError) as refused:
        create_game(ruleset="serm", deck=deck(), variant="standard", creative=False, max_players=3, options={},
                    creator=PEOPLE[0], rng=SeededRng(1))
    assert refused.value.details["field"] == "max_players"
    with pytest.raises(DomainError) as refused:
        create_game(ruleset="serm", deck=deck(), variant="standard", creative=True, max_players=2, options={},
                    creator=PEOPLE[0], rng=SeededRng(1))
    assert refused.value.details["field"] == "creative"


def test_every_die_is_rolled_by_the_server_and_written_into_its_event():
    game = Skirmish()
    game.arrange(guardsman_0=(5, 2, "N"), guardsman_1=(5, 8, "S"), armored_1=(0, 11, "N"))
    game.send(0, {"type": "shoot", "soldier": "0-guardsman", "target": "1-guardsman"}, dice=[6, 2, 3])
    [shot] = [event for event in game.events if event.type == "serm.shot"]
    fire = shot.data["fire"][0]
    assert fire["shoot"] == {"dice": [[6, 2]], "total": 8}
    assert fire["hits"][0]["endure"] == {"dice": [[3]], "total": 3}
    # Everyone sees the dice, spectators too: the game has no hidden information.
    assert view_event(shot, None, None, game.state)["fire"] == shot.data["fire"]


def test_a_command_that_is_refused_appends_nothing():
    game = Skirmish()
    before = game.state
    for body in ({"type": "advance", "soldier": "1-ranger", "direction": "N"},
                 {"type": "advance", "soldier": "0-ranger", "direction": "UP"},
                 {"type": "shoot", "soldier": "0-brawler", "target": "1-ranger"},
                 {"type": "react", "soldier": "1-ranger"},
                 {"type": "step", "direction": "N"},
                 {"type": "pass"}):
        with pytest.raises(DomainError):
            decide(game.state, body, actor=PEOPLE[0], rng=SeededRng(0))
    assert game.state == before


def play_random_game(seed: int, options: dict) -> tuple[list, object, int]:
    """Two seats sending, at random, moves they are offered; each must be accepted."""
    rng, chooser = SeededRng(seed), random.Random(seed)
    events = create_game(ruleset="serm", deck=deck(), variant="standard", creative=False, max_players=2,
                         options=options, creator=PEOPLE[0], rng=rng)
    state = replay(events)
    for actor, body in ((PEOPLE[1], {"type": "join"}), (PEOPLE[0], {"type": "start"})):
        for event in decide(state, body, actor=actor, rng=rng):
            state = evolve(state, event)
            events.append(event)
    sent = 0
    while state.status == "active" and sent < 2000:
        offers = [(seat, moves) for seat in (0, 1) if (moves := legal_moves(state, seat))]
        assert offers, "an unfinished game with nobody to move"
        seat, moves = chooser.choice(offers)
        body = filled(chooser.choice(moves), chooser)
        for event in decide(state, body, actor=PEOPLE[seat], rng=rng):
            state = evolve(state, event)
            events.append(event)
        sent += 1
        if sent % 25 == 0:
            assert state_from_json(json.loads(json.dumps(state_to_json(state)))) == state
    return events, state, sent


@pytest.mark.parametrize("options", OPTION_SETS)
@pytest.mark.parametrize("seed", range(8))
def test_random_games_of_listed_moves_end_and_replay_to_the_same_state(seed, options):
    events, state, sent = play_random_game(seed, options)
    assert state.status == "finished", f"not over after {sent} commands"
    assert len(state.winners) <= 1
    standing = state.table.seats_with_soldiers()
    assert list(state.winners) == standing
    assert replay(events) == state
    assert all(legal_moves(state, seat) == [] for seat in (0, 1))


def test_a_spectator_sees_the_same_table_as_the_players():
    game = Skirmish()
    assert game.view(None)["board"] == game.view(0)["board"] == game.view(1)["board"]
    assert legal_moves(game.state, None) == []
