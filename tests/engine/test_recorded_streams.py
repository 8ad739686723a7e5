"""Streams stored before a change replay to what they showed before it, byte for byte: the state, every seat's and
a spectator's view of the state and of each event, and every seat's legal moves, after every event of a whole game
of each ruleset (``tests/engine/recorded_streams.py`` says how they were recorded).

Each stream is replayed as the service replays it: its rows read back as the store reads them, folded event by
event (how the live updates and ``?at=N`` see a game) and in one go (how a read rebuilds a game from a snapshot's
tail).
"""

from __future__ import annotations

import pytest

from dvorak_engine import evolve, replay, state_to_json_bytes
from tests.engine.recorded_streams import STREAMS, as_stored, games, load, path_of, shown

RECORDED = sorted(STREAMS.glob("*.json.gz"))


def test_every_ruleset_has_recorded_streams():
    from dvorak_engine.rulesets import REGISTERED

    recorded = {load(path)["steps"][0]["event"]["data"]["ruleset"] for path in RECORDED}
    assert recorded == set(REGISTERED)
    assert {path_of(name) for name, _ in games()} == set(RECORDED)


@pytest.mark.parametrize("path", RECORDED, ids=[path.name.removesuffix(".json.gz") for path in RECORDED])
def test_a_recorded_stream_replays_to_what_it_showed(path):
    steps = load(path)["steps"]
    events = [as_stored(step["event"]) for step in steps]
    state = None
    for number, (event, step) in enumerate(zip(events, steps, strict=True), start=1):
        before, state = state, evolve(state, event)
        now = shown(event, before, state)
        assert now == step["shows"], f"event {number} ({event.type}) shows another {_differing(now, step['shows'])}"
    assert state_to_json_bytes(replay(events)) == state_to_json_bytes(state)
    half = len(events) // 2  # a snapshot half way, and its tail
    assert state_to_json_bytes(replay(events[half:], replay(events[:half]))) == state_to_json_bytes(state)


def _differing(now: dict, recorded: dict) -> str:
    return ", ".join(key for key in recorded if now.get(key) != recorded[key])
