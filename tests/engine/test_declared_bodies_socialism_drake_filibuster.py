"""The declared bodies of Socialism, the Virtues of the Drake and Filibuster (``<package>/bodies.py``): every legal
move these rulesets list, its choices filled in with the values offered, passes its command's declaration; the
declarations refuse a field of the wrong kind as the handlers did (400 ``invalid``, naming the field) and accept
the bodies the handlers read as they were (a null or absent field where a command does not read it, a cell left of
the first User, an empty list of Friends the handler itself denies)."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from dvorak_core.errors import DomainError
from dvorak_engine import SeededRng, decide, evolve, legal_moves
from dvorak_engine.rulesets import all_rulesets
from tests.engine.filibuster.table import Table as FilibusterTable
from tests.engine.filibuster.test_campaigns import main_step
from tests.engine.socialism.test_random_games import random_game as socialism_game
from tests.engine.virtues_of_the_drake.table import Table as DrakeTable
from tests.engine.virtues_of_the_drake.table import sample_deck as drake_sample

# How many values of one choice, and how many picks of a list, each listed move is checked with.
VALUES_PER_CHOICE, PICKS_PER_LIST = 8, 3


def fillings(move: dict[str, Any], chooser: random.Random) -> list[dict[str, Any]]:
    """Concrete commands a listed move stands for: each choice of one value made with several of the values
    offered, each choice of a list with a few random picks."""
    options: dict[str, list[Any]] = {}
    for key, value in move.items():
        if isinstance(value, dict) and "choose" in value:
            offered = value["from"]
            if value["list"]:
                options[key] = [chooser.sample(offered, value["choose"]) for _ in range(PICKS_PER_LIST)]
            else:
                options[key] = chooser.sample(offered, min(len(offered), VALUES_PER_CHOICE))
        else:
            options[key] = [value]
    return [dict(zip(options, values, strict=True)) for values in itertools.product(*options.values())]


def check_moves(ruleset: str, moves: list[dict[str, Any]], chooser: random.Random) -> int:
    """Check every filling of every move against its command's declaration; how many were checked."""
    bodies = all_rulesets()[ruleset].bodies
    checked = 0
    for move in moves:
        for command in fillings(move, chooser):
            bodies[command["type"]].checked(command)
            checked += 1
    return checked


def refused(ruleset: str, body: dict[str, Any]) -> DomainError:
    with pytest.raises(DomainError) as refusal:
        all_rulesets()[ruleset].bodies[body["type"]].checked(body)
    assert refusal.value.code == "invalid"
    return refusal.value


def passes(ruleset: str, body: dict[str, Any]) -> None:
    all_rulesets()[ruleset].bodies[body["type"]].checked(body)


# --- every legal move passes its declaration ----------------------------------------------------------------------


@pytest.mark.parametrize(("seed", "players"), [(1, 2), (7, 3), (20, 4), (12, 5)])
def test_every_legal_move_of_a_random_socialism_game_passes_its_declaration(seed, players):
    game = socialism_game(seed, players, steps=0)
    chooser, rng = random.Random(seed), SeededRng(seed)
    state, checked, types = game.state, 0, set()
    for _ in range(4000):
        offers = [(seat, moves) for seat in range(players) if (moves := legal_moves(state, seat))]
        if not offers:
            break
        for _seat, moves in offers:
            checked += check_moves("socialism", moves, chooser)
            types.update(move["type"] for move in moves)
        seat, moves = chooser.choice(offers)
        command = fillings(chooser.choice(moves), chooser)[0]
        for event in decide(state, command, actor=game.people[seat], rng=rng):
            state = evolve(state, event)
    assert state.status == "finished" and checked > 100
    assert {"draw", "play", "invite", "end_turn"} <= types


@pytest.mark.parametrize(("seed", "players"), [(0, 2), (3, 3), (5, 4)])
def test_every_legal_move_of_a_random_drake_game_passes_its_declaration(seed, players):
    chooser = random.Random(seed)
    game = DrakeTable(players, deck=drake_sample(), seed=seed)
    checked, types = 0, set()
    for _ in range(2000):
        offers = [(seat, moves) for seat in range(players) if (moves := game.moves(seat))]
        if not offers:
            break
        for _seat, moves in offers:
            checked += check_moves("virtues_of_the_drake", moves, chooser)
            types.update(move["type"] for move in moves)
        seat, moves = chooser.choice(offers)
        game.send(seat, fillings(chooser.choice(moves), chooser)[0])
    assert game.state.status == "finished" and checked > 20
    assert {"play_top", "swallow", "breathe_fire"} <= types


