"""Shared set-up for the benchmarks: a PostgreSQL database of their own, migrated, and Django configured."""

import asyncio
import logging
import os
import socket
import statistics
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse, urlunparse

ROOT = Path(__file__).resolve().parent.parent


def ensure_database(url: str) -> None:
    """Create the benchmark's database if it does not exist yet."""
    import psycopg

    parsed = urlparse(url)
    name = parsed.path.lstrip("/")
    admin = urlunparse(parsed._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def setup_django() -> str:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        sys.exit("The benchmarks measure PostgreSQL: set DATABASE_URL=postgres://… (make bench does).")
    ensure_database(url)
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dvorak_site.settings")
    # Measure what production runs: DEBUG off (no query log kept per statement).
    os.environ.setdefault("DJANGO_DEBUG", "0")
    os.environ.setdefault("DJANGO_SECRET_KEY", "bench-" + os.urandom(16).hex())
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    return url


def rate(count: int, seconds: float) -> float:
    return count / seconds if seconds else float("inf")


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


@dataclass
class Phase:
    """One kind of request's figures over the rounds: the rate of each round, every latency, CPU per request."""

    rates: list[float] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    costs: list[dict[str, float]] = field(default_factory=list)

    @property
    def rate(self) -> float:  # the median round's
        return statistics.median(self.rates)

    def p(self, q: float) -> float:
        return percentile(self.latencies, q)

    @property
    def cost(self) -> dict[str, float]:
        return {part: statistics.fmean(c[part] for c in self.costs) for part in self.costs[0]}


async def timed_rounds(phases: list[tuple], games: int, rounds: int, *, busy_only: bool = False) -> dict[str, Phase]:
    """Run each phase (name, work, client, server base) once a round, ``games`` clients at once, each round starting
    one phase further on, so that no side always goes first or follows the same other: the machine's speed drifts
    (the same server measured minutes apart differed by up to 1.7x), and a ratio is only fair between phases run
    close together. The rate reported is the median round's; the percentiles are over every round's requests.
    ``busy_only``: the rate counts only the timed requests' own time (work that also does untimed requests)."""
    figures: dict[str, Phase] = {name: Phase() for name, *_ in phases}
    for round_ in range(rounds):
        turned = phases[round_ % len(phases):] + phases[:round_ % len(phases)]
        for name, work, client, server in turned:
            meter = CpuMeter(server)
            latencies: list[float] = []
            meter.start()
            t0 = time.perf_counter()
            await asyncio.gather(*(work(g, latencies, client) for g in range(games)))
            elapsed = time.perf_counter() - t0
            figures[name].costs.append(meter.stop(len(latencies)))
            figures[name].rates.append(rate(len(latencies), sum(latencies) / games if busy_only else elapsed))
            figures[name].latencies += latencies
    return figures


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def create_bench_tables() -> None:
    """The tables the bench-only endpoints write: the bare INSERT's and the Deck-of-Cards stand-in's."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE IF NOT EXISTS bench_bare_insert "
                       "(id bigserial PRIMARY KEY, actor text, data jsonb, recorded_at timestamptz)")
        cursor.execute("CREATE TABLE IF NOT EXISTS bench_deck (id bigint PRIMARY KEY, cards jsonb)")


# The server process behind each base URL ``served`` yields: CpuMeter counts its workers' CPU.
SERVER_PIDS: dict[str, int] = {}


def _cpu_of(pid: int) -> float:
    """CPU seconds (user + system) a live process has used, 0 if it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _processes() -> list[tuple[int, int, str]]:
    """(pid, parent pid, command name) of every process on the machine."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    text = stat.read()
            except OSError:
                continue
            name = text[text.index("(") + 1:text.rindex(")")]
            found.append((int(entry), int(text.rsplit(")", 1)[1].split()[1]), name))
    return found


class CpuMeter:
    """CPU time spent between ``start`` and ``stop`` by the server behind ``base`` (its master and workers), by the
    local PostgreSQL's processes and by this client: what each request costs the machine, side by side (Linux's
    /proc; on another system every figure is 0)."""

    def __init__(self, base: str):
        self.root = SERVER_PIDS.get(base)

    def _sample(self) -> dict[str, float]:
        processes = _processes() if os.path.isdir("/proc") else []
        children: dict[int, list[int]] = {}
        for pid, parent, _ in processes:
            children.setdefault(parent, []).append(pid)
        server, todo = [], [self.root] if self.root else []
        while todo:
            pid = todo.pop()
            server.append(pid)
            todo += children.get(pid, [])
        return {
            "server": sum(_cpu_of(pid) for pid in server),
            "PostgreSQL": sum(_cpu_of(pid) for pid, _, name in processes if name.startswith("postgres")),
            "client": time.process_time(),
        }

    def start(self) -> None:
        self.started = self._sample()

    def stop(self, requests: int) -> dict[str, float]:
        """Milliseconds of CPU per request of each part, since ``start``."""
        ended = self._sample()
        return {part: (ended[part] - self.started[part]) * 1000 / max(requests, 1) for part in ended}


@contextmanager
def served(url: str, server: str = "gunicorn", workers: int = 4):
    """The service on a free local port, DEBUG off, bench endpoints on, throttles out of the way; yields its base
    URL. ``gunicorn``: production's REST side (sync workers, a persistent connection each); ``daphne``: `make run`."""
    logging.getLogger("httpx").setLevel(logging.WARNING)
    create_bench_tables()
    port = free_port()
    env = {**os.environ, "DATABASE_URL": url, "DVORAK_BENCH_ENDPOINTS": "1", "THROTTLE_USER": "1000000/min",
           "THROTTLE_ANON": "1000000/min", "DJANGO_DEBUG": "0", "LOG_LEVEL": "WARNING",
           "DJANGO_SECURE_SSL_REDIRECT": "0"}  # plain HTTP on 127.0.0.1, no TLS proxy in front
    if server == "gunicorn":
        # No worker is recycled (GUNICORN_MAX_REQUESTS) in the middle of a timed phase: it would be timed starting.
        env.update(DB_CONN_MAX_AGE="600", GUNICORN_WORKERS=str(workers), GUNICORN_BIND=f"127.0.0.1:{port}",
                   GUNICORN_MAX_REQUESTS="1000000")
        argv = [sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", "dvorak_site.wsgi:application"]
    else:
        argv = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "dvorak_site.asgi:application"]
    log_path = Path(os.environ.get("TMPDIR", "/tmp")) / "dvorak-bench-server.log"
    with running(argv, env, port, log_path, name=server) as (base, process):
        SERVER_PIDS[base] = process.pid
        yield base


