"""What Rock Paper Scissors Extreme's state declarations let each viewer see: a pending throw or potion answer is
its seat's alone, the supply (and the deck the game was created with) only a count, and every card is read by an
id the viewer was shown, never listed. The view is built from the state as its viewer sees it
(``visibility.seen``), so a declaration that shows too much would show here."""

from __future__ import annotations

import dataclasses
import json

import pytest

from dvorak_engine import Actor, SeededRng, create_game, decide, evolve, view_state
from dvorak_engine.rulesets import rock_paper_scissors_extreme as rpsx
from dvorak_engine.rulesets.rock_paper_scissors_extreme.board import Answer, Board, Throw
from dvorak_engine.rulesets.rock_paper_scissors_extreme.ruleset import RockPaperScissorsExtremeState
from dvorak_engine.visibility import COUNT, LOOKUP, OWNER, PUBLIC, Counted, Hidden, seen, visibility_of
from tests.engine.rock_paper_scissors_extreme.match import Match, deck

PEOPLE = [Actor(user_id=1, username="ann"), Actor(user_id=2, username="bob")]
VIEWERS = (0, 1, None)


def declared(kind: type) -> dict[str, str | None]:
    return {field.name: visibility_of(field) for field in dataclasses.fields(kind)}


def started():
    """A game as the service plays it, created, joined and started."""
    rng = SeededRng(1)
    state = None
    for event in create_game(ruleset=rpsx.NAME, deck=deck(), variant="standard", creative=False, max_players=2,
                             options={}, creator=PEOPLE[0], rng=rng):
        state = evolve(state, event)
    for seat, command in ((1, {"type": "join"}), (0, {"type": "start"})):
        for event in decide(state, command, actor=PEOPLE[seat], rng=rng):
            state = evolve(state, event)
    return state, rng


def send(state, rng, seat: int, command: dict):
    for event in decide(state, command, actor=PEOPLE[seat], rng=rng):
        state = evolve(state, event)
    return state


def test_the_secrets_are_declared_for_their_seat_or_as_counts_and_the_cards_by_id_only():
    assert declared(Throw)["sign"] == OWNER
    assert declared(Answer)["potion"] == declared(Answer)["simulate"] == OWNER
    assert declared(Board)["supply"] == COUNT
    assert declared(Board)["cards"] == LOOKUP
    assert declared(RockPaperScissorsExtremeState)["deck_cards"] == COUNT
    assert declared(RockPaperScissorsExtremeState)["board"] == PUBLIC


def test_a_pending_throw_is_read_by_its_seat_only():
    state, rng = started()
    state = send(state, rng, 0, {"type": "throw", "sign": "paper"})
    [mine] = seen(state, 0).table.board.throws
    assert mine.sign == "paper"
    for viewer in (1, None):
        [theirs] = seen(state, viewer).table.board.throws
        assert theirs.seat == 0 and not theirs.shows("sign")
        with pytest.raises(Hidden):
            _ = theirs.sign
        assert view_state(state, viewer)["board"]["throws"] == [{"seat": 0}]
    # Once both are in, the throw is revealed to everyone.
    state = send(state, rng, 1, {"type": "throw", "sign": "rock"})
    for viewer in VIEWERS:
        assert [(t.seat, t.sign) for t in seen(state, viewer).table.board.revealed] == [(0, "paper"), (1, "rock")]


def test_a_pending_potion_answer_is_read_by_its_seat_only():
    m = Match().arrange(items={0: ["Black Potion"], 1: ["Sparkly Potion"]})
    m.throw("paper", "paper")
    m.drink(1, "Sparkly Potion")
    [answer] = seen(m.board, 1).answers
    assert answer.potion == m.card("Sparkly Potion")
    for viewer in (0, None):
        [answer] = seen(m.board, viewer).answers
        with pytest.raises(Hidden):
            _ = answer.potion
        with pytest.raises(Hidden):
            _ = answer.simulate
        assert m.card("Sparkly Potion") not in json.dumps(rpsx.view(m.board, viewer)["answers"])


def test_the_supply_and_the_deck_are_only_counted_and_the_cards_never_listed():
    state, _ = started()
    board = state.table.board
    for viewer in VIEWERS:
        table = seen(state, viewer).table
        assert table.deck_cards == Counted(len(state.table.deck_cards))
        assert table.board.supply == Counted(len(board.supply)) and len(table.board.supply) == 27
        with pytest.raises(TypeError):
            list(table.board.cards)
        # A card in sight is read by its id.
        assert table.board.cards[board.center[0]].title == board.cards[board.center[0]].title
        text = json.dumps(view_state(state, viewer))
        assert not [card for card in board.supply if card in text]

