"""A game's stored events replay to the state the server played to, with snapshots and without. Its commands are
committed, as a server's are: a snapshot due is written after the commit, by the process's snapshot writer."""

import random

import pytest

from dvorak_kit.eventstore import store
from dvorak_kit.eventstore.models import Snapshot
from games import services
from tests.engine.dvorak_games import legal_commands

pytestmark = pytest.mark.django_db(transaction=True)


def test_replaying_a_game_with_and_without_snapshots_gives_the_state_it_was_played_to(table, settings):
    settings.EVENTSTORE_SNAPSHOT_EVERY = 7
    game_id, seated = table(3, size=30)
    stream_id = f"game-{game_id}"
    rng = random.Random(5)
    for _ in range(60):
        state = services.state_at(stream_id, store.current_version(stream_id))
        if state.status == "finished":
            break
        choices = [(seat, c) for seat in range(3) for c in legal_commands(state, seat)
                   if c["type"] not in {"concede", "win", "eliminate"}]
        seat, command = rng.choice(choices)
        seated[seat][1].post(f"/api/v1/games/{game_id}/commands/", command, format="json")

    version = store.current_version(stream_id)
    played = services.state_at(stream_id, version)
    services.SNAPSHOTS.flush()
    assert Snapshot.objects.filter(stream_id=stream_id).exists()

    services.STATE_CACHE.clear()
    _, from_snapshot = store.load(stream_id, services.FOLDER)
    _, full_replay = store.load(stream_id, services.FOLDER, use_snapshots=False)
    assert from_snapshot == full_replay == played
    assert played.version == version

    # What every seat is shown is the same whichever way the state was rebuilt.
    for _, client in seated:
        services.STATE_CACHE.clear()
        assert client.get(f"/api/v1/games/{game_id}/").json()["version"] == version
