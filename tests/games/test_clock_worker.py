"""The clock and the computer players as production runs them: on a real Celery worker with beat, over Redis and
PostgreSQL, with no client connected and nothing of the server's own process sweeping (issue 34):

    "When a clock runs out, the server appends `clock.expired` within 2 s of the deadline, with no client
    connected, in `make run` (embedded default) as in production (worker and beat)."
"""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.conf import settings

from games.models import Game
from tests.ccg.test_worker import CELERY, PROJECT, STARTUP_SECONDS, database_url_for_workers, stop, wait_until

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@contextmanager
def worker_with_beat(tmp_path: Path) -> Iterator[subprocess.Popen]:
    """`celery -A dvorak_site worker -B` on the test database, on a queue of its own (beat sends there too), running
    the server's clock and computer players (``LIVE_TABLES_RUNNER=celery``); always ended, its queue removed."""
    import redis

    queue = f"clock-test-{uuid.uuid4().hex}"
    log = tmp_path / "worker.log"
    environment = {
        **os.environ, "DATABASE_URL": database_url_for_workers(), "REDIS_URL": settings.REDIS_URL,
        "CELERY_TASK_ALWAYS_EAGER": "0", "DB_CONN_MAX_AGE": "0", "CELERY_TASK_DEFAULT_QUEUE": queue,
        "LIVE_TABLES_RUNNER": "celery", "BOT_THINK_SECONDS": "0",
    }
    with log.open("w") as output:
        process = subprocess.Popen(
            [str(CELERY), "-A", "dvorak_site", "worker", "-B", "-s", str(tmp_path / "beat-schedule"), "-Q", queue,
             "-c", "2", "-n", f"{queue}@%h", "--without-gossip", "--without-mingle", "--without-heartbeat",
             "--loglevel=INFO"],
            cwd=PROJECT, env=environment, stdout=output, stderr=subprocess.STDOUT, start_new_session=True,
        )
    try:
        wait_until(lambda: "ready." in log.read_text() or process.poll() is not None, STARTUP_SECONDS,
                   "the worker to start")
        assert process.poll() is None, log.read_text()
        yield process
    finally:
        stop(process)
        client = redis.Redis.from_url(settings.REDIS_URL)
        client.delete(queue, f"_kombu.binding.{queue}", f"_kombu.binding_permanent.{queue}")
        client.close()


def test_beat_and_a_worker_end_a_game_whose_time_ran_out_within_two_seconds(archive_deck, make_user, client_for,
                                                                            tmp_path):
    ann, bob = client_for(make_user("ann")), client_for(make_user("bob"))
    with worker_with_beat(tmp_path):
        created = ann.post("/api/v1/games/", {"deck": archive_deck(30).slug, "max_players": 2,
                                              "options": {"clock": {"per_move": 2}}}, format="json")
        game_id = created.json()["id"]
        assert bob.post(f"/api/v1/games/{game_id}/join/", {}, format="json").status_code == 200
        assert ann.post(f"/api/v1/games/{game_id}/start/").status_code == 200
        deadline = Game.objects.get(pk=game_id).deadline
        assert deadline is not None
        # Nobody reads the game (a read would end it itself): only the game row is watched.
        stop_at = time.monotonic() + 15
        while time.monotonic() < stop_at and Game.objects.get(pk=game_id).status == "active":
            time.sleep(0.1)
    assert Game.objects.get(pk=game_id).status == "finished"
    events = ann.get(f"/api/v1/games/{game_id}/events/").json()["events"]
    expired = next(event for event in events if event["type"] == "clock.expired")
    appended = dt.datetime.fromisoformat(expired["at"].replace("Z", "+00:00"))
    assert dt.timedelta(0) <= appended - deadline < dt.timedelta(seconds=2), (appended, deadline)
    assert expired["actor"] == "(clock)"
