"""A lost build message costs minutes: the periodic reconciler builds accepted changes no version has taken, and
Redis hands a killed worker's task on after minutes, not its default hour."""

from __future__ import annotations

import subprocess
import sys
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from ccg import changes as proposals
from ccg import tasks
from ccg.models import CardSetVersion
from proposals.models import CardSetChange
from tests.ccg.conftest import FILIBUSTER, FIRST_CARDS, propose, register

pytestmark = pytest.mark.django_db


def versions(deck) -> list[int]:
    return list(CardSetVersion.objects.filter(card_set=deck).values_list("number", flat=True))


@pytest.fixture
def lost_build_messages(monkeypatch):
    """Accepting a change queues nothing, as when the message is lost between the commit and the worker."""
    monkeypatch.setattr(proposals, "_request_version", lambda card_set_id: None)


def age(deck, **delta) -> None:
    CardSetChange.objects.filter(card_set=deck).update(decided_at=timezone.now() - timedelta(**delta))


def test_a_lost_build_message_is_recovered_by_the_reconciler(filibuster, players, lost_build_messages,
                                                             django_capture_on_commit_callbacks):
    (_, ann), _ = players
    register(ann)
    with django_capture_on_commit_callbacks(execute=True):
        assert propose(ann, {"kind": "add", "content": FIRST_CARDS[0]})["status"] == "accepted"
    assert versions(filibuster) == [1]  # the message is lost: nothing builds

    assert tasks.queue_missing_card_set_versions.delay().get() == []  # within the grace: the queued build's turn
    age(filibuster, minutes=6)
    assert tasks.queue_missing_card_set_versions.delay().get() == [filibuster.pk]
    assert versions(filibuster) == [1, 2]
    titles = [card["title"] for card in ann.get(f"/api/v1/decks/{FILIBUSTER}/versions/2/").json()["cards"]]
    assert titles == [FIRST_CARDS[0]["title"]]
    assert tasks.queue_missing_card_set_versions.delay().get() == []  # taken now: nothing more to queue


def test_the_reconciler_queues_exactly_the_sets_with_unbuilt_accepted_changes(
    filibuster, players, lost_build_messages, monkeypatch
):
    from ccg.services import card_set_register
    from decks import services as archive
    from dvorak_core.deckdata import CardData, DeckData

    (ann_user, ann), (bob_user, bob) = players
    register(ann)
    propose(ann, {"kind": "add", "content": FIRST_CARDS[0]})  # accepted, lost
    other = archive.deck_create(author=None, data=DeckData(
        slug="other-set", title="Other Set", kind="card_set", cards=(CardData(title="Pork Barrel"),)))
    card_set_register(slug=other.slug, user=ann_user)
    card_set_register(slug=other.slug, user=bob_user)
    open_change = proposals.card_set_change_propose(
        slug=other.slug, author=ann_user, kind="add", content={"title": "Kit", "type": "Constant"})
    assert CardSetChange.objects.get(pk=open_change.pk).status == "open"  # bob has not answered: no build due
    built = archive.deck_create(author=None, data=DeckData(
        slug="built-set", title="Built Set", kind="card_set", cards=(CardData(title="Pork Barrel"),)))
    card_set_register(slug=built.slug, user=ann_user)
    proposals.card_set_change_propose(slug=built.slug, author=ann_user, kind="add",
                                      content={"title": "Kit", "type": "Constant"})
    tasks.build_card_set_version.delay(built.pk)  # its build came through
    for deck in (filibuster, other, built):
        age(deck, minutes=10)

    queued = []
    monkeypatch.setattr(tasks.build_card_set_version, "delay", queued.append)
    assert tasks.queue_missing_card_set_versions.delay().get() == [filibuster.pk]
    assert queued == [filibuster.pk]


def test_the_reconciler_is_on_the_beat_schedule_well_within_the_hour():
    [entry] = [e for e in settings.CELERY_BEAT_SCHEDULE.values()
               if e["task"] == "decks.ccg.queue_missing_card_set_versions"]
    assert entry["schedule"] <= 10 * 60


def transport_options(**env) -> dict:
    """The broker transport options a fresh process reads from settings, with `env` as its environment."""
    import os

    environment = {k: v for k, v in os.environ.items() if k != "CELERY_BROKER_TRANSPORT_OPTIONS"} | env
    code = ("import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'dvorak_site.settings');"
            "django.setup(); from dvorak_site.celery import app; print(dict(app.conf.broker_transport_options))")
    out = subprocess.run([sys.executable, "-c", code], env=environment, capture_output=True, text=True, check=True)
    return eval(out.stdout.strip().splitlines()[-1])  # noqa: S307 - our own process's repr of a dict of ints


def test_a_killed_workers_task_comes_back_in_minutes_by_default_and_the_environment_overrides_it():
    default = transport_options()
    assert default["visibility_timeout"] == 300  # not Redis's hour
    assert default["visibility_timeout"] > proposals.VERSION_GROUPING_SECONDS  # a countdown is not delivered twice
    assert transport_options(CELERY_BROKER_TRANSPORT_OPTIONS="visibility_timeout=30,unacked_restore_interval=5") == {
        "visibility_timeout": 30, "unacked_restore_interval": 5}


@pytest.fixture
def broker_away(monkeypatch):
    """Celery sends to a broker where nothing listens (the app's cached connection pools set aside meanwhile)."""
    from dvorak_kit.outage import Outage
    from dvorak_site.celery import app
    from tests.redisserver import free_port

    was = app.conf.task_always_eager, app.conf.broker_url
    app.conf.task_always_eager, app.conf.broker_url = False, f"redis://127.0.0.1:{free_port()}/0"
    monkeypatch.setattr(app, "_pool", None)
    monkeypatch.setattr(app.amqp, "_producer_pool", None)
    monkeypatch.setattr(proposals, "BROKER", Outage(proposals.BROKER.what))
    yield
    app.conf.task_always_eager, app.conf.broker_url = was


def test_changes_accepted_while_the_broker_is_away_are_answered_and_built_by_the_reconciler(
    filibuster, players, broker_away, django_capture_on_commit_callbacks, caplog
):
    from dvorak_site.celery import app

    (_, ann), _ = players
    register(ann)
    with caplog.at_level("INFO", logger="dvorak.outage"), django_capture_on_commit_callbacks(execute=True):
        assert propose(ann, {"kind": "add", "content": FIRST_CARDS[0]})["status"] == "accepted"
        assert propose(ann, {"kind": "add", "content": FIRST_CARDS[1]})["status"] == "accepted"
    outage = [r for r in caplog.records if r.name == "dvorak.outage"]
    assert [r.getMessage().split(" is ")[1][:11] for r in outage] == ["unreachable"]  # once, not per change
    assert versions(filibuster) == [1]

    app.conf.task_always_eager = True  # the broker is back (in process)
    age(filibuster, minutes=6)
    assert tasks.queue_missing_card_set_versions.delay().get() == [filibuster.pk]
    assert versions(filibuster) == [1, 2]
    titles = {card["title"] for card in ann.get(f"/api/v1/decks/{FILIBUSTER}/versions/2/").json()["cards"]}
    assert titles == {FIRST_CARDS[0]["title"], FIRST_CARDS[1]["title"]}
