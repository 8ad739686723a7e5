"""The event store: append-only streams with optimistic concurrency, immutable rows, snapshots, upcasters."""

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction

from dvorak_core import event_schemas as registry
from dvorak_kit.eventstore import store
from dvorak_kit.eventstore.models import Event, Snapshot
from tests.threads import run_in_threads

ROOT = Path(__file__).resolve().parents[2]


def new(n: int, type_: str = "counter.added") -> list[store.NewEvent]:
    return [store.NewEvent(type_, {"amount": i}) for i in range(1, n + 1)]


@pytest.mark.django_db
def test_append_then_read_returns_the_events_in_order_with_versions():
    recorded = store.append("game-a", 0, new(3), actor="alice")
    assert [e.version for e in recorded] == [1, 2, 3]
    assert len({e.id for e in recorded}) == 3

    events = store.read("game-a")
    assert [(e.version, e.type, e.data, e.actor) for e in events] == [
        (1, "counter.added", {"amount": 1}, "alice"),
        (2, "counter.added", {"amount": 2}, "alice"),
        (3, "counter.added", {"amount": 3}, "alice"),
    ]
    assert [e.version for e in store.read("game-a", after=1)] == [2, 3]
    assert [e.version for e in store.read("game-a", after=1, until=2)] == [2]
    assert store.current_version("game-a") == 3


@pytest.mark.django_db
def test_a_stale_expected_version_is_refused_and_appends_nothing():
    store.append("game-b", 0, new(2))
    with pytest.raises(store.ExpectedVersionConflict) as refused:
        store.append("game-b", 1, new(1))
    assert refused.value.code == "version_conflict"
    assert refused.value.details == {"expected_version": 1, "current_version": 2}
    with pytest.raises(store.ExpectedVersionConflict):
        store.append("game-b", 0, new(1))  # "new stream" when it already exists
    with pytest.raises(store.ExpectedVersionConflict):
        store.append("game-never", 4, new(1))  # a stream that does not exist is at version 0
    assert [e.version for e in store.read("game-b")] == [1, 2]
    assert Event.objects.filter(stream_id="game-b").count() == 2
    assert store.read("game-never") == []


@pytest.mark.django_db
def test_an_append_asked_for_no_ids_writes_the_same_events_and_refuses_the_same_stale_writes():
    from django.test.utils import CaptureQueriesContext

    first = store.append_if_current(store.pending("game-quiet", 0, new(2), actor="ann"), ids=False)
    assert [(e.id, e.version) for e in first] == [(0, 1), (0, 2)]  # as given: no ids sent back
    with CaptureQueriesContext(connection) as queries:
        more = store.append_recorded(store.pending("game-quiet", 2, new(1), actor="ann"), ids=False)
    assert [(e.id, e.version) for e in more] == [(0, 3)]
    if connection.vendor == "postgresql":
        [statement] = [q["sql"] for q in queries.captured_queries if "eventstore_event" in q["sql"]]
        assert "RETURNING" not in statement.split("INSERT INTO eventstore_event")[1]
    assert store.append_if_current(store.pending("game-quiet", 2, new(1)), ids=False) is None  # overtaken
    assert store.append_if_current(store.pending("game-quiet", 5, new(1)), ids=False) is None  # ahead of it
    assert store.append_if_current(store.pending("game-quiet", 0, new(1)), ids=False) is None  # not new
    with pytest.raises(store.ExpectedVersionConflict):
        store.append_recorded(store.pending("game-quiet", 1, new(1)), ids=False)
    events = store.read("game-quiet")
    assert [(e.version, e.data, e.actor) for e in events] == [
        (1, {"amount": 1}, "ann"), (2, {"amount": 2}, "ann"), (3, {"amount": 1}, "ann")]
    assert all(e.id > 0 for e in events) and store.current_version("game-quiet") == 3


@pytest.mark.django_db
def test_streams_are_independent():
    store.append("game-c", 0, new(2))
    store.append("game-d", 0, new(1))
    assert [e.version for e in store.read("game-c")] == [1, 2]
    assert [e.version for e in store.read("game-d")] == [1]


@pytest.mark.django_db
def test_an_append_writes_two_indexes_and_a_streams_events_are_read_by_the_stream_version_one():
    """The event table keeps the id's index and the unique (stream, version) one, nothing that one already covers
    (Django's own index on the stream's column, and PostgreSQL's second one for LIKE, were written by every append);
    a stream's events are read, in order, through the (stream, version) index."""
    with connection.cursor() as cursor:
        indexes = connection.introspection.get_constraints(cursor, "eventstore_event")
    assert sorted(about["columns"] for about in indexes.values()
                  if about["index"] or about["unique"] or about["primary_key"]) == \
        [["id"], ["stream_id", "version"]]
    if connection.vendor != "postgresql":
        return
    store.append("game-i", 0, new(3))
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")  # a table this small is otherwise read whole
        cursor.execute("EXPLAIN " + store.FOLD_READ_SQL, ["game-i", 3])
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "eventstore_event_stream_version" in plan and "Sort" not in plan, plan


