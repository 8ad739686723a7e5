"""The version task on a real Celery worker over Redis and PostgreSQL: delivered twice it builds one version;
killed half-way it leaves nothing half-built, and the redelivered task builds the version exactly once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings
from django.db import connection

from ccg import changes as proposals
from ccg.models import CardSetVersion
from ccg.services import card_set_register
from ccg.tasks import PAUSE_ENV, build_card_set_version
from decks import services as archive
from decks.models import Deck
from dvorak_core.deckdata import CardData, DeckData
from proposals.models import CardSetChange

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

PROJECT = Path(__file__).resolve().parents[2]
CELERY = Path(sys.executable).with_name("celery")
STARTUP_SECONDS = 30
TASK_SECONDS = 60
# Short, so that a killed worker's unacknowledged task goes back to the queue within seconds.
REDELIVERY = "visibility_timeout=3,unacked_restore_interval=1,unacked_restore_throttle=1"


def database_url_for_workers() -> str:
    db = connection.settings_dict
    password = f":{quote(db['PASSWORD'])}" if db.get("PASSWORD") else ""
    return f"postgres://{quote(db['USER'] or '')}{password}@{db['HOST'] or 'localhost'}:{db['PORT'] or 5432}/{db['NAME']}"


def wait_until(condition: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    raise AssertionError(f"Gave up after {seconds}s waiting for {what}.")


@contextmanager
def worker(queue: str, tmp_path: Path, **env: str) -> Iterator[subprocess.Popen]:
    """A `celery -A dvorak_site worker` on the test database, consuming only `queue`; always ended."""
    log = tmp_path / f"worker-{uuid.uuid4().hex[:8]}.log"
    environment = {
        **os.environ, "DATABASE_URL": database_url_for_workers(), "REDIS_URL": settings.REDIS_URL,
        "CELERY_TASK_ALWAYS_EAGER": "0", "DB_CONN_MAX_AGE": "0", **env,
    }
    with log.open("w") as output:
        process = subprocess.Popen(
            [str(CELERY), "-A", "dvorak_site", "worker", "-Q", queue, "-c", "1", "-n", f"{queue}@%h",
             "--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel=INFO"],
            cwd=PROJECT, env=environment, stdout=output, stderr=subprocess.STDOUT, start_new_session=True,
        )
    try:
        wait_until(lambda: "ready." in log.read_text() or process.poll() is not None, STARTUP_SECONDS,
                   "the worker to start")
        assert process.poll() is None, log.read_text()
        yield process
    finally:
        stop(process)


def stop(process: subprocess.Popen, sig: int = signal.SIGTERM) -> None:
    if process.poll() is None:
        os.killpg(process.pid, sig)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)


@pytest.fixture
def card_set_with_an_accepted_change(make_user, monkeypatch) -> Deck:
    """A card set with one accepted change waiting for its version (the test sends the task itself)."""
    monkeypatch.setattr(proposals, "_request_version", lambda card_set_id: None)
    deck = archive.deck_create(author=None, data=DeckData(
        slug="worker-set", title="Worker Set", kind="card_set", cards=(CardData(title="Pork Barrel"),)))
    player = make_user("ann")
    card_set_register(slug=deck.slug, user=player)
    change = proposals.card_set_change_propose(
        slug=deck.slug, author=player, kind="add", content={"title": "Filibuster Kit", "type": "Constant"})
    assert CardSetChange.objects.get(pk=change.pk).status == "accepted"
    return deck


@pytest.fixture
def queue() -> Iterator[str]:
    """A queue of this test's own, so no other worker takes its tasks; its keys are removed from Redis after."""
    import redis

    name = f"ccg-test-{uuid.uuid4().hex}"
    yield name
    client = redis.Redis.from_url(settings.REDIS_URL)
    client.delete(name, f"_kombu.binding.{name}", f"_kombu.binding_permanent.{name}")
    client.close()


def versions_of(deck: Deck) -> list[int]:
    return list(CardSetVersion.objects.filter(card_set=deck).values_list("number", flat=True))


def test_a_task_delivered_twice_to_a_real_worker_builds_one_version(
    card_set_with_an_accepted_change, queue, tmp_path
):
    deck = card_set_with_an_accepted_change
    with worker(queue, tmp_path):
        first = build_card_set_version.apply_async(args=[deck.pk], queue=queue)
        second = build_card_set_version.apply_async(args=[deck.pk], queue=queue)
        results = [first.get(timeout=TASK_SECONDS), second.get(timeout=TASK_SECONDS)]
    assert results == [2, None]
    assert versions_of(deck) == [1, 2]
    assert CardSetChange.objects.get(card_set=deck).version.number == 2


def in_the_pause() -> bool:
    """The worker has written the version and linked the changes, and sleeps inside its open transaction."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND state = 'idle in transaction' "
            "AND query LIKE 'UPDATE \"proposals_cardsetchange\"%%'", [connection.settings_dict["NAME"]])
        return cursor.fetchone()[0] == 1


def test_a_worker_killed_half_way_leaves_no_half_built_version_and_the_task_comes_back(
    card_set_with_an_accepted_change, queue, tmp_path
):
    deck = card_set_with_an_accepted_change
    revision_before = Deck.objects.get(pk=deck.pk).revision
    with worker(queue, tmp_path, **{PAUSE_ENV: "120", "CELERY_BROKER_TRANSPORT_OPTIONS": REDELIVERY}) as doomed:
        build_card_set_version.apply_async(args=[deck.pk], queue=queue)
        wait_until(in_the_pause, TASK_SECONDS, "the task to pause half-way")
        stop(doomed, signal.SIGKILL)
    wait_until(lambda: not in_the_pause(), 10, "PostgreSQL to roll back the killed worker's transaction")

    assert versions_of(deck) == [1]
    assert CardSetChange.objects.get(card_set=deck).version is None
    assert Deck.objects.get(pk=deck.pk).revision == revision_before

    with worker(queue, tmp_path, CELERY_BROKER_TRANSPORT_OPTIONS=REDELIVERY):
        wait_until(lambda: versions_of(deck) == [1, 2], TASK_SECONDS, "the redelivered task to build version 2")
        time.sleep(5)  # longer than the visibility timeout: a second delivery would show by now
    assert versions_of(deck) == [1, 2]
    assert CardSetChange.objects.get(card_set=deck).version.number == 2
    assert Deck.objects.get(pk=deck.pk).revision == revision_before + 1
