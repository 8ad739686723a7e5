"""Rock Paper Scissors Extreme's declared command bodies (``bodies``): every command declares one, every move
``legal_moves`` lists (its choices filled in every way) passes its declaration, and a body of the wrong shape is
refused by the declaration as the rules refused it, naming the field."""

from __future__ import annotations

import itertools
import random

import pytest

from dvorak_core.errors import DomainError
from dvorak_engine.rng import SeededRng
from dvorak_engine.rulesets import rock_paper_scissors_extreme as rpsx
from dvorak_engine.rulesets.rock_paper_scissors_extreme.bodies import BODIES
from tests.engine.rock_paper_scissors_extreme.match import deck, fill, fold

RULESET = rpsx.RULESET
MAX_COMMANDS = 3000


def fillings(move: dict) -> list[dict]:
    """A listed move with its ``{"choose", "from", "list"}`` fields filled in every way (a choice of one card or
    word from its ``from``; a choice of more, a random sample)."""
    options = []
    for field, value in move.items():
        if isinstance(value, dict) and "choose" in value:
            picks = ([[one] for one in value["from"]] if value["choose"] == 1
                     else [random.Random(0).sample(value["from"], value["choose"])])
            options.append([(field, pick if value["list"] else pick[0]) for pick in picks])
        else:
            options.append([(field, value)])
    return [dict(combination) for combination in itertools.product(*options)]


def test_every_command_declares_its_body_and_the_rules_check_by_the_same_declarations():
    assert set(RULESET.bodies) == set(BODIES) | {"join", "start", "leave", "cancel", "expire", "undo", "undo_answer"}
    for command_type, body in BODIES.items():
        assert RULESET.bodies[command_type] is body
        assert body.doc and body.examples, command_type
        for example in body.examples:
            body.checked({"type": command_type, **example})


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_every_legal_move_of_random_games_passes_its_declaration(seed):
    rng, choices = SeededRng(seed), random.Random(seed)
    board = fold(rpsx.setup(deck()["cards"], [0, 1], rng))
    seen: set[str] = set()
    for _ in range(MAX_COMMANDS):
        if rpsx.winners(board) is not None:
            break
        for seat in board.seats:
            for move in rpsx.legal_moves(board, seat):
                for command in fillings(move):
                    RULESET.bodies[command["type"]].checked(command)
                    seen.add(command["type"])
        seat = choices.choice(rpsx.active_seats(board))
        board = fold(rpsx.decide(board, seat, fill(choices.choice(rpsx.legal_moves(board, seat)), choices.sample),
                                 rng), board)
    assert rpsx.winners(board) is not None
    assert {"throw", "claim", "draw", "discard"} <= seen


@pytest.mark.parametrize(("body", "field", "message"), [
    ({"type": "throw", "sign": True}, "sign", "Throw \"rock\", \"paper\" or \"scissors\"."),
    ({"type": "drink", "potion": "a", "simulate": ""}, "simulate", "\"simulate\" names a card by its id."),
    ({"type": "claim", "choice": "both"}, "choice", "\"choice\" is 'take' or 'score'."),
    ({"type": "claim", "choice": "take", "break": 5}, "break", "\"break\" names a card by its id."),
    ({"type": "draw", "card": None}, "card", "\"card\" names a card by its id."),
    ({"type": "discard", "cards": ["a", "b"]}, "cards", "\"cards\" is a list of one card: the item you discard."),
])
def test_a_body_of_the_wrong_shape_is_refused_by_its_declaration_in_the_rules_words(body, field, message):
    with pytest.raises(DomainError) as refused:
        RULESET.bodies[body["type"]].checked(body)
    assert (refused.value.code, refused.value.details["field"], refused.value.message) == ("invalid", field, message)


def test_null_counts_as_left_out_where_a_field_is_optional():
    BODIES["drink"].checked({"type": "drink", "potion": "a", "simulate": None})
    BODIES["claim"].checked({"type": "claim", "choice": "score", "break": None, "steal": None})
