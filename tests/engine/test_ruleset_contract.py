"""The ruleset contract, through a toy game (``toy_ruleset``) that only its own module and one registry line add.

What the core does for any game: it hides what a ruleset does not describe (state fields, event keys), keeps a
seat's secret choice from everyone else until every choice is in, reveals them together, and snapshots any
ruleset's state by its type hints.
"""

from __future__ import annotations

import collections.abc
import json

import pytest

from dvorak_engine import (
    Actor,
    DomainError,
    SeededRng,
    create_game,
    decide,
    evolve,
    legal_moves,
    rulesets,
    state_from_json,
    state_to_json,
    view_event,
    view_state,
)

PEOPLE = [Actor(user_id=1, username="odd"), Actor(user_id=2, username="even")]


@pytest.fixture(autouse=True)
def registered(monkeypatch):
    """The one line a new game adds to the registry."""
    monkeypatch.setitem(rulesets.REGISTERED, "odds_and_evens", "tests.engine.toy_ruleset")


class Game:
    def __init__(self):
        self.rng = SeededRng(1)
        self.events, self.states = [], [None]
        self.record(create_game(ruleset="odds_and_evens", deck={"cards": []}, variant="standard", creative=False,
                                max_players=2, options={}, creator=PEOPLE[0], rng=self.rng))
        self.send(1, {"type": "join"})
        self.send(0, {"type": "start"})

    @property
    def state(self):
        return self.states[-1]

    def record(self, events):
        for event in events:
            self.events.append(event)
            self.states.append(evolve(self.states[-1], event))
        return events

    def send(self, seat, command):
        return self.record(decide(self.state, command, actor=PEOPLE[seat], rng=self.rng))

    def shown(self, event_index: int, viewer):
        return view_event(self.events[event_index], viewer, self.states[event_index], self.states[event_index + 1])


def everything_shown(game: Game, viewer) -> str:
    """Every state and event of the game as ``viewer`` saw it, as one text."""
    states = [view_state(state, viewer) for state in game.states[1:]]
    events = [game.shown(index, viewer) for index in range(len(game.events))]
    return json.dumps([states, events])


def test_a_state_field_nobody_described_is_shown_to_nobody():
    game = Game()
    assert game.state.table.memo == "not for anyone's eyes"
    for viewer in (None, 0, 1):
        view = view_state(game.state, viewer)
        assert "memo" not in view
        assert "not for anyone" not in json.dumps(view)


def test_an_event_key_nobody_declared_is_shown_to_nobody():
    game = Game()
    game.send(0, {"type": "throw", "fingers": 2})
    game.send(1, {"type": "throw", "fingers": 5})
    won = next(i for i, event in enumerate(game.events) if event.type == "round.won")
    assert game.events[won].data["note"] == "memo 7"
    for viewer in (None, 0, 1):
        assert game.shown(won, viewer) == {"seat": 0, "sum": 7}
        assert "secret" not in everything_shown(game, viewer)


def test_described_fields_are_shown_as_described_public_owned_and_counted():
    game = Game()
    game.send(0, {"type": "throw", "fingers": 2})
    game.send(1, {"type": "throw", "fingers": 5})
    mine, theirs, spectator = view_state(game.state, 0), view_state(game.state, 1), view_state(game.state, None)
    assert mine["scores"] == [{"seat": 0, "points": 1, "tally": [2]}, {"seat": 1, "points": 0}]
    assert theirs["scores"] == [{"seat": 0, "points": 1}, {"seat": 1, "points": 0, "tally": [5]}]
    assert spectator["scores"] == [{"seat": 0, "points": 1}, {"seat": 1, "points": 0}]
    assert spectator["history"] == {"count": 2} and spectator["round"] == 2
    assert [p["username"] for p in spectator["players"]] == ["odd", "even"]