@contextmanager
def served_asgi(url: str, workers: int = 2):
    """The game commands' server as production runs it (docker-compose.yml's `ws`, to which nginx sends
    ``POST /api/v1/games/{id}/commands/``): gunicorn with uvicorn workers, the ASGI app, each process with its
    connection pool; yields its base URL."""
    port = free_port()
    env = {**os.environ, "DATABASE_URL": url, "THROTTLE_USER": "1000000/min", "THROTTLE_ANON": "1000000/min",
           "DJANGO_DEBUG": "0", "LOG_LEVEL": "WARNING", "DJANGO_SECURE_SSL_REDIRECT": "0",
           "GUNICORN_WORKERS": str(workers), "GUNICORN_BIND": f"127.0.0.1:{port}",
           "GUNICORN_WORKER_CLASS": os.environ.get("BENCH_ASGI_WORKER", "dvorak_site.serving.UvicornWorker"), "GUNICORN_MAX_REQUESTS": "1000000"}
    if os.environ.get("BENCH_ASGI_CONN_MAX_AGE"):
        env["DB_CONN_MAX_AGE"] = os.environ["BENCH_ASGI_CONN_MAX_AGE"]
    else:
        env.pop("DB_CONN_MAX_AGE", None)  # as compose's `ws`: a pool per process, not a connection per thread
    argv = [sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", "dvorak_site.asgi:application"]
    log_path = Path(os.environ.get("TMPDIR", "/tmp")) / "dvorak-bench-asgi-server.log"
    with running(argv, env, port, log_path, name="asgi") as (base, process):
        SERVER_PIDS[base] = process.pid
        yield base


@contextmanager
def running(argv: list[str], env: dict, port: int, log_path: Path, *, name: str, wait_seconds: float = 60):
    """A server process (``argv``, from the repository's root) until it answers its health check on ``port``;
    yields (base URL, process), and stops it after. Its output goes to ``log_path``."""
    import httpx

    log = log_path.open("w")
    process = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + wait_seconds
    try:
        while True:
            try:
                if httpx.get(f"{base}/api/v1/health/", timeout=2).status_code in {200, 503}:
                    break
            except httpx.HTTPError:
                pass
            if process.poll() is not None:
                sys.exit(f"the {name} server stopped; see {log_path}")
            if time.monotonic() > deadline:
                sys.exit(f"the {name} server did not start; see {log_path}")
            time.sleep(0.1)
        yield base, process
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


class Answer:
    """One HTTP answer: ``status_code``, ``headers`` (lower-case names), ``text`` and ``json()``, as httpx's."""

    __slots__ = ("status_code", "headers", "content")

    def __init__(self, status_code: int, headers: dict[str, str], content: bytes):
        self.status_code, self.headers, self.content = status_code, headers, content

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", "replace")

    def json(self):
        import json

        return json.loads(self.content)

    def raise_for_status(self) -> None:
        if self.status_code >= 400:
            raise RuntimeError(f"HTTP {self.status_code}: {self.text[:300]}")


class LeanClient:
    """The benchmarks' HTTP/1.1 client: asyncio streams, a connection kept alive where the server allows it (one is
    closed and opened anew when the server says ``Connection: close``, as gunicorn's sync workers do), JSON bodies.

    httpx spends about 2 ms of CPU on each request (bench/README.md): on a machine of 2 cores shared with the
    server and PostgreSQL, it capped every server at about 500 requests a second, a server that does nothing
    included, and hid the servers' differences. This one spends about 0.3 ms, the same for every server it drives.
    """

    def __init__(self, base_url: str, timeout: float = 30):
        parsed = urlparse(base_url)
        self.host, self.port, self.timeout = parsed.hostname, parsed.port or 80, timeout
        self.idle: list[tuple] = []

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc) -> None:
        for _, writer in self.idle:
            writer.close()
        self.idle.clear()

    async def get(self, path: str, headers: dict | None = None) -> Answer:
        return await self.request("GET", path, headers=headers)

    async def post(self, path: str, headers: dict | None = None, json=None) -> Answer:
        return await self.request("POST", path, headers=headers, json=json)

    async def request(self, method: str, path: str, headers: dict | None = None, json=None) -> Answer:
        import asyncio
        import json as json_module

        body = b"" if json is None else json_module.dumps(json).encode()
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}", f"Content-Length: {len(body)}"]
        if json is not None:
            lines.append("Content-Type: application/json")
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        message = ("\r\n".join(lines) + "\r\n\r\n").encode() + body
        for attempt in range(2):
            reused = bool(self.idle) and attempt == 0  # a retry goes on a new connection
            reader, writer = self.idle.pop() if reused else await asyncio.open_connection(self.host, self.port)
            try:
                writer.write(message)
                answer, keep = await asyncio.wait_for(self._read(reader), self.timeout)
            except (ConnectionError, asyncio.IncompleteReadError, ValueError):
                writer.close()
                if reused:  # the server had closed this idle connection: once more, on a new one
                    continue
                raise
            if keep:
                self.idle.append((reader, writer))
            else:
                writer.close()
            return answer
        raise ConnectionError("unreachable")

    @staticmethod
    async def _read(reader) -> tuple[Answer, bool]:
        status_line = await reader.readline()
        if not status_line:
            raise ConnectionError("the server closed the connection")
        version, status = status_line.split(b" ", 2)[:2]
        headers: dict[str, str] = {}
        while (line := await reader.readline()) not in (b"\r\n", b"\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        if headers.get("transfer-encoding", "").lower() == "chunked":
            chunks = []
            while (size := int((await reader.readline()).split(b";")[0], 16)):
                chunks.append(await reader.readexactly(size))
                await reader.readline()
            while (await reader.readline()) not in (b"\r\n", b"\n", b""):
                pass
            content = b"".join(chunks)
        else:
            content = await reader.readexactly(int(headers.get("content-length", 0)))
        keep = headers.get("connection", "").lower() != "close" and version == b"HTTP/1.1"
        return Answer(int(status), headers, content), keep
