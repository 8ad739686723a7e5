"""The store's prepared, binary read and append paths keep every guarantee, with prepared statements on or off
(off is how it runs behind PgBouncer's transaction pooling)."""

import pytest
from django.db import DatabaseError, connection, transaction

from dvorak_kit.eventstore import store
from dvorak_kit.eventstore.models import Event


def new(*amounts: int) -> list[store.NewEvent]:
    return [store.NewEvent("counter.added", {"amount": a, "note": "é ✓"}) for a in amounts]


@pytest.fixture(params=[True, False], ids=["prepared", "unprepared"])
def prepared(request, settings):
    settings.EVENTSTORE_PREPARED_STATEMENTS = request.param
    return request.param


@pytest.mark.django_db
def test_appends_read_back_exactly_and_a_stale_writer_is_refused_again_and_again(prepared):
    for _ in range(7):  # past psycopg's own threshold too: the same statement many times on one connection
        version = store.current_version("game-fast")
        store.append("game-fast", version, new(version + 1))
    with pytest.raises(store.ExpectedVersionConflict):
        store.append("game-fast", 3, new(99))
    with pytest.raises(store.ExpectedVersionConflict):
        store.append("game-fast", 0, new(99))
    events = store.read("game-fast")
    assert [(e.version, e.data) for e in events] == [(n, {"amount": n, "note": "é ✓"}) for n in range(1, 8)]
    assert [e.version for e in store.read("game-fast", after=2, until=4)] == [3, 4]
    assert events[0].recorded_at.tzinfo is not None
    assert Event.objects.filter(stream_id="game-fast").count() == 7


@pytest.mark.django_db(transaction=True)
def test_a_refused_append_inside_a_command_transaction_leaves_nothing_and_the_lock_still_holds(prepared):
    store.append("game-tx", 0, new(1))
    with pytest.raises(store.ExpectedVersionConflict), transaction.atomic():
        version = store.lock("game-tx")
        store.append("game-tx", version, new(2))
        store.append("game-tx", version, new(3))  # the same expected version again: stale now
    assert [e.data["amount"] for e in store.read("game-tx")] == [1]


@pytest.mark.django_db
def test_events_written_through_the_fast_path_are_still_immutable(prepared):
    recorded = store.append("game-imm", 0, new(1))
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE eventstore_event SET data = '{}' WHERE id = %s", [recorded[0].id])
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM eventstore_event WHERE id = %s", [recorded[0].id])
    assert store.read("game-imm")[0].data == {"amount": 1, "note": "é ✓"}


@pytest.mark.django_db
def test_a_snapshot_loads_back_the_state_saved_and_never_one_past_until(prepared):
    store.append("game-snap", 0, new(1, 2, 3))
    store.save_snapshot("game-snap", 3, "e1", {"total": 6, "list": [1, 2, 3]})
    assert store.load_snapshot("game-snap", "e1") == (3, {"total": 6, "list": [1, 2, 3]})
    assert store.load_snapshot("game-snap", "e1", until=2) is None
    assert store.load_snapshot("game-snap", "e2") is None


@pytest.mark.django_db
def test_a_game_rebuilt_from_its_events_equals_the_one_loaded_from_a_snapshot_plus_tail(prepared):
    from games.services import FOLDER
    from tests.engine.dvorak_games import random_game

    game = random_game(11, players=3, steps=150, creative=True)
    batch = [store.NewEvent(e.type, e.data, e.schema) for e in game.events]
    store.append("game-replay", 0, batch[:100])
    store.append("game-replay", 100, batch[100:])
    version, replayed = store.load("game-replay", FOLDER, use_snapshots=False)
    assert (version, replayed) == (len(game.events), game.state)
    store.save_snapshot("game-replay", 60, FOLDER.engine_version, FOLDER.to_json(game.states[59]))
    assert store.load("game-replay", FOLDER) == (version, game.state)
    assert store.load("game-replay", FOLDER, until=80)[1] == game.states[79]
    # Before the snapshot, at it, and a stream with no events: read from the right place, the right version.
    assert store.load("game-replay", FOLDER, until=50) == (50, game.states[49])
    assert store.load("game-replay", FOLDER, until=60) == (60, game.states[59])
    assert store.load("game-none", FOLDER) == (0, None)
    # Folding what ``read`` returns (the service's cache path) gives the same state.
    assert store.fold(FOLDER, store.read("game-replay", after=60), game.states[59]) == game.state


