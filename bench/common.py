"""Shared set-up for the benchmarks: a PostgreSQL database of their own, migrated, and Django configured."""

import logging
import os
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
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
        env.update(DB_CONN_MAX_AGE="600", GUNICORN_WORKERS=str(workers), GUNICORN_BIND=f"127.0.0.1:{port}")
        argv = [sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", "dvorak_site.wsgi:application"]
    else:
        argv = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "dvorak_site.asgi:application"]
    log_path = Path(os.environ.get("TMPDIR", "/tmp")) / "dvorak-bench-server.log"
    with running(argv, env, port, log_path, name=server) as (base, _):
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