@pytest.mark.django_db
def test_the_orm_cannot_update_or_delete_an_event():
    store.append("game-e", 0, new(1))
    with pytest.raises((DatabaseError, IntegrityError)), transaction.atomic():
        Event.objects.filter(stream_id="game-e").update(type="tampered")
    with pytest.raises((DatabaseError, IntegrityError)), transaction.atomic():
        Event.objects.filter(stream_id="game-e").delete()
    assert store.read("game-e")[0].type == "counter.added"


@pytest.mark.django_db
def test_raw_sql_update_and_delete_of_an_event_row_fail_on_this_database():
    store.append("game-f", 0, new(1))
    for statement in ("UPDATE eventstore_event SET data = '{}'", "DELETE FROM eventstore_event"):
        with pytest.raises(DatabaseError, match="immutable"), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(statement)
    assert store.read("game-f")[0].data == {"amount": 1}


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)  # committed rows: TRUNCATE refuses a table with pending FK checks anyway
def test_truncate_of_the_event_table_is_refused_on_postgresql():
    store.append("game-t", 0, new(2))
    with pytest.raises(DatabaseError, match="immutable"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("TRUNCATE eventstore_event CASCADE")
    assert [e.version for e in store.read("game-t")] == [1, 2]


@pytest.mark.postgres
@pytest.mark.django_db
def test_a_stream_with_events_cannot_be_deleted_by_the_orm_or_by_sql():
    """The events table holds no foreign key to its streams (the append ties them); the stream still stays."""
    from django.db.models import ProtectedError

    from dvorak_kit.eventstore.models import Stream

    store.append("game-kept", 0, new(2))
    with pytest.raises(ProtectedError), transaction.atomic():
        Stream.objects.filter(pk="game-kept").delete()
    with pytest.raises(IntegrityError, match="has events"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM eventstore_stream WHERE id = 'game-kept'")
    assert store.current_version("game-kept") == 2
    assert [e.version for e in store.read("game-kept")] == [1, 2]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_truncate_of_the_stream_table_is_refused_while_events_are_kept():
    store.append("game-tt", 0, new(1))
    with pytest.raises(IntegrityError, match="TRUNCATE"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("TRUNCATE eventstore_stream CASCADE")
    assert store.current_version("game-tt") == 1


@pytest.mark.postgres
@pytest.mark.django_db
def test_every_event_written_by_the_store_has_its_stream_row_at_its_version():
    """What the dropped foreign key checked, the append's statement ensures: no event without its stream."""
    store.append("game-tie", 0, new(2))
    store.append("game-tie", 2, new(1))
    with pytest.raises(store.ExpectedVersionConflict):
        store.append("game-tie", 1, new(1))
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM eventstore_event e LEFT JOIN eventstore_stream s ON s.id = e.stream_id "
            "WHERE e.stream_id = 'game-tie' AND (s.id IS NULL OR e.version > s.version)"
        )
        assert cursor.fetchone()[0] == 0
    assert store.current_version("game-tie") == 3


RUNTIME_ROLE = "dvorak_test_runtime"


@pytest.mark.postgres
@pytest.mark.django_db
def test_the_runtime_role_may_read_and_append_events_but_never_change_them_or_lift_the_triggers(settings):
    """As the role the app runs as (not the owner), history cannot be rewritten, even by turning a trigger off."""
    from dvorak_kit.eventstore.apps import grant_runtime_role

    store.append("game-r", 0, new(1))
    with connection.cursor() as cursor:  # all inside the test's transaction: the role is gone when it rolls back
        cursor.execute(f"CREATE ROLE {RUNTIME_ROLE} NOLOGIN")
        settings.DATABASE_RUNTIME_ROLE = RUNTIME_ROLE
        grant_runtime_role()  # what every migrate does, as the owner
        cursor.execute(f"SET LOCAL ROLE {RUNTIME_ROLE}")

        store.append("game-r", 1, new(1))
        assert [e.version for e in store.read("game-r")] == [1, 2]
        for statement in (
            "UPDATE eventstore_event SET data = '{}'",
            "DELETE FROM eventstore_event",
            "TRUNCATE eventstore_event",
            "ALTER TABLE eventstore_event DISABLE TRIGGER eventstore_event_immutable",
            "ALTER TABLE eventstore_event DISABLE TRIGGER ALL",
            "DROP TABLE eventstore_event",
        ):
            with pytest.raises(DatabaseError, match="permission denied|must be owner"), transaction.atomic():
                cursor.execute(statement)
        cursor.execute("RESET ROLE")
    assert [e.data for e in store.read("game-r")] == [{"amount": 1}, {"amount": 1}]


def test_raw_sql_update_and_delete_fail_on_sqlite_too(tmp_path):
    """Whatever database this run uses, migrate a fresh SQLite file and try to rewrite history in it."""
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env["DVORAK_VAR_DIR"] = str(tmp_path)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    db = sqlite3.connect(tmp_path / "dvorak.sqlite3")
    db.execute("INSERT INTO eventstore_stream (id, kind, version, created_at) VALUES ('game-z', 'game', 1, '2026-01-01')")
    db.execute(
        "INSERT INTO eventstore_event (stream_id, version, type, schema, data, actor, recorded_at) "
        "VALUES ('game-z', 1, 'card.drawn', 1, '{}', '', '2026-01-01')"
    )
    db.commit()
    for statement in ("UPDATE eventstore_event SET type = 'x'", "DELETE FROM eventstore_event"):
        with pytest.raises(sqlite3.DatabaseError, match="immutable"):
            db.execute(statement)
    assert db.execute("SELECT type FROM eventstore_event").fetchall() == [("card.drawn",)]


# --- concurrency on real PostgreSQL connections


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("ids", [True, False], ids=["ids sent back", "no ids"])
def test_eight_writers_racing_for_the_same_version_exactly_one_wins(ids):
    store.append("game-race", 0, new(1))

    def write(index: int):
        events = [store.NewEvent("counter.added", {"writer": index}), store.NewEvent("counter.added", {})]
        return store.append_recorded(store.pending("game-race", 1, events), ids=ids)

    results = run_in_threads(8, write)
    winners = [r for r in results if isinstance(r, list)]
    losers = [r for r in results if isinstance(r, store.ExpectedVersionConflict)]
    assert len(winners) == 1 and len(losers) == 7, results
    assert [e.version for e in store.read("game-race")] == [1, 2, 3]
    assert store.read("game-race")[1].data == winners[0][0].data


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_eight_writers_appending_to_one_stream_every_event_lands_once_without_gaps():
    per_writer = 15
    conflicts = [0] * 8

    def write(index: int) -> int:
        for n in range(per_writer):
            while True:
                version = store.current_version("game-busy")
                try:
                    store.append("game-busy", version, [store.NewEvent("counter.added", {"writer": index, "n": n})])
                    break
                except store.ExpectedVersionConflict:
                    conflicts[index] += 1
        return per_writer

    results = run_in_threads(8, write)
    assert results == [per_writer] * 8, results
    events = store.read("game-busy")
    assert [e.version for e in events] == list(range(1, 8 * per_writer + 1))
    landed = sorted((e.data["writer"], e.data["n"]) for e in events)
    assert landed == sorted((w, n) for w in range(8) for n in range(per_writer))
    assert sum(conflicts) > 0  # the losers of each race were told, and retried


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_lock_serializes_load_decide_append():
    """Writers that lock, read the version and append never conflict: they take turns on the row."""
    store.append("game-locked", 0, new(1))

    def write(index: int) -> int:
        with transaction.atomic():
            version = store.lock("game-locked")
            store.append("game-locked", version, [store.NewEvent("counter.added", {"writer": index})])
            return version

    results = run_in_threads(8, write)
    assert sorted(results) == list(range(1, 9)), results
    assert [e.version for e in store.read("game-locked")] == list(range(1, 10))


# --- snapshots and upcasters

def counter_folder(engine_version: str = "test-1") -> store.Folder:
    def evolve(state: dict, event) -> dict:
        return {"total": state["total"] + event.data["amount"], "seen": state["seen"] + 1}

    return store.Folder(engine_version=engine_version, initial=lambda: {"total": 0, "seen": 0}, evolve=evolve)


@pytest.mark.django_db
def test_snapshot_plus_tail_gives_the_same_state_as_a_full_replay():
    folder = counter_folder()
    store.append("game-snap", 0, new(25))
    version, state = store.load("game-snap", folder, snapshot_every=10)
    assert Snapshot.objects.get(stream_id="game-snap").version == 25
    store.append("game-snap", 25, new(7))

    with_snapshot = store.load("game-snap", folder, snapshot_every=1000)
    full_replay = store.load("game-snap", folder, use_snapshots=False)
    assert with_snapshot == full_replay == (32, {"total": sum(range(1, 26)) + sum(range(1, 8)), "seen": 32})


@pytest.mark.django_db
def test_a_snapshot_of_an_older_engine_version_is_ignored():
    store.append("game-old", 0, new(5))
    store.save_snapshot("game-old", 5, "test-0", {"total": -999, "seen": 5})  # what an older engine thought
    version, state = store.load("game-old", counter_folder("test-1"))
    assert (version, state) == (5, {"total": 15, "seen": 5})


@pytest.mark.django_db
def test_state_at_a_past_version_ignores_later_snapshots():
    folder = counter_folder()
    store.append("game-past", 0, new(20))
    store.load("game-past", folder, snapshot_every=5)
    assert store.load("game-past", folder, until=3) == (3, {"total": 6, "seen": 3})


@pytest.mark.django_db
def test_old_events_are_read_through_upcasters():
    store.append("game-up", 0, [store.NewEvent("test.renamed", {"old_name": "x"}, schema=1)])

    @registry.upcaster("test.renamed", from_schema=1)
    def rename(data: dict) -> dict:
        return {"name": data["old_name"]}

    (event,) = store.read("game-up")
    assert (event.schema, event.data) == (2, {"name": "x"})
    # the row itself is untouched
    assert Event.objects.get(stream_id="game-up").data == {"old_name": "x"}
