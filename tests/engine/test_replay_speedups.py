"""The replay's shortcuts change nothing a game shows: the fast copy of a frozen state is the standard one, and
the ruleset cache answers with the ruleset registered under a name now, never a stale one."""

from __future__ import annotations

import dataclasses

import pytest

from dvorak_core.errors import DomainError
from games.engine import evolve, replay, rulesets
from games.engine.rulesets.dvorak.testing import random_game
from games.engine.state import GameState, Seat
from games.engine.values import replace


def test_the_fast_replace_gives_what_dataclasses_replace_gives_and_leaves_the_old_state_alone():
    state = GameState(ruleset="dvorak", seats=(Seat(0, 1, "ann"),), options={"a": 1})
    changed = replace(state, version=3, status="active")
    assert changed == dataclasses.replace(state, version=3, status="active")
    assert (state.version, state.status) == (0, "open")
    with pytest.raises(dataclasses.FrozenInstanceError):
        changed.version = 4
    with pytest.raises(TypeError):
        replace(state, no_such_field=1)


def test_replay_in_one_go_equals_evolving_event_by_event():
    game = random_game(7, players=3, steps=200, creative=True)
    state = None
    for event in game.events:
        state = evolve(state, event)
    assert replay(game.events) == state == game.state


def test_the_ruleset_cache_follows_what_is_registered_under_a_name(monkeypatch):
    dvorak = rulesets.get_ruleset("dvorak")
    assert rulesets.get_ruleset("dvorak") is dvorak
    monkeypatch.setitem(rulesets.REGISTERED, "odds_and_evens", "tests.engine.toy_ruleset")
    toy = rulesets.get_ruleset("odds_and_evens")
    assert toy.name == "odds_and_evens" and toy is not dvorak
    monkeypatch.delitem(rulesets.REGISTERED, "odds_and_evens")
    with pytest.raises(DomainError):
        rulesets.get_ruleset("odds_and_evens")
    with pytest.raises(DomainError):
        rulesets.get_ruleset(["not", "a", "name"])
