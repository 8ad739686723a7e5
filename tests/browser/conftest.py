"""A real browser against the real ASGI process: Debian's Chromium driven by Playwright, daphne in a subprocess.

Tests marked ``browser`` are skipped, with the reason shown, when /usr/bin/chromium or Playwright is missing —
except in CI, where they run and fail saying what is missing. (Playwright's own browser download cannot be
used here; `apt-get install chromium` provides the one these tests launch.)
"""

import importlib.util
import os
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote, urlparse

import httpx
import pytest
from django.db import connection

from tests.conftest import IN_CI

PROJECT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
STARTUP_SECONDS = 60


def browser_missing() -> str | None:
    if importlib.util.find_spec("playwright") is None:
        return "needs Playwright: pip install -e '.[test]'"
    if not CHROMIUM.exists():
        return f"needs Chromium at {CHROMIUM}: apt-get install chromium"
    return None


def pytest_collection_modifyitems(config, items):
    reason = browser_missing()
    if not reason or IN_CI:  # in CI the `chromium` fixture fails with the reason instead
        return
    for item in items:
        if item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture
def chromium():
    """One browser per test: while Playwright's sync API is on, this thread counts as async to Django, so it must
    start after and stop before the test's database transaction (the django_db marker's)."""
    reason = browser_missing()
    if reason:
        pytest.fail(f"CI must run the browser tests: {reason}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def offline_page(chromium):
    """A page that may reach 127.0.0.1 only: every other request is aborted and listed in ``page.blocked``."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.blocked = []

    def only_local(route):
        if urlparse(route.request.url).hostname == "127.0.0.1":
            route.continue_()
        else:
            page.blocked.append(route.request.url)
            route.abort()

    page.route("**/*", only_local)
    yield page
    context.close()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    """Where the browser tests leave their screenshots for a reader to look at: ``var/screenshots/`` in the
    checkout, or ``$DVORAK_SCREENSHOTS_DIR``. Each run overwrites the files of the same name."""
    folder = Path(os.environ.get("DVORAK_SCREENSHOTS_DIR") or PROJECT / "var" / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def database_url_for_server(tmp_path: Path) -> str:
    """The test run's own database: the PostgreSQL test database, or (SQLite's test database lives in this
    process's memory) a fresh file of its own. The docs pages read no table either way."""
    db = connection.settings_dict
    if connection.vendor != "postgresql":
        return f"sqlite:///{tmp_path / 'browser.sqlite3'}"
    assert db["NAME"].startswith("test_"), f"not the test database: {db['NAME']} (mark the test django_db)"
    password = f":{quote(db['PASSWORD'])}" if db.get("PASSWORD") else ""
    return f"postgres://{quote(db['USER'] or '')}{password}@{db['HOST'] or 'localhost'}:{db['PORT'] or 5432}/{db['NAME']}"


def server_environment(tmp_path: Path, debug: bool) -> dict:
    ignored = {"DATABASE_URL", "REDIS_URL", "DJANGO_DEBUG", "DJANGO_SECRET_KEY", "DJANGO_STATIC_ROOT"}
    env = {k: v for k, v in os.environ.items() if k not in ignored and not k.startswith("DJANGO_SECURE_")}
    env.update(
        DATABASE_URL=database_url_for_server(tmp_path),
        DVORAK_VAR_DIR=str(tmp_path / "var"),
        DJANGO_ENV_FILE=str(tmp_path / "no.env"),  # a developer's .env plays no part
        DJANGO_STATIC_ROOT=str(tmp_path / "static"),
        LOG_LEVEL="WARNING",
    )
    if debug:
        env["DJANGO_DEBUG"] = "1"
    else:  # production settings, served over plain HTTP on 127.0.0.1 as README's local docker compose does
        env.update(DJANGO_DEBUG="0", DJANGO_SECRET_KEY=secrets.token_urlsafe(50), DJANGO_SECURE_SSL_REDIRECT="0",
                   DJANGO_SECURE_COOKIES="0")
    return env


@pytest.fixture(scope="module", params=["debug", "collected"])
def served(request, django_db_setup, django_db_blocker, tmp_path_factory) -> Iterator[str]:
    """The app as `make run` serves it (``debug``: DEBUG on, whitenoise reads the apps' folders) and as the
    Docker image does (``collected``: DEBUG off, after collectstatic): one daphne process on a free port."""
    debug = request.param == "debug"
    tmp_path = tmp_path_factory.mktemp(f"server-{request.param}")
    with django_db_blocker.unblock():
        env = server_environment(tmp_path, debug)
    if not debug:
        collected = subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
                                   cwd=PROJECT, env=env, capture_output=True, text=True)
        assert collected.returncode == 0, collected.stderr
    with daphne_serving(env, tmp_path) as base:
        yield base


@contextmanager
def daphne_serving(env: dict, tmp_path: Path) -> Iterator[str]:
    """daphne serving the app with ``env`` on a free port, its output in ``tmp_path/daphne.log``: the base URL."""
    port = free_port()
    log = tmp_path / "daphne.log"
    with log.open("w") as output:
        server = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "dvorak_site.asgi:application"],
            cwd=PROJECT, env=env, stdout=output, stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            assert server.poll() is None, log.read_text()
            try:
                if httpx.get(f"{base}/api/v1/docs/", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, f"daphne did not answer within {STARTUP_SECONDS}s:\n{log.read_text()}"
            time.sleep(0.3)
        yield base
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
