"""Live updates at scale: 1,000 websockets, then 1,000 NDJSON streams, over 250 games in play, commands flowing,
on production's servers.

Serves the project the way production does: the websockets and the HTTP streams on gunicorn with uvicorn workers
(ASGI, 2 processes) and the REST API on gunicorn sync workers, with the channels-redis layer on the local Redis and
PostgreSQL. Creates the games in process, opens 4 readers a game (the two players and two spectators, each from the
game's current version), and sends counter commands through the REST API at a steady rate, round robin over the
games. Each reader checks that its versions go 1, 2, 3… and records, for every event, the time from the event's
recorded time (`at`, taken in the server just before its commit) to its arrival.

Prints, phase by phase:
- reference: the same number of sockets on a bare Channels consumer that relays each group message (the same kind
  of server, one of its own, started for this phase and stopped after it, so that the game sockets' server holds
  only theirs; the same layer; no store read, no redaction), sent to at the same rate from this process: the floor
  of the path, and of the time the sockets take to open;
- live: the game sockets, the channel layer at its default capacity;
- small capacity: the same sockets while commands go to a second REST server whose channel layer holds at most
  `FANOUT_SMALL_CAPACITY` waiting messages a channel, so channels-redis drops group messages (it logs how many),
  and the sockets resync by version: still no gap, and every socket ends at its game's version;
- streams: the sockets closed, the same readers as NDJSON streams (`GET /api/v1/games/{id}/stream/?after=N`, httpx,
  HTTP/1.1, a connection each) on an ASGI server of their own (the same settings and worker class as the
  websockets'), so that its processes' memory is the streams' alone; commands at the same rate for
  FANOUT_STREAM_SECONDS; the same checks, the keep-alive lines counted, and the connections each worker holds;
- the resyncs the ASGI servers did, and the memory (RSS, and its peak) of every server process.

    make bench     # or: DATABASE_URL=postgres://… REDIS_URL=redis://… python bench/fanout.py
    FANOUT_GAMES=50 FANOUT_SECONDS=10 FANOUT_SMALL_SECONDS=5 python bench/fanout.py   # a quick run
    FANOUT_PHASES=streams python bench/fanout.py   # the streams alone

FANOUT_PHASES (comma-separated; default all): `reference`, `sockets` (live and small capacity, on the same sockets),
`streams`. Sizes (environment): FANOUT_GAMES (250), FANOUT_SOCKETS_PER_GAME (4: readers a game, sockets or streams),
FANOUT_RATE (commands a second, 10), FANOUT_SECONDS (40), FANOUT_REFERENCE_SECONDS (15), FANOUT_SMALL_SECONDS (15),
FANOUT_SMALL_CAPACITY (1), FANOUT_STREAM_SECONDS (as FANOUT_SECONDS), FANOUT_WS_WORKERS (2: the websocket server's
and the streams server's), FANOUT_WEB_WORKERS (2); LIVE_RESYNC_SECONDS as the servers' setting (5).

What 500 streams a worker meet in the ASGI server: each is an open connection and a descriptor in the worker (the
bench raises its soft limit of open files, which the servers inherit; a deployment needs `ulimit -n` above its
streams a worker). uvicorn's `--limit-concurrency` would answer 503 above N connections and tasks, a stream counting
as one for as long as it is open; gunicorn's uvicorn worker leaves it unset (no limit), and gunicorn's
`worker_connections` does not apply to it. The keep-alive timeout (gunicorn's `keepalive`, 2 s, uvicorn's
`timeout_keep_alive`) closes a connection idle between requests, not one whose response is still being sent; a stream
is one response, chunked, for as long as the client stays (uvicorn's HTTP/1.1 protocol: httptools where installed,
else h11). gunicorn's `timeout` does not cut it either: the worker tells the master it is alive from its loop.
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
STREAM_SECONDS = float(os.environ.get("FANOUT_STREAM_SECONDS", SECONDS))
ALL_PHASES = ("reference", "sockets", "streams")
PHASES = [p.strip() for p in os.environ.get("FANOUT_PHASES", ",".join(ALL_PHASES)).split(",") if p.strip()]
WS_WORKERS = int(os.environ.get("FANOUT_WS_WORKERS", 2))
WEB_WORKERS = int(os.environ.get("FANOUT_WEB_WORKERS", 2))
RESYNC_SECONDS = float(os.environ.get("LIVE_RESYNC_SECONDS", 5))
SENDERS = 16  # REST requests in flight at most
OPENING = 50  # sockets or streams being opened at once at most
NDJSON = "application/x-ndjson"
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


def connections(pid: int) -> list[int]:
    """The sockets (descriptors) each worker of a gunicorn master holds: its clients' connections, and its few own
    to Redis and PostgreSQL."""
    counts = []
    for child in sorted(p for p in Path("/proc").iterdir() if p.name.isdigit() and _parent(p) == pid):
        try:
            counts.append(sum(os.readlink(fd).startswith("socket:") for fd in (child / "fd").iterdir()))
        except OSError:
            counts.append(0)
    return counts


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
    from django.utils import timezone
    from knox.models import AuthToken, get_digest_token
    from knox.settings import knox_settings

    from decks import services as deck_services
    from dvorak_core.deckdata import DeckData
    from games import services
    from tests.engine.dvorak_games import unique_title_deck

    tag = uuid.uuid4().hex[:8]
    User = get_user_model()
    users = User.objects.bulk_create([User(username=f"fan{tag}{n}", password="!") for n in range(2 * count + 2)])
    digests = [get_digest_token() for _ in users]  # (hash, token): the database keeps the hash, the bench the token
    expiry = timezone.now() + knox_settings.TOKEN_TTL
    AuthToken.objects.bulk_create([AuthToken(digest=digest, token_key=token[:15], user=user, expiry=expiry)
                                   for user, (digest, token) in zip(users, digests, strict=True)])
    tokens = [token for _, token in digests]
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
    """One reader (a socket or a stream): its game, the last version it saw, the gaps and repeats it met."""

    def __init__(self, game_id: str, version: int):
        self.game_id, self.version, self.gaps, self.repeats = game_id, version, 0, 0

    def saw(self, event: dict, now: float) -> float | None:
        """Count ``event``, arrived at ``now``; its delay from its recorded time, or None if it was seen before."""
        version = event["version"]
        if version <= self.version:
            self.repeats += 1
            return None
        if version != self.version + 1:
            self.gaps += 1
        self.version = version
        return now - datetime.fromisoformat(event["at"].replace("Z", "+00:00")).timestamp()


async def open_sockets(urls: list[str]) -> list:
    import websockets

    limit = asyncio.Semaphore(OPENING)

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
            if (delay := listener.saw(message["event"], now)) is not None:
                delays.setdefault(phase[0], []).append(delay)
    except websockets.ConnectionClosed:
        pass


async def follow_stream(response, listener: Listener, delays: list[float], keep_alives: list[int]) -> None:
    """Read one NDJSON stream until it is closed: an event a line, an empty line a keep-alive."""
    import httpx

    try:
        async for line in response.aiter_lines():
            now = time.time()
            if not line.strip():
                keep_alives[0] += 1
                continue
            if (delay := listener.saw(json.loads(line), now)) is not None:
                delays.append(delay)
    except (httpx.HTTPError, httpx.StreamError):
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


def commands(http, games: list[dict], base: str, statuses: dict[int, int]):
    """``send(i)``: the i-th counter command through the REST API at ``base``, round robin over the games, the seats
    taking turns; each answer's status counted in ``statuses``."""
    async def send(i):
        game = games[i % len(games)]
        seat = (i // len(games)) % 2
        r = await http.post(f"{base}/api/v1/games/{game['id']}/commands/",
                            headers={"Authorization": f"Token {game['seats'][seat]}"},
                            json={"type": "counter", "cause": game["cause"], "seat": seat, "name": "gold", "delta": 1})
        statuses[r.status_code] = statuses.get(r.status_code, 0) + 1

    return send


async def settled(games: list[dict], listeners: list[Listener]) -> int:
    """Wait until every reader has reached its game's version, by notice or, for a dropped last one, by the idle
    resync (LIVE_RESYNC_SECONDS), or until that has had time twice over; the readers still behind."""
    deadline = time.perf_counter() + 2 * RESYNC_SECONDS + 5
    while True:
        target = await asyncio.to_thread(versions, games)
        behind = sum(1 for lst in listeners if lst.version < target[lst.game_id])
        if not behind or time.perf_counter() > deadline:
            return behind
        await asyncio.sleep(0.5)


def gc_pauses(lines: list[str]) -> list[float]:
    """The full garbage collections an ASGI server logged as pausing it (dvorak_kit/collector.py), in ms."""
    return [float(m.group(1)) for line in lines if (m := re.search(r"garbage collection paused the process (\d+) ms",
                                                                    line))]


def resyncs(lines: list[str]) -> tuple[int, int]:
    """The resyncs an ASGI server logged: on a later notice, and of idle readers."""
    return sum("got the notice" in line for line in lines), sum("the idle readers" in line for line in lines)


def summary(delays: list[float], unit: str = "messages") -> str:
    if not delays:
        return f"no {unit}"
    return (f"{len(delays):6d} {unit:8s}   p50 {percentile(delays, 50) * 1000:7.1f} ms   "
            f"p99 {percentile(delays, 99) * 1000:7.1f} ms   max {max(delays) * 1000:7.1f} ms")


# --- phases ---------------------------------------------------------------------------------------------------


async def reference(ws_base: str, seconds: float) -> None:
    """The floor: group messages relayed by a bare consumer to the same number of sockets, at the same rate."""
    from channels.layers import get_channel_layer

    url = ws_base.replace("http", "ws")
    t0 = time.perf_counter()
    sockets = await open_sockets([f"{url}/ws/bench/{g}/" for g in range(GAMES) for _ in range(PER_GAME)])
    opening = time.perf_counter() - t0
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
          f"   ({len(delays)} of {count * PER_GAME} delivered; the sockets opened in {opening:.1f} s)")


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

            count = int(RATE * seconds)
            achieved = await paced(count, RATE, commands(http, games, base, statuses), burst)
            behind = await settled(games, listeners)
            ws_lines = [line for n in logs if n.startswith("ws") for line in log_lines(logs[n], offsets[n])]
            web_name = "web" if name == "live" else "web-small"
            drops = layer_drops(log_lines(logs[web_name], offsets[web_name]))
            offsets = {n: path.stat().st_size for n, path in logs.items()}
            results[name] = {
                "achieved": achieved, "statuses": statuses, "behind": behind, "delays": delays.get(name, []),
                "gaps": sum(lst.gaps for lst in listeners), "repeats": sum(lst.repeats for lst in listeners),
                "drops": drops,
            }
            results[name]["notice_resyncs"], results[name]["idle_resyncs"] = resyncs(ws_lines)
            results[name]["gc"] = gc_pauses(ws_lines)
            for lst in listeners:
                lst.gaps = lst.repeats = 0
    results["sockets"] = len(sockets)
    results["close"] = lambda: asyncio.gather(*(ws.close() for ws in sockets), *readers)
    return results


