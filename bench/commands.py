"""Commands through HTTP against the production REST server on PostgreSQL, next to a bare one-INSERT endpoint.

Starts gunicorn with 4 sync workers and persistent connections (``--server daphne``: `make run`'s server) on a free local port (DEBUG off, the bare endpoint on), plays many games at once — each game
a client sending counter effect moves (each a full command: lock, load, decide, append, project, publish) —
and, in the same run, sends the same number of requests to the bare endpoint, which does one INSERT behind
the same authentication and DRF stack. Prints requests/s, p50 and p99 of both and their ratio. Then times
loading a game of 10,000 events with and without a snapshot.

    make bench     # or: DATABASE_URL=postgres://… python bench/commands.py [--games 16] [--commands 40] [--server daphne]
"""

import argparse
import asyncio
import statistics
import time
import uuid

from common import LeanClient, served, served_asgi, setup_django, timed_rounds


async def start_games(http, games: int, deck_size: int = 40):
    """Register two players per game, import a deck, and start ``games`` two-seat games.
    Returns (game ids, per-player auth headers, each game's special rule id)."""
    import json as json_module

    tokens = []
    for n in range(games * 2):
        r = await http.post("/api/v1/auth/register/", json={"username": f"b{uuid.uuid4().hex[:10]}{n}", "password": "bench-passphrase-1"})
        r.raise_for_status()
        tokens.append(r.json()["token"])
    auth = [{"Authorization": f"Token {t}"} for t in tokens]
    deck = {"title": f"Bench {uuid.uuid4().hex[:6]}", "special_rules": [{"title": "Gold", "text": "Players count Gold."}],
            "cards": [{"title": f"Bench card {i}", "type": "Thing" if i % 2 else "Action", "text": ""} for i in range(deck_size)]}

    r = await http.post("/api/v1/decks/import/", headers=auth[0], json={"format": "json", "text": json_module.dumps(deck)})
    r.raise_for_status()
    slug = r.json()["slug"]
    game_ids, causes = [], []
    for g in range(games):
        r = await http.post("/api/v1/games/", headers=auth[2 * g], json={"deck": slug, "max_players": 2})
        r.raise_for_status()
        game_id = r.json()["id"]
        (await http.post(f"/api/v1/games/{game_id}/join/", headers=auth[2 * g + 1], json={})).raise_for_status()
        started = await http.post(f"/api/v1/games/{game_id}/start/", headers=auth[2 * g])
        started.raise_for_status()
        game_ids.append(game_id)
        causes.append(started.json()["special_rules"][0]["id"])

    return game_ids, auth, causes


async def drive(base: str, commands_base: str | None, games: int, commands: int, server: str,
                rounds: int = 3) -> None:
    """The bare request on ``base``; the game commands as production routes them, to ``commands_base`` (gunicorn's
    uvicorn workers; None: ``base`` serves them too, as `make run` does), and then once more to ``base``."""
    async with LeanClient(base) as http, LeanClient(commands_base or base) as commands_http:
        game_ids, auth, causes = await start_games(http, games)

        async def play(g: int, latencies: list[float], client, count: int = commands) -> None:
            for n in range(count):
                seat = n % 2
                t0 = time.perf_counter()
                r = await client.post(f"/api/v1/games/{game_ids[g]}/commands/", headers=auth[2 * g + seat],
                                      json={"type": "counter", "cause": causes[g], "seat": seat, "name": "gold",
                                            "delta": 1})
                latencies.append(time.perf_counter() - t0)
                assert r.status_code == 201, r.text

        async def bare(g: int, latencies: list[float], client) -> None:
            for n in range(commands):
                t0 = time.perf_counter()
                r = await client.post("/api/v1/bench/insert/", headers=auth[2 * g + n % 2],
                                      json={"type": "counter", "name": "gold", "delta": 1})
                latencies.append(time.perf_counter() - t0)
                assert r.status_code == 201, r.text

        # Untimed: two commands of each game through each server, so that neither is timed while it first loads
        # the games, the players' tokens and its database connections.
        for client in {id(c): c for c in (commands_http, http)}.values():
            await asyncio.gather(*(play(g, [], client, count=2) for g in range(games)))

        phases = [("bare INSERT request", bare, http, base), ("game command", play, commands_http, commands_base or base)]
        if commands_base:
            phases.append(("game command, WSGI", play, http, base))
        figures = await timed_rounds(phases, games, rounds)

    routed = "the commands on gunicorn's uvicorn workers, as production routes them" if commands_base else "all of it"
    print(f"{games} games at once, {commands} commands each, {rounds} rounds, against {server} on PostgreSQL ({routed})")
    for name, phase in figures.items():
        print(f"{name:20s}: {phase.rate:7.0f} req/s   p50 {phase.p(50) * 1000:6.1f} ms   p99 {phase.p(99) * 1000:6.1f} ms"
              f"   (rounds: {', '.join(f'{r:.0f}' for r in phase.rates)} req/s)")
    cmd, floor = figures["game command"], figures["bare INSERT request"]
    print(f"a command vs the bare INSERT request: {cmd.rate / floor.rate:.2f}x its throughput (aim: at least 0.5x), "
          f"p99 {cmd.p(99) / floor.p(99):.2f}x (aim: at most 2x)")
    if "game command, WSGI" in figures:
        wsgi = figures["game command, WSGI"]
        print(f"  through the WSGI REST server instead: {wsgi.rate / floor.rate:.2f}x, p99 {wsgi.p(99) / floor.p(99):.2f}x")
    print("CPU per request, ms (the server's processes, PostgreSQL's, this client's; mean of the rounds):")
    for name, phase in figures.items():
        print(f"  {name:20s}: " + "   ".join(f"{part} {ms:5.2f}" for part, ms in phase.cost.items())
              + f"   total {sum(phase.cost.values()):5.2f}")


