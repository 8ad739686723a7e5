"""Live updates at scale: 1,000 websockets over 250 games in play, commands flowing, on production's servers.

Serves the project the way production does: the websockets on gunicorn with uvicorn workers (ASGI, 2 processes)
and the REST API on gunicorn sync workers, with the channels-redis layer on the local Redis and PostgreSQL.
Creates the games in process, opens 4 sockets a game (the two players and two spectators, each from the game's
current version) with the `websockets` client, and sends counter commands through the REST API at a steady rate,
round robin over the games. Each socket checks that its versions go 1, 2, 3… and records, for every event, the
time from the event's recorded time (taken in the server just before its commit) to its arrival.

Prints, phase by phase:
- reference: the same number of sockets on a bare Channels consumer that relays each group message (same servers,
  same layer; no store read, no redaction), sent to at the same rate from this process: the floor of the path;
- live: the game sockets, the channel layer at its default capacity;
- small capacity: the same sockets while commands go to a second REST server whose channel layer holds at most
  `FANOUT_SMALL_CAPACITY` waiting messages a channel, so channels-redis drops group messages (it logs how many),
  and the sockets resync by version: still no gap, and every socket ends at its game's version;
- the resyncs the websocket servers did, and the memory (RSS, and its peak) of every server process.

    make bench     # or: DATABASE_URL=postgres://… REDIS_URL=redis://… python bench/fanout.py
    FANOUT_GAMES=50 FANOUT_SECONDS=10 FANOUT_SMALL_SECONDS=5 python bench/fanout.py   # a quick run

Sizes (environment): FANOUT_GAMES (250), FANOUT_SOCKETS_PER_GAME (4), FANOUT_RATE (commands a second, 10),
FANOUT_SECONDS (40), FANOUT_REFERENCE_SECONDS (15), FANOUT_SMALL_SECONDS (15), FANOUT_SMALL_CAPACITY (1),
FANOUT_WS_WORKERS (2), FANOUT_WEB_WORKERS (2); LIVE_RESYNC_SECONDS as the servers' setting (5).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import resource
import sys
import tempfile
import time
import uuid
from contextlib import ExitStack, contextmanager
from datetime import datetime
from pathlib import Path

from common import free_port, percentile, running, setup_django

GAMES = int(os.environ.get("FANOUT_GAMES", 250))
PER_GAME = int(os.environ.get("FANOUT_SOCKETS_PER_GAME", 4))
RATE = float(os.environ.get("FANOUT_RATE", 10))
SECONDS = float(os.environ.get("FANOUT_SECONDS", 40))
REFERENCE_SECONDS = float(os.environ.get("FANOUT_REFERENCE_SECONDS", 15))
SMALL_SECONDS = float(os.environ.get("FANOUT_SMALL_SECONDS", 15))
SMALL_CAPACITY = int(os.environ.get("FANOUT_SMALL_CAPACITY", 1))
WS_WORKERS = int(os.environ.get("FANOUT_WS_WORKERS", 2))
WEB_WORKERS = int(os.environ.get("FANOUT_WEB_WORKERS", 2))
RESYNC_SECONDS = float(os.environ.get("LIVE_RESYNC_SECONDS", 5))
SENDERS = 16  # REST requests in flight at most
LOGS = Path(os.environ.get("TMPDIR", tempfile.gettempdir()))


def raise_fd_limit(needed: int) -> None:
    """Each socket is a descriptor here and one in a server (which inherits this limit): raise the soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        target = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        print(f"open files: soft limit raised from {soft} to {target} (hard {hard})")
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        sys.exit(f"open files: the limit is {soft}, the bench needs about {needed}: raise `ulimit -n`")


# --- servers --------------------------------------------------------------------------------------------------


