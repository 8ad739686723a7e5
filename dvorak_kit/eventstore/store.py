"""Append to and read from streams of immutable events.

Writers of one stream take turns on the stream's row: ``append`` moves the stream's version from the
version the caller expects to the new one in a single conditional UPDATE, which both locks the row and
checks the expectation, so a stale writer is refused and appends nothing. The unique constraint on
``(stream, version)`` is the safety net under it.

A service that must read the state before deciding (load → decide → append) either calls ``lock`` first,
inside its transaction (``SELECT … FOR UPDATE`` holds the row until commit, so no one else appends in between),
or appends with the version it read and decides again when ``ExpectedVersionConflict`` says it was overtaken.
"""

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from typing import Any

import orjson
import psycopg
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, IntegrityError, connection, connections, transaction
from django.utils import timezone
from psycopg.pq import ExecStatus

from dvorak_core.errors import VersionConflict
from dvorak_core.event_schemas import current_schema, upcast
from dvorak_kit import metrics

from .models import Event, Snapshot, Stream


@dataclass(frozen=True)
class NewEvent:
    type: str
    data: dict
    schema: int | None = None  # None: the type's current schema


@dataclass(frozen=True)
class RecordedEvent:
    id: int
    stream_id: str
    version: int
    type: str
    schema: int
    data: dict
    actor: str
    recorded_at: datetime


class ExpectedVersionConflict(VersionConflict):
    def __init__(self, stream_id: str, expected: int, actual: int | None):
        super().__init__(
            f"The stream is at version {actual or 0}, not {expected}: reload and try again.",
            details={"expected_version": expected, "current_version": actual or 0},
        )
        self.stream_id = stream_id
        self.expected = expected
        self.actual = actual


def stream_kind(stream_id: str) -> str:
    return stream_id.split("-", 1)[0]


def current_version(stream_id: str) -> int:
    return Stream.objects.filter(pk=stream_id).values_list("version", flat=True).first() or 0


def current_versions(stream_ids: Iterable[str]) -> dict[str, int]:
    """The current version of each of ``stream_ids`` in one query (0 for a stream with no events yet)."""
    ids = list(stream_ids)
    found = dict(Stream.objects.filter(pk__in=ids).values_list("id", "version"))
    return {stream_id: found.get(stream_id, 0) for stream_id in ids}


