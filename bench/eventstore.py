"""How fast does the event store append, next to PostgreSQL's own single-row INSERT rate?

Both sides write the same rows (one event per transaction, as a command does) to tables of the same shape on
the same server, one client, so the ratio is what the store's bookkeeping costs: the version check, the row
lock, and Django around it.

    make bench          # or: DATABASE_URL=postgres://… python bench/eventstore.py [--events N]
"""

import argparse
import json
import time
import uuid

from common import rate, setup_django


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=5000)
    parser.add_argument("--streams", type=int, default=50)
    args = parser.parse_args()
    url = setup_django()

    import psycopg
    from django.db import connection

    from dvorak_site.eventstore import store

    run = uuid.uuid4().hex[:8]
    rows = [
        (f"bench-{run}-{i % args.streams}", i // args.streams + 1, "card.drawn", 1, {"seat": i % 4, "card": f"c{i}"})
        for i in range(args.events)
    ]

    # --- the store: one append per event, each its own transaction, expected version checked.
    connection.ensure_connection()
    started = time.perf_counter()
    for stream_id, version, type_, _schema, data in rows:
        store.append(stream_id, version - 1, [store.NewEvent(type_, data)], actor="bench")
    store_seconds = time.perf_counter() - started

    # --- plain psycopg: the same rows, single-row INSERTs in autocommit, into a table of the same shape.
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS bench_plain_event")
        conn.execute("CREATE TABLE bench_plain_event (LIKE eventstore_event INCLUDING DEFAULTS INCLUDING INDEXES)")
        conn.execute("CREATE SEQUENCE IF NOT EXISTS bench_plain_event_id_seq")
        conn.execute("ALTER TABLE bench_plain_event ALTER COLUMN id SET DEFAULT nextval('bench_plain_event_id_seq')")
        sql = (
            "INSERT INTO bench_plain_event (stream_id, version, type, schema, data, actor, recorded_at) "
            "VALUES (%s, %s, %s, %s, %s, %s, now())"
        )
        started = time.perf_counter()
        for stream_id, version, type_, schema, data in rows:
            conn.execute(sql, [stream_id, version, type_, schema, json.dumps(data), "bench"])
        plain_seconds = time.perf_counter() - started
        conn.execute("DROP TABLE bench_plain_event")

    store_rate, plain_rate = rate(args.events, store_seconds), rate(args.events, plain_seconds)
    print(f"events: {args.events} over {args.streams} streams, one event per transaction")
    print(f"event store append : {store_rate:9.0f} events/s  ({store_seconds * 1e6 / args.events:6.0f} µs each)")
    print(f"plain psycopg INSERT: {plain_rate:9.0f} rows/s    ({plain_seconds * 1e6 / args.events:6.0f} µs each)")
    print(f"ratio store/plain   : {store_rate / plain_rate:9.0%}  (aim: 50% or more)")


if __name__ == "__main__":
    main()
