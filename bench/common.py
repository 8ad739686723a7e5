"""Shared set-up for the benchmarks: a PostgreSQL database of their own, migrated, and Django configured."""

import os
import sys
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
