"""The ruleset kit: what every ruleset builds on, so that a game's secrets and its commands' bodies are said once.

- A ruleset's view reads the state only as its viewer may see it (``visibility.seen``): a field declared for
  nobody, or for another seat, cannot be read, so a view cannot show it, whatever its code does.
- A command's body is declared beside its handler (``@command(..., body=Body(...))``) and the engine checks every
  body by it before the handler runs; every command of every registered ruleset declares one, with examples that
  pass it.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from dvorak_core.errors import DomainError
from dvorak_engine import visibility
from dvorak_engine.bodies import (
    Body,
    absent_field,
    card_field,
    cards_field,
    choice_field,
    flag_field,
    list_field,
    object_field,
    seat_field,
    text_field,
    whole_field,
)
from dvorak_engine.ruleset import Ruleset, command
from dvorak_engine.rulesets import all_rulesets
from dvorak_engine.state import GameState, Seat
from dvorak_engine.visibility import Hidden, by_seat, counted, derived, lookup, owner, public


@dataclass(frozen=True)
class Hand:
    seat: int = public()
    cards: tuple[str, ...] = owner(())
    note: str = ""  # declared for nobody


@dataclass(frozen=True)
class Table:
    hands: tuple[Hand, ...] = public(())
    pile: tuple[str, ...] = counted(())
    cards: dict[str, str] = lookup(default_factory=dict)
    aims: dict[str, str] = by_seat(default_factory=dict)
    order: tuple[str, ...] = ()

    @derived
    def top_of_discard(self) -> str:
        return "c9"

    def secret_order(self) -> tuple[str, ...]:
        return self.order


def table_state() -> GameState:
    table = Table(hands=(Hand(seat=0, cards=("c1", "c2"), note="n0"), Hand(seat=1, cards=("c3",))),
                  pile=("c4", "c5", "c6"), cards={"c1": "Dragon", "c4": "Hidden Dragon"},
                  aims={"0": "win by cards", "1": "win by points"}, order=("c6", "c4", "c5"))
    seats = (Seat(seat=0, user_id=11, username="ann"), Seat(seat=1, user_id=12, username="bob"))
    return GameState(ruleset="toy", table=table, seats=seats, choosing=(0,), choices={"0": "rock"})


def test_a_seat_reads_its_own_owner_fields_and_never_another_seats():
    seen = visibility.seen(table_state(), 0)
    mine, theirs = seen.table.hands
    assert mine.cards == ("c1", "c2")
    with pytest.raises(Hidden):
        theirs.cards  # noqa: B018
    spectator = visibility.seen(table_state(), None)
    with pytest.raises(Hidden):
        spectator.table.hands[0].cards  # noqa: B018


def test_an_undeclared_field_or_method_cannot_be_read_by_anyone():
    for viewer in (0, 1, None):
        seen = visibility.seen(table_state(), viewer)
        for read in (lambda s: s.table.order, lambda s: s.table.hands[0].note, lambda s: s.table.secret_order,
                     lambda s: s.choices, lambda s: s.seats[0].user_id):
            with pytest.raises(Hidden):
                read(seen)


def test_counted_lookup_by_seat_and_derived_show_what_they_say():
    seen = visibility.seen(table_state(), 1)
    assert len(seen.table.pile) == 3 and seen.table.pile.count == 3
    assert seen.table.cards["c1"] == "Dragon"  # read by a key the viewer was shown
    assert "c4" in seen.table.cards
    with pytest.raises(TypeError):
        list(seen.table.cards)  # never listed: the keys of hidden cards stay hidden
    assert seen.table.aims == {"1": "win by points"}
    assert visibility.seen(table_state(), None).table.aims == {}
    assert seen.table.top_of_discard() == "c9"
    assert seen.seat(0).username == "ann" and seen.status == "open"
    with pytest.raises(AttributeError):
        seen.table.pile = ()


def test_the_default_view_of_a_seen_state_is_its_declarations():
    shown = visibility.state_view(visibility.seen(table_state(), 0).table, 0)
    assert shown == {"hands": [{"seat": 0, "cards": ["c1", "c2"]}, {"seat": 1}], "pile": {"count": 3},
                     "aims": {"0": "win by cards"}}


def test_a_ruleset_cannot_write_its_own_view_around_the_declarations():
    with pytest.raises(TypeError, match="shown"):
        class Peeking(Ruleset):  # noqa: F841
            name = "peeking"

            def view(self, state, viewer):
                return {"order": state.table.order}


def test_every_ruleset_view_reads_through_the_declarations():
    """No registered ruleset writes ``view`` itself: each view is made from the state as the viewer may see it."""
    for ruleset in all_rulesets().values():
        assert "view" not in vars(type(ruleset)), ruleset.name
        assert type(ruleset).view is Ruleset.view, ruleset.name


# --- declared bodies ---------------------------------------------------------------------------------------------

PLAY = Body("Play a card.", {
    "card": card_field("The card in your hand."),
    "target": seat_field(required=False),
    "cards": cards_field(required=False),
    "how": choice_field(("up", "down"), required=False),
    "loud": flag_field(required=False),
    "count": whole_field(required=False, low=1, high=3),
    "note": text_field(required=False, high=5),
    "tags": list_field(text_field(), required=False, unique=True),
    "extra": object_field("Extra", {"a": whole_field(required=False)}, required=False, at_least_one=True),
    "player_deck": absent_field("Join with the join endpoint."),
}, ({"card": "c1"},))


@pytest.mark.parametrize(("body", "field", "words"), [
    ({}, "card", "\"card\" must name a card."),
    ({"card": ""}, "card", "\"card\" must name a card."),
    ({"card": 7}, "card", "\"card\" must name a card."),
    ({"card": "c", "target": "1"}, "target", "a seat"),
    ({"card": "c", "target": True}, "target", "a seat"),
    ({"card": "c", "target": -1}, "target", "a seat"),
    ({"card": "c", "cards": ["a", "a"]}, "cards", "different cards"),
    ({"card": "c", "cards": []}, "cards", "different cards"),
    ({"card": "c", "how": "sideways"}, "how", "one of: up, down"),
    ({"card": "c", "loud": 1}, "loud", "true or false"),
    ({"card": "c", "count": 4}, "count", "from 1 to 3"),
    ({"card": "c", "note": "too long"}, "note", "at most 5"),
    ({"card": "c", "tags": ["x", "x"]}, "tags", "different"),
    ({"card": "c", "extra": {"a": 1, "b": 2}}, "extra.b", "not a field"),
    ({"card": "c", "extra": {}}, "extra", "at least one"),
    ({"card": "c", "extra": {"a": "1"}}, "extra.a", "whole number"),
    ({"card": "c", "player_deck": {}}, "player_deck", "join endpoint"),
])
def test_a_body_not_as_declared_is_refused_naming_its_field(body, field, words):
    with pytest.raises(DomainError) as refused:
        PLAY.checked(body)
    assert refused.value.code == "invalid"
    assert refused.value.details == {"field": field}
    assert words in refused.value.message


def test_a_body_as_declared_passes_and_fields_it_does_not_know_are_left_alone():
    PLAY.checked({"card": "c1", "target": 0, "cards": ["a", "b"], "how": "up", "loud": False, "count": 3,
                  "note": "short", "tags": ["x", "y"], "extra": {"a": 1}, "comment": "anything"})


def test_a_body_shaped_by_one_of_its_fields_is_checked_by_that_shape():
    proposal = Body.on("kind", {"card": Body("A card.", {"title": text_field()}),
                                "repeal": Body("A repeal.", {"card": card_field()})})
    proposal.checked({"kind": "card", "title": "New"})
    for body, field in (({"kind": "poem"}, "kind"), ({"kind": "card"}, "title"), ({"kind": "repeal"}, "card")):
        with pytest.raises(DomainError) as refused:
            proposal.checked(body)
        assert refused.value.details == {"field": field}


def test_the_engine_checks_a_body_by_its_declaration_before_the_handler_runs():
    ran = []

    class Checked(Ruleset):
        name = "checked"

        @command("mark", body=Body("Mark.", {"spot": whole_field(low=1, high=9)}), active=False)
        def mark(self, state, command_body, ctx):
            ran.append(command_body)
            return []

    state = GameState(ruleset="checked", seats=(Seat(seat=0, user_id=1, username="ann"),))
    actor = type("Actor", (), {"user_id": 1, "username": "ann"})()
    with pytest.raises(DomainError) as refused:
        Checked().decide(state, {"type": "mark", "spot": 10}, actor=actor, rng=None)
    assert refused.value.details == {"field": "spot"} and ran == []
    Checked().decide(state, {"type": "mark", "spot": 5}, actor=actor, rng=None)
    assert ran == [{"type": "mark", "spot": 5}]


def test_every_command_of_every_ruleset_declares_its_body_with_a_doc_and_examples_that_pass_it():
    for ruleset in all_rulesets().values():
        assert set(ruleset.bodies) == set(ruleset.commands), ruleset.name
        for command_type, body in ruleset.bodies.items():
            variants = body.variants.values() if body.by else [body]
            for variant in variants:
                assert variant.doc, (ruleset.name, command_type)
                assert variant.examples, (ruleset.name, command_type)
                for example in variant.examples:
                    variant.checked({"type": command_type, **({body.by: next(
                        kind for kind, each in body.variants.items() if each is variant)} if body.by else {}),
                        **example})


# --- Fields added after games were stored ----------------------------------------------------------------------


def test_a_field_added_after_games_were_stored_is_left_out_of_the_old_form_while_it_holds_its_default():
    """A game created before a field was added never used it: written as it was before (``to_json_as_before``,
    how the recorded streams are compared), and a snapshot without the field reads it as its default."""
    import dataclasses

    from dvorak_engine import codec
    from dvorak_engine.visibility import public

    @dataclasses.dataclass(frozen=True)
    class Table:
        score: int = public(0)
        agreed: tuple[int, ...] = public((), added=True)

    assert codec.to_json(Table()) == {"score": 0, "agreed": []}  # snapshots hold every field
    assert codec.to_json_as_before(Table(score=3)) == {"score": 3}
    assert codec.to_json_as_before(Table(agreed=(1,))) == {"score": 0, "agreed": [1]}
    assert codec.from_json(Table, {"score": 3}) == Table(score=3)
