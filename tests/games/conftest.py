"""Fixtures the game server's tests share."""

import time

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