async def streams(games, stream_base: str, stream_pid: int, stream_log: Path, web_base: str) -> dict:
    """The game readers again, as NDJSON streams on the streams server, while commands flow at the same rate."""
    import httpx

    start_versions = await asyncio.to_thread(versions, games)
    listeners, openings = [], []
    for game in games:
        after = start_versions[game["id"]]
        for token in game["watchers"]:
            listeners.append(Listener(game["id"], after))
            openings.append((f"{stream_base}/api/v1/games/{game['id']}/stream/?after={after}", token))
    delays: list[float] = []
    keep_alives = [0]
    responses, readers = [], []
    limit = asyncio.Semaphore(OPENING)
    # One connection a stream (HTTP/1.1: a response in progress holds its connection), none kept after; reads wait
    # longer than a keep-alive's interval (8 s).
    client = httpx.AsyncClient(timeout=httpx.Timeout(120, read=60),
                               limits=httpx.Limits(max_connections=None, max_keepalive_connections=0))

    async def open_one(url: str, token: str, listener: Listener) -> None:
        async with limit:
            request = client.build_request("GET", url, headers={"Authorization": f"Token {token}", "Accept": NDJSON})
            response = await client.send(request, stream=True)
        if response.status_code != 200 or not response.headers.get("content-type", "").startswith(NDJSON):
            body = await response.aread()
            await response.aclose()
            raise RuntimeError(f"a stream was refused: {response.status_code} {body[:300]!r}")
        responses.append(response)
        readers.append(asyncio.create_task(follow_stream(response, listener, delays, keep_alives)))

    offset = stream_log.stat().st_size
    t0 = time.perf_counter()
    await asyncio.gather(*(open_one(url, token, lst) for (url, token), lst in zip(openings, listeners, strict=True)))
    opened = time.perf_counter() - t0
    held = connections(stream_pid)
    print(f"opened {len(responses)} NDJSON streams over {len(games)} games in {opened:.1f} s (connections a streams "
          f"worker holds: {', '.join(map(str, held))}); load average {os.getloadavg()[0]:.2f}")
    statuses: dict[int, int] = {}
    try:
        async with httpx.AsyncClient(timeout=60, limits=httpx.Limits(max_connections=SENDERS)) as http:
            achieved = await paced(int(RATE * STREAM_SECONDS), RATE, commands(http, games, web_base, statuses))
        behind = await settled(games, listeners)
        rss = memory(stream_pid)
    finally:
        for reader in readers:
            reader.cancel()
        await asyncio.gather(*readers, return_exceptions=True)
        await asyncio.gather(*(r.aclose() for r in responses), return_exceptions=True)
        await client.aclose()
    notice_resyncs, idle_resyncs = resyncs(log_lines(stream_log, offset))
    return {"streams": len(responses), "opened": opened, "held": held, "achieved": achieved, "statuses": statuses,
            "delays": delays, "behind": behind, "gaps": sum(lst.gaps for lst in listeners),
            "repeats": sum(lst.repeats for lst in listeners), "keep_alives": keep_alives[0],
            "notice_resyncs": notice_resyncs, "idle_resyncs": idle_resyncs, "rss": rss}


