"""How fast is a game rebuilt from its events, next to the ``eventsourcing`` library rehydrating an aggregate?

Ours: a creative game of Dvorak played by random legal moves until it has 10,000 events or more, appended to
the event store, then loaded by the service's own folder (``games.services.FOLDER``): read every event from
PostgreSQL, decode, upcast, fold through the engine. Once without snapshots (a full replay), once from a
snapshot. The reference: an ``eventsourcing`` Application on the same PostgreSQL server whose aggregate has
the same number of events (each a small attribute change), rehydrated by ``repository.get``, with and without
a snapshot. Both sides run in the same process, alternating in rounds; the median round is reported, and the
ratio is also taken within each round (its two replays run a fraction of a second apart, the rounds seconds apart,
and the machine's speed drifts between them) and the median of those given beside it. A snapshot
load takes a few milliseconds, less than the noise of one sample taken just after the other side's full
replay, so each round times ``--snapshot-loads`` of them in a row on each side, and the median of all is
reported, with where the slowest tenth of them begins. For the full replays, this process's CPU time is
printed too (the median of each side's): on a machine shared with other work the wall times swing with it.

    make bench   # or: DATABASE_URL=postgres://… python bench/replay.py [--events N] [--rounds R]
"""

import argparse
import os
import statistics
import time
import uuid
from urllib.parse import urlparse

import orjson
from common import setup_django


def our_game(events: int):
    from tests.engine.dvorak_games import random_game

    seed = 1
    while True:
        game = random_game(seed, players=3, steps=events + 2000, creative=True)
        if len(game.events) >= events:
            return game.events[:events], game.states[events - 1]
        seed += 1


def store_game(engine_events) -> str:
    from dvorak_kit.eventstore import store

    stream_id = f"game-bench-{uuid.uuid4().hex[:12]}"
    version = 0
    for start in range(0, len(engine_events), 500):
        batch = [store.NewEvent(e.type, e.data, e.schema) for e in engine_events[start:start + 500]]
        version = store.append(stream_id, version, batch, actor="bench")[-1].version
    return stream_id


def reference_app(url: str, events: int):
    """An eventsourcing application on PostgreSQL with one aggregate of ``events`` events, and a snapshot."""
    parsed = urlparse(url)
    os.environ.update({
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": parsed.path.lstrip("/"),
        "POSTGRES_HOST": parsed.hostname or "127.0.0.1",
        "POSTGRES_PORT": str(parsed.port or 5432),
        "POSTGRES_USER": parsed.username or "postgres",
        "POSTGRES_PASSWORD": parsed.password or "",
        "CREATE_TABLE": "y",
        "IS_SNAPSHOTTING_ENABLED": "y",
    })
    from eventsourcing.application import Application
    from eventsourcing.domain import Aggregate, event

    class Table(Aggregate):
        def __init__(self, name: str):
            self.name = name
            self.moves: list[dict] = []
            self.score = 0

        @event("Moved")
        def move(self, seat: int, card: str, points: int):
            self.moves.append({"seat": seat, "card": card})
            self.score += points

    class Tables(Application):
        name = f"benchtables{uuid.uuid4().hex[:8]}"

    app = Tables()

    def saved_table(name: str):
        table = Table(name=name)
        for i in range(events - 1):
            table.move(seat=i % 3, card=f"card-{i}", points=i % 7)
            if len(table.pending_events) >= 500:
                app.save(table)
        app.save(table)
        return table.id

    plain, snapshotted = saved_table("bench"), saved_table("snap")
    app.take_snapshot(snapshotted)
    return app, plain, snapshotted


def timed(function, cpu: list[float] | None = None) -> float:
    """Wall time; with ``cpu``, this process's CPU time is appended to it too."""
    started, used = time.perf_counter(), time.process_time()
    function()
    if cpu is not None:
        cpu.append(time.process_time() - used)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--snapshot-loads", type=int, default=10, help="snapshot loads timed in a row, per round")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of one full replay of ours")
    args = parser.parse_args()
    url = setup_django()

    from dvorak_kit.eventstore import store
    from games.services import FOLDER

    events, expected = our_game(args.events)
    stream_id = store_game(events)
    version, state = store.load(stream_id, FOLDER, use_snapshots=False)
    assert version == args.events and state == expected, "the replayed game differs from the one played"
    snapshot = FOLDER.to_json(state)
    store.save_snapshot(stream_id, version, FOLDER.engine_version, snapshot)
    assert store.load(stream_id, FOLDER)[1] == expected, "the game loaded from its snapshot differs"
    if args.profile:
        import cProfile
        import pstats

        profiler = cProfile.Profile()
        profiler.runcall(store.load, stream_id, FOLDER, use_snapshots=False)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)

    app, plain_id, snap_id = reference_app(url, args.events)
    assert app.repository.get(plain_id).version == args.events

    ours_full, ours_snap, theirs_full, theirs_snap = [], [], [], []
    ours_cpu, theirs_cpu = [], []
    for _ in range(args.rounds):
        ours_full.append(timed(lambda: store.load(stream_id, FOLDER, use_snapshots=False), ours_cpu))
        theirs_full.append(timed(lambda: app.repository.get(plain_id), theirs_cpu))
        ours_snap.extend(timed(lambda: store.load(stream_id, FOLDER)) for _ in range(args.snapshot_loads))
        theirs_snap.extend(timed(lambda: app.repository.get(snap_id)) for _ in range(args.snapshot_loads))

    def ms(values: list[float]) -> float:
        return statistics.median(values) * 1000

    def p90(values: list[float]) -> float:
        return statistics.quantiles(values, n=10)[-1] * 1000 if len(values) > 1 else values[0] * 1000

    full, ref_full, snap, ref_snap = ms(ours_full), ms(theirs_full), ms(ours_snap), ms(theirs_snap)
    print(f"{args.events} events, {args.rounds} rounds, median round")
    print(f"replay, ours                 : {full:8.1f} ms  ({args.events / full * 1000:8.0f} events/s)")
    print(f"replay, eventsourcing        : {ref_full:8.1f} ms  ({args.events / ref_full * 1000:8.0f} events/s)")
    paired = [theirs / ours for ours, theirs in zip(ours_full, theirs_full, strict=True)]
    print(f"ratio (how many times faster): {ref_full / full:8.1f}x  (aim: 4x or more; within each round: "
          f"{', '.join(f'{r:.1f}' for r in paired)}, median {statistics.median(paired):.1f}x)")
    print(f"  this process's CPU time      : ours {ms(ours_cpu):.1f} ms, eventsourcing {ms(theirs_cpu):.1f} ms: "
          f"{ms(theirs_cpu) / ms(ours_cpu):.1f}x (PostgreSQL's own work not counted; steadier on a busy machine)")
    size = len(orjson.dumps(snapshot)) // 1000
    print(f"snapshot load, ours          : {snap:8.2f} ms  (aim: 2 ms or less; slowest tenth from "
          f"{p90(ours_snap):.2f} ms; {len(ours_snap)} loads of a {size} kB snapshot)")
    print(f"snapshot load, eventsourcing : {ref_snap:8.2f} ms  (slowest tenth from {p90(theirs_snap):.2f} ms)")
    print(f"ratio (how many times faster): {ref_snap / snap:8.1f}x")


if __name__ == "__main__":
    main()
