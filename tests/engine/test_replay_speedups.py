"""The replay's shortcuts change nothing a game shows: the fast copy of a frozen state is the standard one, and
the ruleset cache answers with the ruleset registered under a name now, never a stale one."""

from __future__ import annotations

import dataclasses

import pytest

from dvorak_core.errors import DomainError
from dvorak_engine import evolve, replay, rulesets, state_from_json, state_to_json
from dvorak_engine.events import Event, stored_event
from dvorak_engine.state import GameState, Seat
from dvorak_engine.values import replace
from tests.engine.dvorak_games import random_game


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


# --- the fast fold: the same states as evolve, event by event, and no state given to it changed ----------


def _one_by_one(events):
    states, state = [], None
    for event in events:
        state = evolve(state, event)
        states.append(state)
    return states


def _claims_game():
    """A game with every kind of claim step: one accepted (and won), after one disputed and voted down."""
    from tests.engine.test_card_effects import table

    game = table()
    game.send(0, {"type": "win", "cause": "2"})
    game.send(1, {"type": "dispute", "claim": 1})
    seat = game.state.table.turn.seat
    game.send(seat, {"type": "win", "cause": "2"})
    others = [s for s in range(3) if s != seat]
    for other in others:
        game.send(other, {"type": "accept", "claim": 2})
    return game.events


@pytest.mark.parametrize("make", [
    lambda: random_game(3, players=3, steps=400, creative=True).events,
    lambda: random_game(5, players=4, steps=400, creative=True, variant="team").events,
    lambda: random_game(9, players=2, steps=300).events,
    _claims_game,
], ids=["creative", "team", "plain", "claims"])
def test_the_fast_fold_gives_every_state_evolve_gives_and_changes_none_it_was_given(make):
    events = make()
    states = _one_by_one(events)
    before = [dataclasses.replace(s) for s in states]  # copies, to see that no given state is changed
    assert replay(events) == states[-1]
    for cut in range(1, len(events), max(1, len(events) // 25)):
        assert replay(events[:cut]) == states[cut - 1]
        assert replay(events[cut:], states[cut - 1]) == states[-1]
    assert [s.version for s in states] == list(range(1, len(events) + 1))
    assert states == before and all(s.version == b.version for s, b in zip(states, before, strict=True))


def test_the_claims_game_has_its_claims_and_proposals_in_the_replay():
    types = {e.type for e in _claims_game()}
    assert {"claim.opened", "claim.answered", "claim.resolved", "game.won"} <= types
    creative = {e.type for e in random_game(3, players=3, steps=400, creative=True).events}
    assert {"proposal.opened", "proposal.voted", "proposal.resolved"} <= creative


def test_a_fold_given_back_the_same_state_copies_it_rather_than_changing_it():
    game = random_game(3, players=3, steps=60, creative=True)
    rules = rulesets.get_ruleset("dvorak")
    state = game.state
    same = type(rules)
    original = same.appliers["turn.ended"]
    try:  # an applier that changes nothing: the fold must not set the version on the state it was given
        same.appliers["turn.ended"] = "_nothing"
        same._nothing = lambda self, s, e: s
        after = rules.fold(state, [Event("turn.ended", {"seat": 0})])
    finally:
        same.appliers["turn.ended"] = original
        del same._nothing
    assert after is not state and after.version == state.version + 1 and state == game.state
    assert state.version == len(game.events)


def test_a_stored_event_is_the_event_the_engine_would_build():
    made = stored_event("card.drawn", {"seat": 1, "card": "c3"}, 2)
    assert made == Event("card.drawn", {"seat": 1, "card": "c3"}, 2) and type(made) is Event
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.type = "other"


def test_a_snapshot_reads_back_to_the_same_frozen_state_and_a_missing_field_takes_its_default():
    for seed in (3, 4):
        state = random_game(seed, players=3, steps=300, creative=True).state
        data = state_to_json(state)
        back = state_from_json(data)
        assert back == state
        with pytest.raises(dataclasses.FrozenInstanceError):
            back.table.turn_number = 0
    older = {key: value for key, value in data.items() if key not in ("choices", "choosing")}
    assert state_from_json(older) == dataclasses.replace(state, choices={}, choosing=())
    # A key that is no field (a later writer's, say) is ignored, at the top and inside the ruleset's values.
    table = data["table"]
    player = {**table["players"][0], "note": "not a field"}
    newer = {**data, "extra": 1, "table": {**table, "players": [player, *table["players"][1:]]}}
    assert state_from_json(newer) == state
    assert "note" not in vars(state_from_json(newer).table.players[0])