@contextmanager
def server(name: str, app: str, workers: int, env: dict, worker_class: str = "sync"):
    """gunicorn with deploy/gunicorn.conf.py on a free port; yields (base URL, master pid, log path)."""
    port = free_port()
    env = {**env, "GUNICORN_WORKERS": str(workers), "GUNICORN_BIND": f"127.0.0.1:{port}",
           "GUNICORN_WORKER_CLASS": worker_class, "GUNICORN_MAX_REQUESTS": "1000000"}
    log_path = LOGS / f"dvorak-bench-fanout-{name}.log"
    argv = [sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", app]
    with running(argv, env, port, log_path, name=name) as (base, process):
        yield base, process.pid, log_path


def memory(pid: int) -> list[tuple[str, float, float]]:
    """(role, RSS MB, peak RSS MB) of a gunicorn master and each of its workers, from /proc."""
    def status(p: int) -> tuple[float, float]:
        fields = dict(line.split(":", 1) for line in Path(f"/proc/{p}/status").read_text().splitlines() if ":" in line)
        return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024

    children = sorted(p.name for p in Path("/proc").iterdir() if p.name.isdigit() and _parent(p) == pid)
    return [("master", *status(pid))] + [(f"worker {n}", *status(int(c))) for n, c in enumerate(children, 1)]


def _parent(proc: Path) -> int | None:
    try:
        return int(next(line for line in (proc / "status").read_text().splitlines() if line.startswith("PPid:")).split()[1])
    except (OSError, StopIteration):
        return None


def log_lines(path: Path, offset: int) -> list[str]:
    with path.open() as f:
        f.seek(offset)
        return f.read().splitlines()


def layer_drops(lines: list[str]) -> int:
    """Messages channels-redis dropped, from its log: "N of M channels over capacity in group G"."""
    return sum(int(m.group(1)) for line in lines if (m := re.search(r"(\d+) of \d+ channels over capacity", line)))


# --- games ----------------------------------------------------------------------------------------------------


def make_games(count: int) -> tuple[list[dict], str]:
    """``count`` started two-seat games, made in process; each with its players' and two spectators' tokens."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from decks import services as deck_services
    from dvorak_core.deckdata import DeckData
    from games import services
    from tests.engine.dvorak_games import unique_title_deck

    tag = uuid.uuid4().hex[:8]
    User = get_user_model()
    users = User.objects.bulk_create([User(username=f"fan{tag}{n}", password="!") for n in range(2 * count + 2)])
    tokens = [t.key for t in Token.objects.bulk_create([Token(user=u, key=Token.generate_key()) for u in users])]
    content = unique_title_deck(40, special_rules=[{"title": "Gold", "text": "Players count Gold."}])
    content["slug"] = f"fanout-{tag}"
    deck = deck_services.deck_create(author=None, data=DeckData.from_dict(content))
    games = []
    for g in range(count):
        ann, bob = users[2 * g], users[2 * g + 1]
        game_id = services.game_create(user=ann, deck=deck.slug, max_players=2)["id"]
        services.game_join(user=bob, game_id=game_id)
        started = services.game_start(user=ann, game_id=game_id)
        games.append({"id": str(game_id), "cause": started["special_rules"][0]["id"],
                      "seats": [tokens[2 * g], tokens[2 * g + 1]],
                      "watchers": [tokens[2 * g], tokens[2 * g + 1], tokens[-2], tokens[-1]][:PER_GAME]})
    return games, tag


def versions(games: list[dict]) -> dict[str, int]:
    from django.db import close_old_connections

    from dvorak_kit.eventstore import store

    close_old_connections()
    return {k.removeprefix("game-"): v for k, v in store.current_versions([f"game-{g['id']}" for g in games]).items()}


# --- clients --------------------------------------------------------------------------------------------------


class Listener:
    """One socket: its game, the last version it saw, the gaps and repeats it met, its arrival delays."""

    def __init__(self, game_id: str, version: int):
        self.game_id, self.version, self.gaps, self.repeats = game_id, version, 0, 0


async def open_sockets(urls: list[str]) -> list:
    import websockets

    limit = asyncio.Semaphore(50)

    async def one(url):
        async with limit:
            return await websockets.connect(url, open_timeout=120, ping_interval=None, max_size=None,
                                            compression=None)

    return await asyncio.gather(*(one(u) for u in urls))


async def follow_game(ws, listener: Listener, delays: dict[str, list[float]], phase: list[str]) -> None:
    import websockets

    try:
        async for raw in ws:
            now = time.time()
            message = json.loads(raw)
            if message.get("type") != "event":
                continue
            event = message["event"]
            version = event["version"]
            if version <= listener.version:
                listener.repeats += 1
                continue
            if version != listener.version + 1:
                listener.gaps += 1
            listener.version = version
            at = datetime.fromisoformat(event["at"].replace("Z", "+00:00")).timestamp()
            delays.setdefault(phase[0], []).append(now - at)
    except websockets.ConnectionClosed:
        pass


async def follow_broadcast(ws, delays: list[float]) -> None:
    import websockets

    try:
        async for raw in ws:
            delays.append(time.time() - json.loads(raw)["t"])
    except websockets.ConnectionClosed:
        pass


async def paced(count: int, rate: float, send, burst: int = 1) -> float:
    """Call ``send(i)`` for i < count, started at ``rate`` a second, ``burst`` at a time (at most SENDERS in
    flight); the rate achieved."""
    limit = asyncio.Semaphore(SENDERS)
    start = time.perf_counter()

    async def one(i):
        async with limit:
            await send(i)

    tasks = []
    for i in range(count):
        delay = start + (i // burst) * burst / rate - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        tasks.append(asyncio.create_task(one(i)))
    await asyncio.gather(*tasks)
    return count / (time.perf_counter() - start)


def summary(delays: list[float]) -> str:
    if not delays:
        return "no messages"
    return (f"{len(delays):6d} messages   p50 {percentile(delays, 50) * 1000:7.1f} ms   "
            f"p99 {percentile(delays, 99) * 1000:7.1f} ms   max {max(delays) * 1000:7.1f} ms")


# --- phases ---------------------------------------------------------------------------------------------------


async def reference(ws_base: str, seconds: float) -> None:
    """The floor: group messages relayed by a bare consumer to the same number of sockets, at the same rate."""
    from channels.layers import get_channel_layer

    url = ws_base.replace("http", "ws")
    sockets = await open_sockets([f"{url}/ws/bench/{g}/" for g in range(GAMES) for _ in range(PER_GAME)])
    await asyncio.sleep(1)  # every group_add done
    delays: list[float] = []
    readers = [asyncio.create_task(follow_broadcast(ws, delays)) for ws in sockets]
    layer = get_channel_layer()

    async def send(i):
        await layer.group_send(f"bench-{i % GAMES}", {"type": "bench.broadcast", "text": json.dumps({"t": time.time()})})

    count = int(RATE * seconds)
    achieved = await paced(count, RATE, send)
    await asyncio.sleep(2)
    await asyncio.gather(*(ws.close() for ws in sockets))
    await asyncio.gather(*readers)
    print(f"reference (bare Channels group relay, {len(sockets)} sockets, {achieved:.1f} sends/s): {summary(delays)}"
          f"   ({len(delays)} of {count * PER_GAME} delivered)")


async def live(games, ws_base: str, web_base: str, small_base: str, logs: dict) -> dict:
    import httpx

    url = ws_base.replace("http", "ws")
    start_versions = await asyncio.to_thread(versions, games)
    listeners, urls = [], []
    for game in games:
        for token in game["watchers"]:
            listeners.append(Listener(game["id"], start_versions[game["id"]]))
            urls.append(f"{url}/ws/games/{game['id']}/?token={token}&after={start_versions[game['id']]}")
    t0 = time.perf_counter()
    sockets = await open_sockets(urls)
    print(f"opened {len(sockets)} game sockets over {len(games)} games in {time.perf_counter() - t0:.1f} s")
    phase = ["live"]
    delays: dict[str, list[float]] = {}
    readers = [asyncio.create_task(follow_game(ws, lst, delays, phase)) for ws, lst in zip(sockets, listeners, strict=True)]
    offsets = {name: path.stat().st_size for name, path in logs.items()}
    results = {}

    async with httpx.AsyncClient(timeout=60, limits=httpx.Limits(max_connections=SENDERS)) as http:
        # The small-capacity phase sends its commands in bursts, so that group messages meet a channel with one
        # waiting: over a capacity of 1, channels-redis drops them.
        for name, base, seconds, burst in (("live", web_base, SECONDS, 1),
                                           ("small capacity", small_base, SMALL_SECONDS, SENDERS)):
            phase[0] = name
            statuses: dict[int, int] = {}

            async def send(i, base=base, statuses=statuses):
                game = games[i % len(games)]
                seat = (i // len(games)) % 2
                r = await http.post(f"{base}/api/v1/games/{game['id']}/commands/",
                                    headers={"Authorization": f"Token {game['seats'][seat]}"},
                                    json={"type": "counter", "cause": game["cause"], "seat": seat, "name": "gold",
                                          "delta": 1})
                statuses[r.status_code] = statuses.get(r.status_code, 0) + 1

            count = int(RATE * seconds)
            achieved = await paced(count, RATE, send, burst)
            # Settle: every socket should reach its game's version, by notice or, for a dropped last one, by the
            # idle resync (LIVE_RESYNC_SECONDS).
            deadline = time.perf_counter() + 2 * RESYNC_SECONDS + 5
            while True:
                target = await asyncio.to_thread(versions, games)
                behind = sum(1 for lst in listeners if lst.version < target[lst.game_id])
                if not behind or time.perf_counter() > deadline:
                    break
                await asyncio.sleep(0.5)
            ws_lines = [line for n in logs if n.startswith("ws") for line in log_lines(logs[n], offsets[n])]
            web_name = "web" if name == "live" else "web-small"
            drops = layer_drops(log_lines(logs[web_name], offsets[web_name]))
            offsets = {n: path.stat().st_size for n, path in logs.items()}
            results[name] = {
                "achieved": achieved, "statuses": statuses, "behind": behind, "delays": delays.get(name, []),
                "gaps": sum(lst.gaps for lst in listeners), "repeats": sum(lst.repeats for lst in listeners),
                "drops": drops,
                "notice_resyncs": sum("got the notice" in line for line in ws_lines),
                "idle_resyncs": sum("an idle socket" in line for line in ws_lines),
            }
            for lst in listeners:
                lst.gaps = lst.repeats = 0
    results["sockets"] = len(sockets)
    results["close"] = lambda: asyncio.gather(*(ws.close() for ws in sockets), *readers)
    return results


def main() -> None:
    logging.getLogger("httpx").setLevel(logging.WARNING)
    raise_fd_limit(3 * GAMES * PER_GAME + 512)
    redis_url = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
    prefix = f"fanout{uuid.uuid4().hex[:8]}"
    # This process's channel layer (the reference's sender; the publisher of the set-up's events) is the servers'.
    os.environ.update(REDIS_URL=redis_url, CHANNELS_PREFIX=prefix, CACHE_KEY_PREFIX=prefix,
                      LIVE_RESYNC_SECONDS=str(RESYNC_SECONDS))
    url = setup_django()
    t0 = time.perf_counter()
    games, _ = make_games(GAMES)
    print(f"{GAMES} games in play, {PER_GAME} sockets each; commands at {RATE:g}/s through the REST API "
          f"(set-up {time.perf_counter() - t0:.1f} s); load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    env = {**os.environ, "DATABASE_URL": url, "DVORAK_BENCH_ENDPOINTS": "1", "THROTTLE_USER": "1000000/min",
           "THROTTLE_ANON": "1000000/min", "DJANGO_DEBUG": "0", "LOG_LEVEL": "INFO", "DB_CONN_MAX_AGE": "600",
           "DJANGO_SECURE_SSL_REDIRECT": "0"}
    with ExitStack() as stack:
        ws_base, ws_pid, ws_log = stack.enter_context(
            server("ws", "dvorak_site.asgi:application", WS_WORKERS, env, "dvorak_site.serving.UvicornWorker"))
        web_base, web_pid, web_log = stack.enter_context(server("web", "dvorak_site.wsgi:application", WEB_WORKERS, env))
        small_base, small_pid, small_log = stack.enter_context(server(
            "web-small", "dvorak_site.wsgi:application", WEB_WORKERS, {**env, "CHANNELS_CAPACITY": str(SMALL_CAPACITY)}))
        print(f"servers: websockets on gunicorn + {WS_WORKERS} uvicorn workers; REST on gunicorn + {WEB_WORKERS} sync "
              f"workers (and a second such REST server with CHANNELS_CAPACITY={SMALL_CAPACITY}); Redis {redis_url}")

        async def run():
            await reference(ws_base, REFERENCE_SECONDS)
            logs = {"ws": ws_log, "web": web_log, "web-small": small_log}
            results = await live(games, ws_base, web_base, small_base, logs)
            rss = {"ws": memory(ws_pid), "web": memory(web_pid)}
            await results.pop("close")()
            return results, rss

        results, rss = asyncio.run(run())

    print(f"load average after: {os.getloadavg()[0]:.2f}")
    for name in ("live", "small capacity"):
        r = results[name]
        print(f"{name:15s} ({results['sockets']} sockets, {r['achieved']:.1f} commands/s, statuses {r['statuses']}): "
              f"commit→socket {summary(r['delays'])}")
        print(f"{'':15s} group messages dropped by channels-redis: {r['drops']}; resyncs: {r['notice_resyncs']} on a "
              f"later notice, {r['idle_resyncs']} idle; version gaps seen by clients: {r['gaps']} (aim: 0); "
              f"repeats: {r['repeats']}; sockets behind their game at the end: {r['behind']} (aim: 0)")
        if name == "small capacity" and not r["drops"]:
            print(f"{'':15s} (channels-redis dropped nothing this time, so this phase shows no resync: drops need a "
                  "websocket process too busy to take each message at once, as at full size)")
    for role, rows in rss.items():
        print(f"RSS of the {role} server: " + ", ".join(f"{n} {now:.0f} MB (peak {peak:.0f})" for n, now, peak in rows))
    live_p99 = percentile(results["live"]["delays"], 99) * 1000 if results["live"]["delays"] else float("nan")
    worst = max(peak for _, _, peak in rss["ws"][1:])
    print(f"commit→socket p99 {live_p99:.1f} ms (aim: ≤ 50 ms); largest websocket worker {worst:.0f} MB peak "
          f"(aim: ≤ 150 MB)")


if __name__ == "__main__":
    main()
