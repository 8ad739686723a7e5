"""S.E.R.M.'s declared command bodies (``bodies``): every command declares one, every move ``legal_moves`` lists
(its choices filled in every way) passes its declaration, a body of the wrong shape is refused by the declaration
naming the field, and what a soldier's card or the options call for is still the handler's to refuse."""

from __future__ import annotations

import itertools
import random

import pytest

from dvorak_core.errors import DomainError
from dvorak_engine import SeededRng, create_game, decide, evolve, legal_moves, replay
from dvorak_engine.rulesets.serm import RULESET
from dvorak_engine.rulesets.serm.geometry import parse_cell
from tests.engine.serm.skirmish import PEOPLE, Skirmish, deck
from tests.engine.serm.test_ruleset import OPTION_SETS
from tests.engine.test_legal_moves import filled

COMMANDS = {"recruit", "ready", "turn", "advance", "step", "shoot", "react", "pass"}


def fillings(move: dict) -> list[dict]:
    """A listed move with its ``{"choose", "from", "list"}`` fields filled in every way (each choice here is of
    one soldier, square, card or direction)."""
    options = []
    for field, value in move.items():
        if isinstance(value, dict) and "choose" in value:
            assert value["choose"] == 1 and not value["list"], move
            options.append([(field, one) for one in value["from"]])
        else:
            options.append([(field, value)])
    return [dict(combination) for combination in itertools.product(*options)]


def test_every_command_declares_its_body_with_a_doc_and_examples_that_pass_it():
    assert set(RULESET.bodies) == COMMANDS | {"join", "start", "leave", "cancel", "expire", "undo", "undo_answer"}
    for command_type in COMMANDS:
        body = RULESET.bodies[command_type]
        assert body.doc and body.examples, command_type
        for example in body.examples:
            body.checked({"type": command_type, **example})


@pytest.mark.parametrize("options", OPTION_SETS)
@pytest.mark.parametrize("seed", [1, 2])
def test_every_legal_move_of_random_games_passes_its_declaration(seed, options):
    rng, chooser = SeededRng(seed), random.Random(seed)
    state = replay(create_game(ruleset="serm", deck=deck(), variant="standard", creative=False, max_players=2,
                               options=options, creator=PEOPLE[0], rng=rng))
    for actor, body in ((PEOPLE[1], {"type": "join"}), (PEOPLE[0], {"type": "start"})):
        for event in decide(state, body, actor=actor, rng=rng):
            state = evolve(state, event)
    seen: set[str] = set()
    for _ in range(2000):
        if state.status != "active":
            break
        offers = []
        for seat in (0, 1):
            moves = legal_moves(state, seat)
            for move in moves:
                for command in fillings(move):
                    RULESET.bodies[command["type"]].checked(command)
                    seen.add(command["type"])
            if moves:
                offers.append((seat, moves))
        seat, moves = chooser.choice(offers)
        for event in decide(state, filled(chooser.choice(moves), chooser), actor=PEOPLE[seat], rng=rng):
            state = evolve(state, event)
    assert state.status == "finished"
    assert {"advance", "turn", "shoot", "pass"} <= seen
    if "budget" in options:
        assert {"recruit", "ready"} <= seen


@pytest.mark.parametrize(("body", "field"), [
    ({"type": "recruit", "card": 3}, "card"),
    ({"type": "turn", "soldier": "0-guardsman"}, "facing"),
    ({"type": "turn", "soldier": "", "facing": "N"}, "soldier"),
    ({"type": "advance", "soldier": "0-guardsman", "direction": "UP"}, "direction"),
    ({"type": "advance", "soldier": "0-guardsman", "direction": "N", "facing": True}, "facing"),
    ({"type": "step"}, "direction"),
    ({"type": "shoot", "soldier": "0-guardsman", "target": 7}, "target"),
    ({"type": "react", "soldier": "0-guardsman", "stop": "here"}, "stop"),
    ({"type": "react", "soldier": None}, "soldier"),
])
def test_a_body_of_the_wrong_shape_is_refused_by_its_declaration(body, field):
    with pytest.raises(DomainError) as refused:
        RULESET.bodies[body["type"]].checked(body)
    assert refused.value.code == "invalid" and refused.value.details["field"] == field


def test_null_counts_as_left_out_where_a_field_is_optional():
    RULESET.bodies["advance"].checked({"type": "advance", "soldier": "0-brawler", "direction": None, "facing": None})
    RULESET.bodies["shoot"].checked({"type": "shoot", "soldier": "0-gunner", "target": None, "at": None})
    RULESET.bodies["react"].checked({"type": "react", "soldier": "0-gunner", "stop": None})


def test_a_square_is_two_whole_numbers_and_anything_else_is_refused_not_a_crash():
    assert parse_cell(" 3 , -4") == (3, -4)
    for name in ("--3,4", "\u00b2,1", "3,", "1,2,3", "+3,4"):
        assert parse_cell(name) is None, name
    game = Skirmish()
    game.arrange(**{"rocket_launcher_0": (5, 2, "N"), "guardsman_1": (5, 8, "S")})
    before = game.state
    with pytest.raises(DomainError) as refused:
        game.send(0, {"type": "shoot", "soldier": "0-rocket-launcher", "at": "--5,6"})
    assert refused.value.code == "invalid" and refused.value.details["field"] == "at"
    assert game.state == before


def test_what_a_soldier_calls_for_is_still_the_handler_s_to_refuse():
    game = Skirmish()
    game.arrange(brawler_0=(2, 2, "N"), gunner_0=(6, 2, "N"), guardsman_0=(8, 2, "N"), armored_1=(6, 8, "S"))
    for body, field in (({"type": "advance", "soldier": "0-brawler", "direction": "E"}, "direction"),
                        ({"type": "advance", "soldier": "0-guardsman"}, "direction"),
                        ({"type": "shoot", "soldier": "0-gunner", "target": "1-armored"}, "target"),
                        ({"type": "shoot", "soldier": "0-guardsman"}, "target")):
        RULESET.bodies[body["type"]].checked(body)  # the declaration cannot tell: the soldier's card does
        with pytest.raises(DomainError) as refused:
            game.send(0, body)
        assert refused.value.code == "invalid" and refused.value.details["field"] == field, body
