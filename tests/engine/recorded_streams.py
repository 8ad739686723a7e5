"""Recorded streams: whole games of every ruleset, played once by random legal moves and kept as the events the
store holds, with a digest of what each of them showed (the state, every seat's and a spectator's view of the
state and of the event, every seat's legal moves) after each event.

``tests/engine/test_recorded_streams.py`` replays them and asks for the same digests: a change inside the engine
that changes nothing a user sees keeps them; one that changes a byte of a view does not. Recorded with
``python -m tests.engine.recorded_streams`` (it writes only the files that are missing: a recorded stream is a
stream stored before a change, and is never re-recorded to make a test pass).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

from dvorak_core.event_schemas import upcast
from dvorak_engine import (
    Actor,
    DomainError,
    Event,
    SeededRng,
    codec,
    create_game,
    decide,
    evolve,
    legal_moves,
    view_event,
    view_state,
)
from dvorak_engine.events import stored_event
from dvorak_engine.state import GameState
from tests.engine.draft.table import rarity_set
from tests.engine.draft.table import sample_set as draft_set
from tests.engine.test_legal_moves import filled

ROOT = Path(__file__).resolve().parents[2]
STREAMS = ROOT / "tests" / "fixtures" / "streams"
SEED_DATA, SAMPLE_DATA = ROOT / "decks" / "seed_data", ROOT / "decks" / "sample_data"
ACTIVE_STATUSES = ("open", "active", "voting")


def deck(path: Path) -> dict:
    data = json.loads(path.read_text(encoding="utf-8"))
    for number, rule in enumerate(data.get("special_rules", []), start=1):
        rule["id"] = f"rule-{number}"
    return data


def digest(*parts: Any) -> str:
    """A short digest of values as the API writes them (orjson, keys in the order they were built)."""
    hasher = hashlib.sha256()
    for part in parts:
        hasher.update(orjson.dumps(part))
        hasher.update(b"\x00")
    return hasher.hexdigest()[:16]


def shown(event: Event, before: GameState | None, after: GameState) -> dict[str, str]:
    """What one event showed: the state, every viewer's view of it and of the event, every seat's moves."""
    viewers = [*range(len(after.seats)), None]
    return {
        "state": digest_state(after),
        "views": digest(*(view_state(after, viewer) for viewer in viewers)),
        "seen": digest(*(view_event(event, viewer, before, after) for viewer in viewers)),
        "moves": digest(*(legal_moves(after, seat) for seat in range(len(after.seats)))),
    }


def digest_state(state: GameState) -> str:
    """The state as it was written before the fields added since a stream was recorded (``dvorak_engine.codec.ADDED``):
    left out while they hold their default, so an old game is digested as it was."""
    return hashlib.sha256(orjson.dumps(codec.to_json_as_before(state))).hexdigest()[:16]


def stored(event: Event) -> dict[str, Any]:
    return {"type": event.type, "data": event.data, "schema": event.schema}


# --- playing --------------------------------------------------------------------------------------------------

def play(ruleset: str, game_deck: dict, players: int, seed: int, *, options: dict | None = None,
         max_commands: int = 600) -> list[Event]:
    """A game of any ruleset by random legal moves (each seat's ``legal_moves``, its choices filled at random);
    a game still going after ``max_commands`` ends by every seat but one conceding."""
    rng, chooser = SeededRng(seed), random.Random(seed)
    people = [Actor(user_id=100 + seat, username=f"player{seat}") for seat in range(players)]
    events = create_game(ruleset=ruleset, deck=game_deck, variant="standard", creative=False,
                         max_players=players, options=options or {}, creator=people[0], rng=rng)
    state = None
    for event in events:
        state = evolve(state, event)

    def send(seat: int, command: dict) -> None:
        nonlocal state
        for event in decide(state, command, actor=people[seat], rng=rng):
            events.append(event)
            state = evolve(state, event)

    for seat in range(1, players):
        send(seat, {"type": "join"})
    for _ in range(max_commands):
        offered = [(seat, move) for seat in range(players) for move in legal_moves(state, seat)
                   if move["type"] not in ("leave", "cancel", "abandon")]  # these players play their games out
        if not offered or state.status not in ACTIVE_STATUSES:
            break
        seat, move = chooser.choice(offered)
        try:
            send(seat, filled(move, chooser))
        except DomainError:
            continue
    for seat in range(1, players):
        if state.status in ACTIVE_STATUSES:
            try:
                send(seat, {"type": "concede"})
            except DomainError:
                pass
    return events


def dvorak_game(seed: int, *, players: int, game_deck: dict | None = None, variant: str = "standard",
                creative: bool = False, steps: int = 250) -> list[Event]:
    from tests.engine.dvorak_games import random_game

    options = {"blank_cards": 20} if creative else None
    return random_game(seed, players=players, deck=game_deck, steps=steps, variant=variant, creative=creative,
                       options=options).events


def games() -> Iterator[tuple[str, Any]]:
    """Every recorded stream's name, and how to play it."""
    for name in ("socialism", "rock-paper-scissors-extreme-deck", "article-ii-updated",
                 "simplistic-wargame-with-four-stats-s-e-r-m"):
        yield f"dvorak-{name}", lambda name=name: dvorak_game(1, players=3, game_deck=deck(SEED_DATA / f"{name}.json"))
    yield "dvorak-creative", lambda: dvorak_game(2, players=3, creative=True)
    yield "dvorak-team", lambda: dvorak_game(3, players=4, variant="team")
    yield "dvorak-multi-deck", lambda: dvorak_game(4, players=2, variant="multi_deck")
    yield "dvorak-ccg", lambda: dvorak_game(5, players=3, variant="ccg")
    for players in (2, 3, 4):
        yield f"article-ii-{players}", lambda players=players: play(
            "article_ii", deck(SEED_DATA / "article-ii.json"), players, 10 + players)
    yield "article-ii-updated-3", lambda: play("article_ii", deck(SEED_DATA / "article-ii-updated.json"), 3, 20)
    for seed in (1, 2):
        yield f"rock-paper-scissors-extreme-{seed}", lambda seed=seed: play(
            "rock_paper_scissors_extreme", deck(SEED_DATA / "rock-paper-scissors-extreme-deck.json"), 2, seed)
    serm = deck(SEED_DATA / "simplistic-wargame-with-four-stats-s-e-r-m.json")
    yield "serm-default", lambda: play("serm", serm, 2, 1)
    yield "serm-points", lambda: play("serm", serm, 2, 2, options={
        "budget": 12, "width": 10, "height": 9,
        "terrain": [{"x": 3, "y": 4, "width": 2, "height": 3}, {"x": 8, "y": 6, "width": 1, "height": 1}]})
    yield "serm-choices", lambda: play("serm", serm, 2, 3, options={
        "react_stop": "reactor_chooses", "reacts": "each", "blast": "centre"})
    drake = deck(SAMPLE_DATA / "virtues-of-the-drake-sample.json")
    for players in (2, 3, 4):
        yield f"virtues-of-the-drake-{players}", lambda players=players: play(
            "virtues_of_the_drake", drake, players, players)
    for players in (3, 4):
        yield f"socialism-{players}", lambda players=players: play(
            "socialism", deck(SEED_DATA / "socialism.json"), players, players)
    for seed in (1, 2):
        yield f"odds-and-evens-{seed}", lambda seed=seed: play("odds_and_evens", {"cards": []}, 2, seed,
                                                                 options={"target": 5})
    filibuster = deck(SAMPLE_DATA / "filibuster-sample-set.json")
    for players in (2, 3):
        yield f"filibuster-{players}", lambda players=players: play("filibuster", filibuster, players, players)
    yield "draft-2", lambda: play("draft", draft_set(), 2, 1)
    yield "draft-3-rarity", lambda: play("draft", rarity_set(30, 12, 6), 3, 2, options={"packs": 2})


# --- the files ------------------------------------------------------------------------------------------------

def path_of(name: str) -> Path:
    return STREAMS / f"{name}.json.gz"


def as_stored(step: dict[str, Any]) -> Event:
    """An event as the store gives it back: written out, read in again and brought up to its type's current
    schema by the upcasters (``dvorak_core.event_schemas``), as the store does on every read."""
    row = orjson.loads(orjson.dumps(step))
    schema, data = upcast(row["type"], row["schema"], row["data"])
    return stored_event(row["type"], data, schema)


def record(name: str, events: list[Event]) -> None:
    state, steps = None, []
    for event in (as_stored(stored(event)) for event in events):
        before, state = state, evolve(state, event)
        steps.append({"event": stored(event), "shows": shown(event, before, state)})
    STREAMS.mkdir(parents=True, exist_ok=True)
    text = json.dumps({"name": name, "steps": steps}, ensure_ascii=False, separators=(",", ":"))
    path_of(name).write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))


def load(path: Path) -> dict[str, Any]:
    return json.loads(gzip.decompress(path.read_bytes()))


def main() -> None:
    for name, played in games():
        if path_of(name).exists():
            continue
        events = played()
        record(name, events)
        print(f"{name}: {len(events)} events", file=sys.stderr)


if __name__ == "__main__":
    main()