@pytest.mark.parametrize(("seed", "players"), [(1, 2), (2, 3), (4, 4)])
def test_every_legal_move_of_a_random_filibuster_game_passes_its_declaration(seed, players):
    chooser = random.Random(seed)
    game = FilibusterTable(players, seed=seed)
    checked, types = 0, set()
    for _ in range(6000):
        offers = [(seat, moves) for seat in range(players) if (moves := game.moves(seat))]
        if not offers:
            break
        for _seat, moves in offers:
            checked += check_moves("filibuster", moves, chooser)
            types.update(move["type"] for move in moves)
        seat, moves = chooser.choice(offers)
        game.send(seat, fillings(chooser.choice(moves), chooser)[0])
    assert game.state.status == "finished" and checked > 100
    assert {"play", "pass", "filibuster", "reveal_card"} <= types


# --- what the declarations refuse, naming the field ---------------------------------------------------------------

CARD, USER = "2bced85c5630c626", "f8aa6a1bd4131611"


@pytest.mark.parametrize(("body", "field"), [
    ({"type": "play"}, "card"),
    ({"type": "play", "card": 7}, "card"),
    ({"type": "play", "card": CARD, "x": True, "y": 0}, "x"),  # true is not a number
    ({"type": "play", "card": CARD, "x": 0, "y": 1.5}, "y"),
    ({"type": "play", "card": CARD, "user": None}, "user"),  # a play's selection is never null
    ({"type": "play", "card": CARD, "target": True}, "target"),
    ({"type": "play", "card": CARD, "target": "1"}, "target"),
    ({"type": "play", "card": CARD, "remove": 3}, "remove"),
    ({"type": "invite", "how": "shout", "user": USER}, "how"),
    ({"type": "invite", "user": USER}, "how"),
    ({"type": "invite", "how": "spam"}, "user"),
    ({"type": "invite", "how": "auto", "user": None}, "user"),
    ({"type": "invite", "how": "auto", "user": ""}, "user"),
    ({"type": "invite", "how": "personal", "friends": [USER]}, "member"),
    ({"type": "invite", "how": "personal", "member": CARD}, "friends"),
    ({"type": "invite", "how": "personal", "member": CARD, "friends": "y"}, "friends"),
    ({"type": "invite", "how": "personal", "member": CARD, "friends": [USER, USER]}, "friends"),
    ({"type": "invite", "how": "personal", "member": CARD, "friends": [7]}, "friends"),
    ({"type": "block", "member": CARD, "friend": USER, "color": "red"}, "color"),
    ({"type": "block", "member": CARD, "friend": USER, "color": True}, "color"),
    ({"type": "block", "friend": USER, "color": 1}, "member"),
    ({"type": "block", "member": CARD, "color": 1}, "friend"),
])
def test_socialism_refuses_a_field_of_the_wrong_kind_naming_it(body, field):
    assert refused("socialism", body).details == {"field": field}


def test_socialism_keeps_the_handlers_words():
    assert refused("socialism", {"type": "invite", "how": "spam", "user": ""}).message == \
        "\"user\" must name a card or a User."
    assert refused("socialism", {"type": "block", "friend": USER, "color": 1}).message == \
        "\"member\" must name a card or a User."
    assert refused("socialism", {"type": "invite", "how": "personal", "member": CARD, "friends": 1}).message \
        == "\"friends\" is a list of different Users."