def load_times(events_count: int = 10_000) -> None:
    from django.conf import settings

    import dvorak_engine as engine
    from dvorak_kit.eventstore import store
    from games import services

    actor = engine.Actor(user_id=1, username="bench")
    rng = engine.SecureRng()
    deck = {"slug": "bench", "title": "Bench", "ruleset": "dvorak",
            "special_rules": [{"id": "gold", "title": "Gold", "text": "Count Gold."}],
            "cards": [{"title": f"Card {i}", "type": "Thing", "text": "", "copies": 1} for i in range(40)]}
    events = engine.create_game(ruleset="dvorak", deck=deck, variant="standard", creative=False, max_players=2,
                                options={}, creator=actor, rng=rng)
    state = engine.replay(events)
    events += engine.decide(state, {"type": "join"}, actor=engine.Actor(2, "other"), rng=rng)
    state = engine.replay(events[len(events) - 1:], state)
    started = engine.decide(state, {"type": "start"}, actor=actor, rng=rng)
    events += started
    state = engine.replay(started, state)
    while len(events) < events_count:
        new = engine.decide(state, {"type": "counter", "cause": "gold", "seat": 0, "name": "gold", "delta": 1}, actor=actor, rng=rng)
        state = engine.replay(new, state)
        events += new
    stream_id = f"game-bench-{uuid.uuid4().hex[:8]}"
    for start in range(0, len(events), 1000):
        chunk = events[start:start + 1000]
        store.append(stream_id, start, [store.NewEvent(e.type, e.data, e.schema) for e in chunk], actor="bench")

    def timed(**kwargs) -> float:
        runs = []
        for _ in range(5):
            t0 = time.perf_counter()
            version, loaded = store.load(stream_id, services.FOLDER, **kwargs)
            runs.append(time.perf_counter() - t0)
            assert version == len(events) and loaded == state
        return statistics.median(runs)

    full = timed(use_snapshots=False)
    every = settings.EVENTSTORE_SNAPSHOT_EVERY
    snap_at = len(events) - len(events) % every
    snap_state = engine.replay(events[:snap_at])
    store.save_snapshot(stream_id, snap_at, engine.ENGINE_VERSION, engine.state_to_json(snap_state))
    with_snapshot = timed(snapshot_every=None)
    print(f"loading a game of {len(events)} events: full replay {full * 1000:.1f} ms, "
          f"snapshot (every {every}) + tail {with_snapshot * 1000:.1f} ms (aim: under 50 ms)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=16)
    parser.add_argument("--commands", type=int, default=40, help="commands per client and round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the phases, each in turn")
    parser.add_argument("--server", choices=["gunicorn", "daphne"], default="gunicorn")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--asgi-workers", type=int, default=2, help="uvicorn workers for the commands (compose: WS_WORKERS)")
    args = parser.parse_args()
    url = setup_django()
    with served(url, args.server, args.workers) as base:
        if args.server == "daphne":  # `make run`: one process serves everything
            asyncio.run(drive(base, None, args.games, args.commands, args.server, args.rounds))
        else:
            with served_asgi(url, args.asgi_workers) as commands_base:
                asyncio.run(drive(base, commands_base, args.games, args.commands, args.server, args.rounds))
    load_times()


if __name__ == "__main__":
    main()