def main() -> None:
    unknown = set(PHASES) - set(ALL_PHASES)
    if unknown or not PHASES:
        sys.exit(f"FANOUT_PHASES: {', '.join(sorted(unknown)) or 'none'}? The phases are {', '.join(ALL_PHASES)}.")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    raise_fd_limit(GAMES * PER_GAME + 1024)  # the limit is a process's: this one holds every socket, a server its share
    redis_url = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
    prefix = f"fanout{uuid.uuid4().hex[:8]}"
    # This process's channel layer (the reference's sender; the publisher of the set-up's events) is the servers'.
    os.environ.update(REDIS_URL=redis_url, CHANNELS_PREFIX=prefix, CACHE_KEY_PREFIX=prefix,
                      LIVE_RESYNC_SECONDS=str(RESYNC_SECONDS))
    url = setup_django()
    t0 = time.perf_counter()
    games, _ = make_games(GAMES)
    print(f"{GAMES} games in play, {PER_GAME} readers each; commands at {RATE:g}/s through the REST API "
          f"(set-up {time.perf_counter() - t0:.1f} s); phases {', '.join(PHASES)}; "
          f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    env = {**os.environ, "DATABASE_URL": url, "DVORAK_BENCH_ENDPOINTS": "1", "THROTTLE_USER": "1000000/min",
           "THROTTLE_ANON": "1000000/min", "DJANGO_DEBUG": "0", "LOG_LEVEL": "INFO", "DB_CONN_MAX_AGE": "600",
           "DJANGO_SECURE_SSL_REDIRECT": "0"}
    asgi = "dvorak_site.serving.UvicornWorker"
    # The ASGI servers as docker-compose.yml runs them: each process with its pool of connections, no persistent
    # per-thread ones (DB_CONN_MAX_AGE is the REST server's).
    asgi_env = {name: value for name, value in env.items() if name != "DB_CONN_MAX_AGE"}
    with ExitStack() as stack:
        ws_base, ws_pid, ws_log = (stack.enter_context(server("ws", "dvorak_site.asgi:application", WS_WORKERS, asgi_env, asgi))
                                   if "sockets" in PHASES else (None, None, None))
        web_base, web_pid, web_log = stack.enter_context(server("web", "dvorak_site.wsgi:application", WEB_WORKERS, env))
        small_base, small_pid, small_log = stack.enter_context(server(
            "web-small", "dvorak_site.wsgi:application", WEB_WORKERS, {**env, "CHANNELS_CAPACITY": str(SMALL_CAPACITY)})
        ) if "sockets" in PHASES else (None, None, None)
        stream_base, stream_pid, stream_log = stack.enter_context(
            server("streams", "dvorak_site.asgi:application", WS_WORKERS, asgi_env, asgi)
        ) if "streams" in PHASES else (None, None, None)
        asgi_roles = " and ".join(r for r, b in (("websockets", ws_base), ("streams", stream_base)) if b)
        small = f" (and a second such REST server with CHANNELS_CAPACITY={SMALL_CAPACITY})" if small_base else ""
        print(f"servers: {asgi_roles} on gunicorn + {WS_WORKERS} uvicorn workers (a server each); REST on gunicorn + "
              f"{WEB_WORKERS} sync workers{small}; Redis {redis_url}")

        async def run():
            results, rss = {}, {}
            if "reference" in PHASES:  # on a server of its own, so that the game sockets' memory is theirs alone
                with server("relay", "dvorak_site.asgi:application", WS_WORKERS, asgi_env, asgi) as (relay_base, *_):
                    await reference(relay_base, REFERENCE_SECONDS)
            if "sockets" in PHASES:
                logs = {"ws": ws_log, "web": web_log, "web-small": small_log}
                results = await live(games, ws_base, web_base, small_base, logs)
                rss = {"ws": memory(ws_pid), "web": memory(web_pid)}
                await results.pop("close")()
            if "streams" in PHASES:
                results["streams"] = await streams(games, stream_base, stream_pid, stream_log, web_base)
                rss["streams"] = results["streams"].pop("rss")
            rss.setdefault("web", memory(web_pid))
            return results, rss

        results, rss = asyncio.run(run())

    print(f"load average after: {os.getloadavg()[0]:.2f}")
    for name in ("live", "small capacity") if "sockets" in PHASES else ():
        r = results[name]
        print(f"{name:15s} ({results['sockets']} sockets, {r['achieved']:.1f} commands/s, statuses {r['statuses']}): "
              f"commit→socket {summary(r['delays'])}")
        print(f"{'':15s} group messages dropped by channels-redis: {r['drops']}; resyncs: {r['notice_resyncs']} on a "
              f"later notice, {r['idle_resyncs']} idle; version gaps seen by clients: {r['gaps']} (aim: 0); "
              f"repeats: {r['repeats']}; sockets behind their game at the end: {r['behind']} (aim: 0)")
        pauses = r["gc"]
        print(f"{'':15s} full garbage collections pausing a websocket worker 20 ms or more: {len(pauses)}"
              + (f" (longest {max(pauses):.0f} ms)" if pauses else ""))
        if name == "small capacity" and not r["drops"]:
            print(f"{'':15s} (channels-redis dropped nothing this time, so this phase shows no resync: drops need a "
                  "websocket process too busy to take each message at once, as at full size)")
    if "streams" in PHASES:
        r = results["streams"]
        print(f"{'streams':15s} ({r['streams']} NDJSON streams, {r['achieved']:.1f} commands/s, statuses "
              f"{r['statuses']}): commit→line {summary(r['delays'], 'lines')}")
        print(f"{'':15s} keep-alive lines: {r['keep_alives']}; resyncs: {r['notice_resyncs']} on a later notice, "
              f"{r['idle_resyncs']} idle; version gaps seen by clients: {r['gaps']} (aim: 0); repeats: {r['repeats']}; "
              f"streams behind their game at the end: {r['behind']} (aim: 0)")
    for role, rows in rss.items():
        print(f"RSS of the {role} server: " + ", ".join(f"{n} {now:.0f} MB (peak {peak:.0f})" for n, now, peak in rows))
    if "sockets" in PHASES:
        live_p99 = percentile(results["live"]["delays"], 99) * 1000 if results["live"]["delays"] else float("nan")
        worst = max(peak for _, _, peak in rss["ws"][1:])
        print(f"commit→socket p99 {live_p99:.1f} ms (aim: ≤ 50 ms); largest websocket worker {worst:.0f} MB peak "
              f"(aim: ≤ 150 MB)")
    if "streams" in PHASES:
        r = results["streams"]
        p99 = percentile(r["delays"], 99) * 1000 if r["delays"] else float("nan")
        worst = max(peak for _, _, peak in rss["streams"][1:])
        print(f"commit→line p99 {p99:.1f} ms over {r['streams']} NDJSON streams (aim: ≤ 50 ms), {r['gaps']} gaps "
              f"(aim: 0); largest streams worker {worst:.0f} MB peak")


if __name__ == "__main__":
    main()
