"""Events carry their schema, and streams stored before a change of an event's shape read as they did.

The change: since schema 2, ``game.created`` writes each card of the deck without the fields at their defaults
(``dvorak_engine.cards.compact_cards``). A stream stored before it, its rows at schema 1, is read through the
upcaster in the event store itself, and replays to the state it replayed to when it was recorded.
"""

from __future__ import annotations

import json

import orjson
import pytest

import dvorak_engine as engine
from dvorak_core.event_schemas import current_schema
from dvorak_kit.eventstore import store
from dvorak_kit.eventstore.models import Event as EventRow
from games import services
from tests.engine.recorded_streams import as_stored, digest_state, load, path_of
from tests.seeds import seed_deck_json

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("name", ["dvorak-socialism", "article-ii-3", "socialism-3", "virtues-of-the-drake-2"])
def test_a_stream_stored_at_schema_1_replays_through_the_store_to_the_state_it_had(name):
    steps = load(path_of(name))["steps"]
    assert steps[0]["event"]["schema"] == 1 and current_schema("game.created") == 2
    stream_id = f"game-recorded-{name}"
    store.append(stream_id, 0, [store.NewEvent(step["event"]["type"], step["event"]["data"], step["event"]["schema"])
                                for step in steps])
    row = EventRow.objects.get(stream_id=stream_id, version=1)
    assert row.schema == 1 and "flavor" in row.data["cards"][0]  # the row is kept as it was written

    first = store.read(stream_id, until=1)[0]
    assert first.schema == 2 and all("flavor" not in card or card["flavor"] for card in first.data["cards"])
    # The state the recorded stream replays to (byte for byte as when it was recorded: test_recorded_streams.py);
    # read from PostgreSQL's jsonb the same values come back with their keys in jsonb's order, so they are
    # compared as values.
    recorded = engine.replay([as_stored(step["event"]) for step in steps])
    assert digest_state(recorded) == steps[-1]["shows"]["state"]
    for use_snapshots in (False, True):
        version, state = store.load(stream_id, services.FOLDER, use_snapshots=use_snapshots, snapshot_every=50)
        assert version == len(steps)
        assert state == recorded


def test_a_new_game_writes_its_first_event_at_the_current_schema_and_smaller(make_user, client_for):
    from decks import services as deck_services

    deck_services.deck_import(author=None, text=seed_deck_json("socialism"), format="json")
    ann = make_user("ann")
    answer = client_for(ann).post("/api/v1/games/", {"deck": "socialism", "ruleset": "dvorak"}, format="json")
    assert answer.status_code == 201, answer.content
    row = EventRow.objects.get(stream_id=f"game-{answer.json()['id']}", version=1)
    assert row.type == "game.created" and row.schema == 2
    cards = row.data["cards"]
    assert cards and all(set(card) >= {"id", "title", "type"} for card in cards)
    assert not any(card.get(field) in ("", {}, False) for card in cards for field in ("flavor", "stats", "creator"))
    full = [engine.state_to_json(services.state_at(f"game-{answer.json()['id']}", 1))["table"]["cards"][card["id"]]
            for card in cards]
    assert len(orjson.dumps(cards)) < 0.9 * len(json.dumps(full).encode())
