"""Fixtures the game server's tests share."""

import sys
import threading
import time
import traceback

import pytest
from rest_framework.throttling import UserRateThrottle

from games import background

# How long a test waits for the computer players still busy when it ends.
PATIENCE = 10.0


@pytest.fixture
def unthrottled(monkeypatch):
    """A client playing a whole game at the machine's speed sends more than a person's rate allows."""
    monkeypatch.setattr(UserRateThrottle, "THROTTLE_RATES", {"user": "1000000/min"})


@pytest.fixture
def computer_players_run(settings):
    """Computer players move in a thread of this process, as under `make run`; the test ends once none is busy."""
    settings.LIVE_TABLES_RUNNER = "thread"
    settings.BOT_THINK_SECONDS = 0
    yield
    stop = time.monotonic() + PATIENCE
    while time.monotonic() < stop and not background.JOBS.idle():
        time.sleep(0.05)


def computer_players_report() -> str:
    """What the thread of computer players is doing, for a test that waited for it in vain: its jobs (due in how
    long), how many run, where the thread stands, and the database pool's figures."""
    jobs = background.JOBS
    now = time.time()
    with jobs._lock:
        waiting = sorted((round(at - now, 2), key) for at, _, key, _ in jobs._heap)
        running = jobs.running
    lines = [f"jobs running: {running}; waiting (due in s, key): {waiting[:10]}"]
    frames = sys._current_frames()
    for thread in threading.enumerate():
        if thread.name == "dvorak-live-tables" and thread.ident in frames:
            lines.append("the thread stands at:\n" + "".join(traceback.format_stack(frames[thread.ident])[-8:]))
    from django.db import connection

    pool = getattr(connection, "pool", None)
    if pool is not None:
        lines.append(f"database pool: {pool.get_stats()}")
    return "\n".join(lines)