@pytest.mark.django_db
def test_the_unique_stream_version_constraint_still_surfaces_as_an_integrity_error(prepared):
    from django.db import IntegrityError

    store.append("game-uniq", 0, new(1, 2))
    with pytest.raises(IntegrityError), transaction.atomic():
        # The stream's row says 1 again, but event 2 exists: the constraint under the version check refuses.
        with connection.cursor() as cursor:
            cursor.execute("UPDATE eventstore_stream SET version = 1 WHERE id = 'game-uniq'")
        store.append("game-uniq", 1, new(3))
    assert [e.data["amount"] for e in store.read("game-uniq")] == [1, 2]


@pytest.mark.django_db
def test_a_projection_goes_with_its_append_and_not_with_a_refused_one():
    """The read model's UPDATE is carried out exactly when the events are written."""
    with connection.cursor() as cursor:
        cursor.execute("CREATE TEMPORARY TABLE projected_row (id integer PRIMARY KEY, version integer)")
        cursor.execute("INSERT INTO projected_row VALUES (1, 0)")
    stream = "game-projection-test"
    projection = store.Projection("UPDATE projected_row SET version = %s WHERE id = %s", (1, 1))
    with transaction.atomic():
        store.append(stream, 0, [store.NewEvent("game.created", {})], projection=projection)
    stale = store.Projection("UPDATE projected_row SET version = %s WHERE id = %s", (99, 1))
    with pytest.raises(store.ExpectedVersionConflict), transaction.atomic():
        store.append(stream, 0, [store.NewEvent("game.created", {})], projection=stale)
    with connection.cursor() as cursor:
        cursor.execute("SELECT version FROM projected_row WHERE id = 1")
        assert cursor.fetchone()[0] == 1
    assert [e.version for e in store.read(stream)] == [1]


@pytest.mark.postgres
@pytest.mark.django_db
def test_the_stores_statements_are_prepared_on_the_server_once_and_only_when_asked(prepared):
    """Django opens its connections with psycopg's preparing off; the store's statements must still be prepared
    (parsed and planned once per connection), and not at all behind PgBouncer's transaction pooling."""
    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's")
    for version in range(3):
        store.append("game-prepared", version, new(version + 1))
        store.read("game-prepared")
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        statements = [row[0] for row in cursor.fetchall()]
    appends = [s for s in statements if "INSERT INTO eventstore_event" in s]
    reads = [s for s in statements if s.startswith(store.READ_SQL.split(" %s")[0].split(" WHERE")[0])]
    if prepared:
        assert len(appends) == 2 and len(reads) == 1, statements  # a new stream's append, then a later one's
    else:
        assert appends == [] and reads == [], statements


@pytest.mark.django_db(transaction=True)
def test_a_statement_that_fails_leaves_the_store_usable_on_its_connection_and_on_a_new_one(prepared):
    """The store runs its statements through one cursor a connection, kept between calls: a failed statement
    must not leave it unusable, nor a reconnect leave it pointing at the closed connection."""
    if connection.vendor != "postgresql":
        pytest.skip("the store's own cursor and prepared statements are PostgreSQL's")
    store.append("game-err", 0, new(1))
    with pytest.raises(DatabaseError):
        store.execute_prepared("SELECT no_such_column FROM eventstore_stream WHERE id = %s", ["game-err"])
    store.append("game-err", 1, new(2))
    connection.close()
    store.append("game-err", 2, new(3))
    assert [e.data["amount"] for e in store.read("game-err")] == [1, 2, 3]
