"""The event store's own tools: export every event as stored, import them into an empty store, and check a store's
streams (the management commands ``export_events``, ``import_events`` and ``verify_events`` in games/, which add
the games' projections; README, "Backups").

An export is NDJSON, one event a line, every column as stored (the schema it was written with, not upcast), in
stream and version order. An import writes nothing unless it can write everything: one transaction, refused
before any write when a stream of the file is already in the store or a stream's versions are not 1, 2, … n.
"""

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import orjson
from django.core.management.color import no_style
from django.db import connection
from django.utils.dateparse import parse_datetime

from dvorak_core.event_schemas import upcast

from .models import Event, Stream
from .store import stream_kind

FIELDS = ("id", "stream_id", "version", "type", "schema", "data", "actor", "recorded_at")


def exported_lines(stream_id: str | None = None) -> Iterator[bytes]:
    """Each event of the store (or of one stream) as one line of JSON, newline included."""
    rows = Event.objects.order_by("stream_id", "version")
    if stream_id is not None:
        rows = rows.filter(stream_id=stream_id)
    for id_, stream, version, type_, schema, data, actor, recorded_at in rows.values_list(*FIELDS).iterator(2000):
        yield orjson.dumps({"id": id_, "stream": stream, "version": version, "type": type_, "schema": schema,
                            "data": data, "actor": actor, "recorded_at": recorded_at.isoformat()}) + b"\n"


class BadExport(ValueError):
    """An export that cannot be imported as it is; the message names the line or the stream."""


@dataclass(frozen=True)
class ExportedEvent:
    id: int
    stream: str
    version: int
    type: str
    schema: int
    data: dict
    actor: str
    recorded_at: object


def parsed(lines: Iterable[bytes | str]) -> list[ExportedEvent]:
    events = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            row = orjson.loads(line)
            recorded_at = parse_datetime(row["recorded_at"])
            if recorded_at is None:
                raise ValueError("recorded_at is not a date and time")
            events.append(ExportedEvent(int(row["id"]), str(row["stream"]), int(row["version"]), str(row["type"]),
                                        int(row["schema"]), row["data"], str(row["actor"]), recorded_at))
        except (orjson.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            raise BadExport(f"line {number}: not an exported event ({exc})") from exc
    return events


def by_stream(events: Iterable[ExportedEvent]) -> dict[str, list[ExportedEvent]]:
    streams: dict[str, list[ExportedEvent]] = {}
    for event in events:
        streams.setdefault(event.stream, []).append(event)
    for events_of in streams.values():
        events_of.sort(key=lambda event: event.version)
    return streams


def gap_problems(stream_id: str, versions: list[int], recorded: int | None = None) -> list[str]:
    """What is wrong with a stream's versions: they must be 1, 2, … n, and the stream row must say n."""
    problems = []
    if versions != list(range(1, len(versions) + 1)):
        expected = 1
        for version in versions:
            if version != expected:
                what = "repeated" if version < expected else f"missing {expected}" + (
                    f"–{version - 1}" if version - 1 > expected else "")
                problems.append(f"{stream_id}: versions not gapless from 1: {what} (found {version})")
                break
            expected += 1
    if recorded is not None and versions and recorded != versions[-1]:
        problems.append(f"{stream_id}: the stream row says version {recorded}, its last event is {versions[-1]}")
    return problems


def decode_problems(stream_id: str, events: Iterable[tuple[int, str, int, object]]) -> list[str]:
    """Every event must be brought to its type's current schema by the upcasters (dvorak_core/event_schemas.py)."""
    problems = []
    for version, type_, schema, data in events:
        try:
            if not isinstance(data, dict):
                raise TypeError("data is not an object")
            upcast(type_, schema, data)
        except Exception as exc:  # noqa: BLE001 - a check reports every failure, it does not raise it
            problems.append(f"{stream_id}: event {version} ({type_}, schema {schema}) does not decode: "
                            f"{exc.__class__.__name__}: {exc}")
    return problems


def imported(events: list[ExportedEvent]) -> dict[str, int]:
    """Write ``events`` (an export) into the store; each stream's version. Call inside ``transaction.atomic()``:
    a refusal (BadExport) comes before any write, a failure after one undoes it with the transaction."""
    streams = by_stream(events)
    problems = [problem for stream_id, events_of in streams.items()
                for problem in gap_problems(stream_id, [event.version for event in events_of])]
    if problems:
        raise BadExport("; ".join(problems))
    present = sorted(Stream.objects.filter(pk__in=list(streams)).values_list("id", flat=True))
    if present:
        raise BadExport(f"already in the store, not overwritten: {', '.join(present)}")
    ids = [event.id for event in events]
    if len(set(ids)) != len(ids) or Event.objects.filter(pk__in=ids).exists():
        raise BadExport("an event id is repeated, or already in the store")
    for stream_id, events_of in streams.items():
        row = Stream.objects.create(id=stream_id, kind=stream_kind(stream_id), version=events_of[-1].version)
        Stream.objects.filter(pk=row.pk).update(created_at=events_of[0].recorded_at)  # as first recorded
    Event.objects.bulk_create(
        (Event(id=event.id, stream_id=event.stream, version=event.version, type=event.type, schema=event.schema,
               data=event.data, actor=event.actor, recorded_at=event.recorded_at) for event in events),
        batch_size=1000)
    # The events keep their global ids (feeds go by them); the id sequence moves past them, which on PostgreSQL
    # only the table's owner may do.
    with connection.cursor() as cursor:
        for statement in connection.ops.sequence_reset_sql(no_style(), [Event]):
            cursor.execute(statement)
    return {stream_id: events_of[-1].version for stream_id, events_of in streams.items()}


def stored_problems(stream_id: str | None = None) -> Iterator[tuple[str, list[str]]]:
    """Each stream of the store (or the one named) with what is wrong with its versions and its events."""
    streams = Stream.objects.order_by("id")
    if stream_id is not None:
        streams = streams.filter(pk=stream_id)
    for stream, recorded in streams.values_list("id", "version"):
        rows = list(Event.objects.filter(stream_id=stream).order_by("version")
                    .values_list("version", "type", "schema", "data"))
        yield stream, gap_problems(stream, [row[0] for row in rows], recorded) + decode_problems(stream, rows)