def test_a_secret_choice_is_seen_by_its_seat_alone_until_every_choice_is_in():
    game = Game()
    made = len(game.events)
    game.send(1, {"type": "throw", "fingers": 4})
    assert [event.type for event in game.events[made:]] == ["choice.made"]
    assert game.shown(made, 1) == {"seat": 1, "choice": 4}
    assert game.shown(made, 0) == game.shown(made, None) == {"seat": 1}
    assert view_state(game.state, 0)["choices"] == {"waiting_for": [0], "made": [{"seat": 1}]}
    assert view_state(game.state, 1)["choices"] == {"waiting_for": [0], "made": [{"seat": 1, "choice": 4}]}
    assert "4" not in json.dumps(view_state(game.state, 0)["choices"])

    revealed = len(game.events) + 1
    game.send(0, {"type": "throw", "fingers": 1})
    assert [event.type for event in game.events[revealed - 1:revealed + 2]] == [
        "choice.made", "choices.revealed", "round.won"]
    for viewer in (None, 0, 1):
        assert game.shown(revealed, viewer) == {"choices": {"0": 1, "1": 4}}
    assert game.shown(revealed + 1, None) == {"seat": 0, "sum": 5}


def test_a_seat_chooses_once_and_only_when_asked():
    game = Game()
    game.send(0, {"type": "throw", "fingers": 3})
    with pytest.raises(DomainError) as again:
        game.send(0, {"type": "throw", "fingers": 4})
    assert again.value.code == "denied"
    assert legal_moves(game.state, 0) == []
    assert legal_moves(game.state, 1) == [{"type": "throw", "fingers": {"choose": 1, "from": [1, 2, 3, 4, 5],
                                                                         "list": False}}]
    assert legal_moves(game.state, None) == []


def test_a_game_of_random_legal_moves_ends_and_every_listed_move_is_accepted():
    import random

    game, chooser = Game(), random.Random(3)
    while game.state.status == "active":
        seat, move = next((seat, move) for seat in (0, 1) for move in legal_moves(game.state, seat))
        game.send(seat, {**move, "fingers": chooser.choice(move["fingers"]["from"])})
    assert game.state.status == "finished" and game.state.winners


def test_any_rulesets_state_is_snapshotted_and_read_back_by_its_type_hints():
    game = Game()
    game.send(0, {"type": "throw", "fingers": 2})
    snapshot = json.loads(json.dumps(state_to_json(game.state)))
    assert state_from_json(snapshot) == game.state


def test_a_ruleset_not_registered_is_no_ruleset(monkeypatch):
    monkeypatch.delitem(rulesets.REGISTERED, "odds_and_evens")
    with pytest.raises(DomainError) as refused:
        create_game(ruleset="odds_and_evens", deck={"cards": []}, variant="standard", creative=False,
                    max_players=2, options={}, creator=PEOPLE[0], rng=SeededRng(1))
    assert (refused.value.code, refused.value.details) == ("invalid", {"field": "ruleset"})


def orjson_writes_differently(hint, seen: set) -> list[str]:
    """The types under ``hint`` that orjson would not write as the codec does (``state_to_json_bytes`` writes a
    state with orjson straight from its dataclasses): anything but dataclasses, tuples, lists, dicts keyed by
    strings and plain JSON values."""
    import dataclasses
    import types
    import typing

    if hint is typing.Any or hint in (str, int, float, bool, type(None), tuple, list, dict) or hint in seen:
        return []
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Literal:
        return []
    if origin in (typing.Union, types.UnionType, tuple, list):
        return [problem for arg in args if arg is not Ellipsis for problem in orjson_writes_differently(arg, seen)]
    if origin in (dict, collections.abc.Mapping):
        keys = [] if not args or args[0] in (str, typing.Any) else [f"keys of {hint!r}"]
        return keys + (orjson_writes_differently(args[1], seen) if args else [])
    if dataclasses.is_dataclass(hint):
        seen.add(hint)
        return [problem for field_hint in typing.get_type_hints(hint).values()
                for problem in orjson_writes_differently(field_hint, seen)]
    return [repr(hint)]


def test_every_rulesets_state_is_written_by_orjson_as_the_codec_writes_it():
    from dvorak_engine.rulesets import all_rulesets
    from dvorak_engine.state import GameState

    for name, ruleset in all_rulesets().items():
        assert orjson_writes_differently(GameState, set()) == []
        assert orjson_writes_differently(ruleset.State, set()) == [], name