@pytest.mark.parametrize("body", [
    {"type": "play", "card": CARD},  # a Sherman Act, or an Action with nothing to select
    {"type": "play", "card": CARD, "x": -1, "y": -1},  # a cell up and left of the first User
    {"type": "play", "card": CARD, "copy": USER, "user": "58b175124280619a.2", "friend": CARD},
    {"type": "play", "card": CARD, "target": 0, "extra": "ignored"},
    {"type": "invite", "how": "spam", "user": USER, "member": None, "friends": None},
    {"type": "invite", "how": "auto", "user": "58b175124280619a.1"},
    {"type": "invite", "how": "personal", "member": CARD, "friends": [], "user": None},  # the handler denies none
    {"type": "invite", "how": "personal", "member": CARD, "friends": [""]},  # the handler denies it too
    {"type": "block", "member": CARD, "friend": USER, "color": -1},  # the handler denies a colour of no seat
])
def test_socialism_accepts_what_the_handlers_read(body):
    passes("socialism", body)


@pytest.mark.parametrize(("body", "field"), [
    ({"type": "play_top"}, "deck"),
    ({"type": "play_top", "deck": "dragons"}, "deck"),
    ({"type": "play_top", "deck": ["maidens"]}, "deck"),
    ({"type": "card_action"}, "card"),
    ({"type": "card_action", "card": ""}, "card"),
    ({"type": "card_action", "card": 4}, "card"),
])
def test_the_drake_refuses_a_field_of_the_wrong_kind_naming_it(body, field):
    assert refused("virtues_of_the_drake", body).details == {"field": field}


@pytest.mark.parametrize(("body", "field"), [
    ({"type": "reveal_card"}, "card"),
    ({"type": "counter_filibuster", "card": ""}, "card"),
    ({"type": "respond", "card": 5}, "card"),
    ({"type": "play", "card": None}, "card"),
    ({"type": "play", "card": CARD, "target": True}, "target"),
    ({"type": "play", "card": CARD, "target": -1}, "target"),
    ({"type": "play", "card": CARD, "destroy": 3}, "destroy"),
    ({"type": "score", "seat": 0, "points": 5}, "cause"),
    ({"type": "score", "cause": CARD, "seat": True, "points": 5}, "seat"),
    ({"type": "score", "cause": CARD, "seat": 0, "points": 201}, "points"),
    ({"type": "score", "cause": CARD, "seat": 0, "points": False}, "points"),
    ({"type": "draw", "cause": CARD, "count": 0}, "count"),
    ({"type": "draw", "cause": CARD, "count": 11}, "count"),
    ({"type": "draw", "cause": CARD}, "count"),
    ({"type": "destroy", "cause": CARD}, "card"),
    ({"type": "destroy", "cause": 1, "card": USER}, "cause"),
])
def test_filibuster_refuses_a_field_of_the_wrong_kind_naming_it(body, field):
    assert refused("filibuster", body).details == {"field": field}


def test_filibuster_keeps_the_handlers_words():
    assert refused("filibuster", {"type": "reveal_card", "card": ""}).message == \
        "\"card\" names a card of your hand."
    assert refused("filibuster", {"type": "draw", "count": 1}).message.startswith("\"cause\" names the card")
    assert refused("filibuster", {"type": "score", "cause": CARD, "seat": 0, "points": -300}).message == \
        "\"points\" is a whole number from -200 to 200."


@pytest.mark.parametrize("body", [
    {"type": "play", "card": CARD, "target": None, "destroy": None},  # a card that names neither
    {"type": "play", "card": CARD, "target": 3, "destroy": USER},
    {"type": "score", "cause": CARD, "seat": 0, "points": -200},
    {"type": "draw", "cause": CARD, "count": 10},
    {"type": "pass", "card": 7},  # a command reads only its own fields
])
def test_filibuster_accepts_what_the_handlers_read(body):
    passes("filibuster", body)


def test_a_seat_of_no_player_is_still_refused_by_the_handler_as_invalid():
    t = main_step({0: ("Rebuttal",), 1: ()})
    rebuttal = t.card(0, "Rebuttal")
    t.send(0, {"type": "play", "card": rebuttal})
    assert t.table.phase == "effect"
    refusal = t.refused(0, {"type": "score", "cause": rebuttal, "seat": 2, "points": -5})
    assert (refusal.code, refusal.details, refusal.message) == (
        "invalid", {"field": "seat"}, "\"seat\" is a whole number from 0 to 1.")
    assert t.send(0, {"type": "score", "cause": rebuttal, "seat": 1, "points": -5})