def lock(stream_id: str) -> int:
    """Lock the stream's row until the transaction ends and return its version (0 for a new stream)."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("lock() must be called inside transaction.atomic()")
    if connection.vendor == "postgresql":
        rows = execute_prepared(LOCK_SQL, [stream_id])
        return rows[0][0] if rows else 0
    version = Stream.objects.select_for_update().filter(pk=stream_id).values_list("version", flat=True).first()
    return version or 0


LOCK_SQL = "SELECT version FROM eventstore_stream WHERE id = %s FOR UPDATE"


@dataclass(frozen=True)
class Projection:
    """An UPDATE of a read model that goes with an append: on PostgreSQL it travels in the append's own statement
    (no round trip of its own) and is carried out only if the events are written."""

    sql: str  # UPDATE ... (no RETURNING); its placeholders are %s
    params: tuple[Any, ...] = ()


def append(stream_id: str, expected_version: int, events: Sequence[NewEvent], *, actor: str = "",
           projection: Projection | None = None) -> list[RecordedEvent]:
    """Append ``events`` after ``expected_version``; refuse with ExpectedVersionConflict if it is stale.
    ``projection``, if given, is carried out with the append."""
    return append_recorded(pending(stream_id, expected_version, events, actor=actor), projection=projection)


def pending(stream_id: str, expected_version: int, events: Sequence[NewEvent], *, actor: str = "") -> list[RecordedEvent]:
    """The events as they will be recorded after ``expected_version`` (their ids still 0): a caller can fold
    them into its state before ``append_recorded`` writes them, and so project that state in the same statement."""
    now = timezone.now()
    return [
        RecordedEvent(0, stream_id, expected_version + offset, event.type, event.schema or current_schema(event.type),
                      event.data, actor, now)
        for offset, event in enumerate(events, start=1)
    ]


def append_recorded(recorded: Sequence[RecordedEvent], *, projection: Projection | None = None,
                    ids: bool = True) -> list[RecordedEvent]:
    """Write events made by ``pending`` (one stream's, in order); refuse with ExpectedVersionConflict if another
    writer moved the stream meanwhile."""
    written = append_if_current(recorded, projection=projection, ids=ids)
    if written is None:
        stream_id, expected_version = recorded[0].stream_id, recorded[0].version - 1
        raise ExpectedVersionConflict(stream_id, expected_version, current_version(stream_id))
    return written


def append_if_current(recorded: Sequence[RecordedEvent], *, projection: Projection | None = None, ids: bool = True
                      ) -> list[RecordedEvent] | None:
    """As ``append_recorded``, but None when another writer moved the stream meanwhile: for a caller that decides
    again anyway, without the read of the stream's version that the refusal's message costs.

    ``ids=False``: the events come back as given, their ids 0, for a caller with no use for their global
    positions (a game command: its answer and its live update go by version). On PostgreSQL the statement then
    sends nothing back but its count of rows, where the ids cost a row each to send and to read (bench/README.md).

    Timed (``dvorak_eventstore_append_duration_seconds``, by stream kind and whether it wrote); a statement that
    failed is not.
    """
    if not recorded:
        return []
    stream_id, expected_version = recorded[0].stream_id, recorded[0].version - 1
    db = connections[DEFAULT_DB_ALIAS]
    started = time.perf_counter()
    if db.vendor != "postgresql":
        new_ids = _append_portable(stream_id, expected_version, recorded, projection)
    elif ids:
        new_ids = _append_postgres(db, stream_id, expected_version, recorded, projection)
    else:
        written = _append_postgres_counted(db, stream_id, expected_version, recorded, projection)
        metrics.append_observed(stream_kind(stream_id), written, time.perf_counter() - started)
        return list(recorded) if written else None
    metrics.append_observed(stream_kind(stream_id), bool(new_ids), time.perf_counter() - started)
    if not new_ids:
        return None
    if not ids:  # SQLite's statement sends them anyway
        return list(recorded)
    return [_with_id(event, id_) for event, id_ in zip(recorded, new_ids, strict=True)]


def _with_id(event: RecordedEvent, id_: int) -> RecordedEvent:
    return RecordedEvent(id_, event.stream_id, event.version, event.type, event.schema, event.data, event.actor,
                         event.recorded_at)


def _row_params(events: Sequence[RecordedEvent], db=connection) -> list[Any]:
    adapt = db.ops.adapt_datetimefield_value
    params: list[Any] = []
    for event in events:
        params += [event.stream_id, event.version, event.type, event.schema, orjson.dumps(event.data).decode(),
                   event.actor, adapt(event.recorded_at)]
    return params


EVENT_COLUMNS = "stream_id, version, type, schema, data, actor, recorded_at"


def _append_postgres(db, stream_id: str, expected: int, events: Sequence[RecordedEvent],
                     projection: Projection | None) -> list[int]:
    """One statement, so one round trip: move the stream's version, and insert only if that moved it; the new
    events' ids, in order (none: another writer moved the stream).

    The UPDATE (or, for a new stream, the INSERT) takes the stream's row lock; a writer that finds the
    version already moved updates nothing, so its events are not inserted either, nor is the projection updated.
    """
    sql, params = _append_statement(db, stream_id, expected, events, projection, returning=True)
    ids = [row[0] for row in execute_prepared(sql, params, db=db)]
    ids.sort()
    return ids


def _append_postgres_counted(db, stream_id: str, expected: int, events: Sequence[RecordedEvent],
                             projection: Projection | None) -> bool:
    """As ``_append_postgres``, the statement asked for no ids: whether it wrote the events, by its count of rows."""
    sql, params = _append_statement(db, stream_id, expected, events, projection, returning=False)
    return execute_counted(sql, params, db=db) == len(events)


def _append_statement(db, stream_id: str, expected: int, events: Sequence[RecordedEvent],
                      projection: Projection | None, *, returning: bool) -> tuple[str, list[Any]]:
    new_version = expected + len(events)
    if expected == 0:
        move_params: list[Any] = [stream_id, stream_kind(stream_id), new_version, events[0].recorded_at]
    else:
        move_params = [new_version, stream_id, expected]
    if projection is not None:
        move_params += projection.params
    sql = _append_sql(expected == 0, len(events), None if projection is None else projection.sql, returning)
    return sql, move_params + _row_params(events, db)


@lru_cache(maxsize=256)
def _append_sql(new_stream: bool, count: int, projection_sql: str | None, returning: bool = True) -> str:
    """The append's statement for its shape (a new stream or not, how many events, which projection, whether it
    sends the new ids back): built once, the same text every time, as its preparing on the server needs."""
    if new_stream:
        move = (
            "INSERT INTO eventstore_stream (id, kind, version, created_at) VALUES (%s, %s, %s, %s) "
            "ON CONFLICT (id) DO NOTHING RETURNING id"
        )
    else:
        move = "UPDATE eventstore_stream SET version = %s WHERE id = %s AND version = %s RETURNING id"
    row = "(%s, %s::integer, %s, %s::smallint, %s::jsonb, %s, %s::timestamptz)"
    projected = f", projected AS ({_only_if_moved(projection_sql)}) " if projection_sql is not None else ""
    # The events are joined to the moved row (one or none) rather than filtered by a test of it: a few µs less.
    return (
        f"WITH moved AS ({move}){projected} "
        f"INSERT INTO eventstore_event ({EVENT_COLUMNS}) "
        f"SELECT v.* FROM moved, (VALUES {', '.join([row] * count)}) AS v({EVENT_COLUMNS})"
        + (" RETURNING id" if returning else "")
    )


NEVER_BY_REPETITION = 2**31 - 1
TUPLES_OK = ExecStatus.TUPLES_OK


def _prepare() -> bool:
    """Whether the store's statements are prepared on the server (off behind PgBouncer's transaction pooling)."""
    return getattr(settings, "EVENTSTORE_PREPARED_STATEMENTS", True)


def execute_prepared(sql: str, params: list[Any], *, binary: bool = False, db=None) -> list[tuple]:
    """Run one statement (the store's own, or a caller's that runs on every command) on Django's connection (so
    inside the caller's transaction); PostgreSQL only.

    On PostgreSQL it goes through a server-side-binding psycopg cursor on the same connection: parameters
    travel apart from the text, and the statement, the same text every time for a given shape, is prepared
    once per connection and then only executed, unless ``EVENTSTORE_PREPARED_STATEMENTS`` is off.
    """
    return _executed(sql, params, binary, db, _rows)


def execute_counted(sql: str, params: list[Any], *, db=None) -> int:
    """As ``execute_prepared``, for a statement that sends no rows back: how many rows it wrote (its count)."""
    return _executed(sql, params, False, db, _count)


def _rows(cursor: psycopg.Cursor) -> list[tuple]:
    result = cursor.pgresult  # whether it returned rows; `description` builds its columns to say so
    return cursor.fetchall() if result is not None and result.status == TUPLES_OK else []


def _count(cursor: psycopg.Cursor) -> int:
    return cursor.rowcount


def _executed(sql: str, params: list[Any], binary: bool, db, taken: Callable[[psycopg.Cursor], Any]) -> Any:
    if db is None:  # looked up once: each `connection.x` goes through the handler's thread-local
        db = connections[DEFAULT_DB_ALIAS]
    if db.connection is None:  # ensure_connection's own check, without its guard against the event loop's thread
        db.ensure_connection()
    db.validate_no_broken_transaction()
    started = time.monotonic() if db.queries_logged else None
    raw, prepare = db.connection, _prepare()
    if prepare and raw.prepare_threshold is None:
        # Django opens its connections with psycopg's preparing off (prepare_threshold None), and then psycopg
        # prepares nothing, not even a statement asked for by name: every execution was parsed and planned
        # again. With a threshold no statement reaches, only those asked for (these) are prepared.
        raw.prepare_threshold = NEVER_BY_REPETITION
    cursor = getattr(raw, "_dvorak_store_cursor", None)
    if cursor is None or cursor.closed:
        # One cursor a connection, used again: making one (its adapters map) cost as much as filling its params.
        # Kept on psycopg's connection, not Django's wrapper, as a pooled connection goes from thread to thread.
        cursor = raw._dvorak_store_cursor = psycopg.Cursor(raw)
    with db.wrap_database_errors:  # Django's errors
        cursor.execute(sql, params, prepare=prepare or None, binary=binary)
        taken_from_it = taken(cursor)
    if started is not None:  # DEBUG, or a test counting statements: logged as Django logs its own
        db.queries_log.append({"sql": sql, "time": f"{time.monotonic() - started:.3f}"})
    return taken_from_it


def _only_if_moved(update_sql: str) -> str:
    """The projection's UPDATE, made to touch nothing unless the append's own version move happened."""
    head, where, condition = update_sql.partition(" WHERE ")
    if not where:
        raise ValueError("A projection is an UPDATE with a WHERE clause.")
    return f"{head} WHERE EXISTS (SELECT 1 FROM moved) AND ({condition})"


def _append_portable(stream_id: str, expected: int, events: Sequence[RecordedEvent],
                     projection: Projection | None) -> list[int]:
    """SQLite (one writer at a time anyway): move the version, then insert, in one transaction."""
    new_version = expected + len(events)
    with transaction.atomic():
        if expected == 0:
            try:
                with transaction.atomic():
                    Stream.objects.create(id=stream_id, kind=stream_kind(stream_id), version=new_version)
            except IntegrityError:
                return []
        elif not Stream.objects.filter(pk=stream_id, version=expected).update(version=new_version):
            return []
        sql = f"INSERT INTO eventstore_event ({EVENT_COLUMNS}) VALUES {', '.join(['(%s, %s, %s, %s, %s, %s, %s)'] * len(events))} RETURNING id"
        with connection.cursor() as cursor:
            cursor.execute(sql, _row_params(events))
            ids = sorted(r[0] for r in cursor.fetchall())
            if projection is not None:
                cursor.execute(projection.sql, list(projection.params))
            return ids


READ_SQL = (
    "SELECT id, version, type, schema, data::text, actor, recorded_at FROM eventstore_event "
    "WHERE stream_id = %s AND version > %s AND version <= %s ORDER BY version"
)
NO_LIMIT = 2**31 - 1  # the version column is an integer


def read(stream_id: str, after: int = 0, *, until: int | None = None) -> list[RecordedEvent]:
    """The stream's events with version > ``after`` (and <= ``until``), upcast to their current schema.

    On PostgreSQL one prepared statement reads them, and the JSON is decoded by orjson: the ORM's per-row
    converters and the standard JSON decoder were most of a replay's reading time.
    """
    if connection.vendor != "postgresql":
        return _read_portable(stream_id, after, until)
    rows = execute_prepared(READ_SQL, [stream_id, after, NO_LIMIT if until is None else until], binary=True)
    return _decoded(stream_id, rows)


def _decoded(stream_id: str, rows: Iterable[tuple]) -> list[RecordedEvent]:
    loads, current = orjson.loads, current_schema
    events = []
    for id_, version, type_, schema, data, actor, recorded_at in rows:
        data = loads(data)
        if schema < current(type_):
            schema, data = upcast(type_, schema, data)
        events.append(RecordedEvent(id_, stream_id, version, type_, schema, data, actor, recorded_at))
    return events


def _read_portable(stream_id: str, after: int, until: int | None) -> list[RecordedEvent]:
    rows = Event.objects.filter(stream_id=stream_id, version__gt=after)
    if until is not None:
        rows = rows.filter(version__lte=until)
    fields = ("id", "stream_id", "version", "type", "schema", "data", "actor", "recorded_at")
    return [_upcast_row(row) for row in rows.order_by("version").values_list(*fields)]


def _upcast_row(row: tuple) -> RecordedEvent:
    id_, stream_id, version, type_, schema, data, actor, recorded_at = row
    schema, data = upcast(type_, schema, data)
    return RecordedEvent(id_, stream_id, version, type_, schema, data, actor, recorded_at)


# --- snapshots: a cache of folded state; deleting them loses nothing.


@dataclass(frozen=True)
class Folder:
    """How a kind of stream folds into state; snapshots are tagged with ``engine_version``."""

    engine_version: str
    initial: Callable[[], Any]
    evolve: Callable[[Any, RecordedEvent], Any]
    to_json: Callable[[Any], dict] = field(default=lambda state: state)
    from_json: Callable[[dict], Any] = field(default=lambda data: data)
    # Folds many events at once (the same result as ``evolve`` one by one), when the kind has a faster way: given a
    # list, or an iterator (``load`` gives one that makes each event as it is read).
    replay: Callable[[Any, Iterable[RecordedEvent]], Any] | None = None
    # The kind's own event, made from a stored one's type, data and schema (upcast to the current schema). When
    # set, ``evolve`` and ``replay`` are given these instead, and ``load`` reads from the table only what
    # folding needs: no id, actor or time is read or decoded for each event.
    event: Callable[[str, Any, int], Any] | None = None


def save_snapshot(stream_id: str, version: int, engine_version: str, state: dict | bytes) -> None:
    """Keep ``state`` (JSON, or JSON already written out) as the stream's snapshot at ``version`` for
    ``engine_version``, dropping any other engine version's. On PostgreSQL one statement in autocommit (it was a
    DELETE, then a transaction of a locking SELECT and an UPDATE or INSERT: five round trips and a commit of its
    own)."""
    text = (state if isinstance(state, bytes) else orjson.dumps(state)).decode()
    if connection.vendor == "postgresql":
        execute_prepared(SAVE_SNAPSHOT_SQL, [stream_id, engine_version, stream_id, engine_version, version, text])
        return
    Snapshot.objects.filter(stream_id=stream_id).exclude(engine_version=engine_version).delete()
    Snapshot.objects.update_or_create(stream_id=stream_id, engine_version=engine_version,
                                      defaults={"version": version, "state": text})


SAVE_SNAPSHOT_SQL = (
    "WITH gone AS (DELETE FROM eventstore_snapshot WHERE stream_id = %s AND engine_version <> %s) "
    "INSERT INTO eventstore_snapshot (stream_id, engine_version, version, state, taken_at) "
    "VALUES (%s, %s, %s, %s, now()) "
    "ON CONFLICT ON CONSTRAINT eventstore_snapshot_stream_engine "
    "DO UPDATE SET version = EXCLUDED.version, state = EXCLUDED.state, taken_at = EXCLUDED.taken_at"
)


SNAPSHOT_SQL = (
    "SELECT version, state FROM eventstore_snapshot "
    "WHERE stream_id = %s AND engine_version = %s AND version <= %s"
)


def load_snapshot(stream_id: str, engine_version: str, *, until: int | None = None) -> tuple[int, dict] | None:
    """The snapshot taken by this engine version (never another's), if it is not past ``until``."""
    if connection.vendor == "postgresql":
        found = execute_prepared(SNAPSHOT_SQL, [stream_id, engine_version, NO_LIMIT if until is None else until])
        return (found[0][0], orjson.loads(found[0][1])) if found else None
    rows = Snapshot.objects.filter(stream_id=stream_id, engine_version=engine_version)
    if until is not None:
        rows = rows.filter(version__lte=until)
    found = rows.values_list("version", "state").first()
    return (found[0], orjson.loads(found[1])) if found else None


# The snapshot (its row first, with no type) and the events after it, in one round trip.
SNAPSHOT_AND_TAIL_SQL = (
    "WITH snap AS (SELECT version, state FROM eventstore_snapshot "
    "WHERE stream_id = %s AND engine_version = %s AND version <= %s) "
    "SELECT 0, version, NULL, NULL, state, NULL, NULL FROM snap UNION ALL "
    "SELECT id, version, type, schema, data::text, actor, recorded_at FROM eventstore_event "
    "WHERE stream_id = %s AND version > COALESCE((SELECT version FROM snap), 0) AND version <= %s "
    "ORDER BY 2"
)


def _snapshot_and_tail(stream_id: str, engine_version: str, until: int | None) -> tuple[tuple[int, dict] | None,
                                                                                        list[RecordedEvent]]:
    limit = NO_LIMIT if until is None else until
    rows = execute_prepared(SNAPSHOT_AND_TAIL_SQL, [stream_id, engine_version, limit, stream_id, limit], binary=True)
    if rows and rows[0][2] is None:
        return (rows[0][1], orjson.loads(rows[0][4])), _decoded(stream_id, rows[1:])
    return None, _decoded(stream_id, rows)


# What folding needs of each event, with the snapshot first (its row with no type) or without one.
FOLD_SNAPSHOT_AND_TAIL_SQL = (
    "WITH snap AS (SELECT version, state FROM eventstore_snapshot "
    "WHERE stream_id = %s AND engine_version = %s AND version <= %s) "
    "SELECT version, NULL, NULL, state FROM snap UNION ALL "
    "SELECT version, type, schema, data::text FROM eventstore_event "
    "WHERE stream_id = %s AND version > COALESCE((SELECT version FROM snap), 0) AND version <= %s "
    "ORDER BY 1"
)
FOLD_READ_SQL = (
    "SELECT version, type, schema, data::text FROM eventstore_event "
    "WHERE stream_id = %s AND version <= %s ORDER BY version"
)


def _folder_rows(stream_id: str, folder: Folder, until: int | None,
                 use_snapshots: bool) -> tuple[tuple[int, dict] | None, int, list[tuple]]:
    """The snapshot (if used and found), the last event's version (0 for none) and the rows of the events after
    the snapshot (``version, type, schema, data`` as text), for ``_folder_events``."""
    limit = NO_LIMIT if until is None else until
    if use_snapshots:
        rows = execute_prepared(FOLD_SNAPSHOT_AND_TAIL_SQL, [stream_id, folder.engine_version, limit, stream_id, limit],
                        binary=True)
    else:
        rows = execute_prepared(FOLD_READ_SQL, [stream_id, limit], binary=True)
    snapshot = None
    if rows and rows[0][1] is None:
        snapshot, rows = (rows[0][0], orjson.loads(rows[0][3])), rows[1:]
    return snapshot, rows[-1][0] if rows else 0, rows


def _folder_events(rows: list[tuple], folder: Folder) -> Iterator[Any]:
    """The events of these rows, made by ``folder.event`` straight from them, upcast, one at a time: the fold
    takes each as it is made, and an event folded is dropped at once rather than kept to the end (fewer
    objects alive, less work for the garbage collector)."""
    loads, make = orjson.loads, folder.event
    current: dict[str, int] = {}  # each type's current schema, asked once per load
    for _version, type_, schema, data in rows:
        data = loads(data)
        latest = current.get(type_)
        if latest is None:
            latest = current[type_] = current_schema(type_)
        if schema < latest:
            schema, data = upcast(type_, schema, data)
        yield make(type_, data, schema)


def fold(folder: Folder, events: Iterable[RecordedEvent], state: Any = None) -> Any:
    if folder.event is not None:
        make = folder.event
        return _fold(folder, [make(e.type, e.data, e.schema) for e in events], state)
    return _fold(folder, events, state)


def _fold(folder: Folder, events: Iterable[Any], state: Any) -> Any:
    """Fold events already in the folder's own form (RecordedEvents for a folder without ``event``)."""
    state = folder.initial() if state is None else state
    if folder.replay is not None:
        return folder.replay(state, events if isinstance(events, Iterator) else list(events))
    for event in events:
        state = folder.evolve(state, event)
    return state


def load(stream_id: str, folder: Folder, *, until: int | None = None, use_snapshots: bool = True,
         snapshot_every: int | None = None) -> tuple[int, Any]:
    """The stream's state at its current version (or at ``until``): snapshot plus tail, or a full replay.

    Takes a new snapshot when the tail has grown past ``snapshot_every`` events.
    """
    if folder.event is not None and connection.vendor == "postgresql":
        snapshot, version, tail = _folder_rows(stream_id, folder, until, use_snapshots)
        start, state = (snapshot[0], folder.from_json(snapshot[1])) if snapshot else (0, None)
        state = _fold(folder, _folder_events(tail, folder), state)
        version = version or start
    else:
        if use_snapshots and connection.vendor == "postgresql":
            snapshot, tail = _snapshot_and_tail(stream_id, folder.engine_version, until)
        else:
            snapshot = load_snapshot(stream_id, folder.engine_version, until=until) if use_snapshots else None
            tail = read(stream_id, after=snapshot[0] if snapshot else 0, until=until)
        start, state = (snapshot[0], folder.from_json(snapshot[1])) if snapshot else (0, None)
        state = fold(folder, tail, state)
        version = tail[-1].version if tail else start
    if use_snapshots and snapshot_every and len(tail) >= snapshot_every and until is None:
        save_snapshot(stream_id, version, folder.engine_version, folder.to_json(state))
    return version, state
