"""How fast does the event store append, next to a plain INSERT and to the ``eventsourcing`` library's recorder?

Both sides write the same rows (one event per transaction, as a command does) to tables of the same shape on
the same server, one client, so the ratio is what the store's bookkeeping costs: the version check, the row
lock, and Django around it. The store's side appends as a game command does, asking for no ids back; a fourth
side, ``store.append``, has the new events' global ids sent back, and is shown beside it. The four alternate in
rounds, each taking each place in the order in turn, and the median round of each is reported, so a burst of
other load on the machine does not land on one side only.

    make bench          # or: DATABASE_URL=postgres://… python bench/eventstore.py [--events N] [--rounds R]
"""

import argparse
import json
import statistics
import time
import uuid

from common import rate, setup_django


def reference_recorder(url: str):
    """The ``eventsourcing`` library's PostgresAggregateRecorder on the same server, its table of its own."""
    from urllib.parse import urlparse

    from eventsourcing.persistence import StoredEvent
    from eventsourcing.postgres import PostgresAggregateRecorder, PostgresDatastore

    parsed = urlparse(url)
    datastore = PostgresDatastore(dbname=parsed.path.lstrip("/"), host=parsed.hostname or "127.0.0.1",
                                  port=str(parsed.port or 5432), user=parsed.username or "postgres",
                                  password=parsed.password or "")
    recorder = PostgresAggregateRecorder(datastore, events_table_name=f"bench_es_{uuid.uuid4().hex[:8]}")
    recorder.create_table()
    return recorder, StoredEvent

PLAIN_INSERT = (
    "INSERT INTO bench_plain_event (stream_id, version, type, schema, data, actor, recorded_at) "
    "VALUES (%s, %s, %s, %s, %s, %s, now())"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=1000, help="events per round")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--streams", type=int, default=50)
    args = parser.parse_args()
    url = setup_django()

    import psycopg
    from django.db import connection

    from dvorak_kit.eventstore import store

    run = uuid.uuid4().hex[:8]
    versions: dict[str, int] = {}
    connection.ensure_connection()
    store_rates, with_ids_rates, plain_rates, reference_rates = [], [], [], []
    recorder, StoredEvent = reference_recorder(url)
    ids = {f"bench-{run}-{i}": uuid.uuid4() for i in range(args.streams)}
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS bench_plain_event")
        conn.execute("CREATE TABLE bench_plain_event (LIKE eventstore_event INCLUDING DEFAULTS INCLUDING INDEXES)")
        conn.execute("CREATE SEQUENCE IF NOT EXISTS bench_plain_event_id_seq")
        conn.execute("ALTER TABLE bench_plain_event ALTER COLUMN id SET DEFAULT nextval('bench_plain_event_id_seq')")
        for round_ in range(args.rounds):
            rows = []
            for i in range(args.events):
                stream_id = f"bench-{run}-{i % args.streams}"
                versions[stream_id] = versions.get(stream_id, 0) + 1
                rows.append((stream_id, versions[stream_id], {"seat": i % 4, "card": f"c{round_}-{i}"}))

            def store_side(rows):  # as a game command appends (games/services.py): it has no use for the ids
                for stream_id, version, data in rows:
                    events = store.pending(stream_id, version - 1, [store.NewEvent("card.drawn", data)], actor="bench")
                    store.append_recorded(events, ids=False)

            def with_ids_side(rows):  # store.append, which sends the new events' global ids back
                for stream_id, version, data in rows:
                    store.append(f"{stream_id}-ids", version - 1, [store.NewEvent("card.drawn", data)], actor="bench")

            def plain_side(rows):
                for stream_id, version, data in rows:
                    conn.execute(PLAIN_INSERT, [stream_id, version, "card.drawn", 1, json.dumps(data), "bench"])

            def reference_side(rows):
                for stream_id, version, data in rows:
                    recorder.insert_events([StoredEvent(ids[stream_id], version, "card.drawn",
                                                        json.dumps(data).encode())])

            sides = [(store_side, store_rates), (with_ids_side, with_ids_rates), (plain_side, plain_rates),
                     (reference_side, reference_rates)]
            # Each side takes each place in the order in turn: whatever follows a side (a checkpoint it set off,
            # the pages it left dirty) falls on all of them alike.
            for side, rates in sides[round_ % len(sides):] + sides[:round_ % len(sides)]:
                started = time.perf_counter()
                side(rows)
                rates.append(rate(args.events, time.perf_counter() - started))
        conn.execute("DROP TABLE bench_plain_event")
        conn.execute(f"DROP TABLE {recorder.events_table_name}")  # each run's own, as the plain table is

    store_rate, plain_rate = statistics.median(store_rates), statistics.median(plain_rates)
    reference_rate = statistics.median(reference_rates)
    print(f"{args.rounds} rounds of {args.events} events over {args.streams} streams, one event per transaction")
    with_ids_rate = statistics.median(with_ids_rates)
    print(f"event store append  : {store_rate:7.0f} events/s  ({1e6 / store_rate:5.0f} µs each, median round; "
          "as a game command appends)")
    print(f"  store.append      : {with_ids_rate:7.0f} events/s  ({1e6 / with_ids_rate:5.0f} µs each, "
          "the new events' ids sent back)")
    print(f"plain psycopg INSERT: {plain_rate:7.0f} rows/s    ({1e6 / plain_rate:5.0f} µs each, median round)")
    print(f"eventsourcing 9.5   : {reference_rate:7.0f} events/s  ({1e6 / reference_rate:5.0f} µs each, "
          "PostgresAggregateRecorder.insert_events)")
    print(f"ratio store/plain   : {store_rate / plain_rate:7.0%}   (aim: 80% or more)")
    print(f"ratio store/eventsourcing: {store_rate / reference_rate:4.0%}   (aim: 90% or more)")


if __name__ == "__main__":
    main()
