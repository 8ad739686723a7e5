"""Celery tasks of the CCG side. All are safe to deliver twice (acks late: a lost worker's task comes back)."""

from __future__ import annotations

import os
import time

from celery import shared_task

from ccg.changes import BUILD_TASK, card_set_changes_close_due
from ccg.services import card_set_version_build
from proposals.services import card_sets_awaiting_version

# Test-only: seconds to wait inside the build's transaction after the version row is written, so a test can
# kill the worker half-way. Unset in every real deployment.
PAUSE_ENV = "DVORAK_CCG_BUILD_PAUSE_SECONDS"


def _pause_if_asked() -> None:
    seconds = float(os.environ.get(PAUSE_ENV) or 0)
    if seconds:
        time.sleep(seconds)


# The tasks keep the names they had when the CCG side lived in decks/ccg/: a message queued before an upgrade, and
# Celery beat's schedule (settings.CELERY_BEAT_SCHEDULE), still find them.
@shared_task(name=BUILD_TASK, acks_late=True, reject_on_worker_lost=True)
def build_card_set_version(card_set_id: int) -> int | None:
    """Group the set's accepted changes into its next version; the version's number, or None if none waited."""
    version = card_set_version_build(card_set_id=card_set_id, after_version_written=_pause_if_asked)
    return version.number if version else None


@shared_task(name="decks.ccg.close_due_card_set_changes", acks_late=True)
def close_due_card_set_changes() -> list[int]:
    """For a periodic schedule (Celery beat): decide changes whose answer period is over."""
    return card_set_changes_close_due()


@shared_task(name="decks.ccg.queue_missing_card_set_versions", acks_late=True)
def queue_missing_card_set_versions() -> list[int]:
    """For a periodic schedule (Celery beat): queue a build for each set whose accepted changes no version has
    taken, so a lost build message costs minutes. A build that runs anyway finds nothing and does nothing."""
    card_set_ids = card_sets_awaiting_version()
    for card_set_id in card_set_ids:
        build_card_set_version.delay(card_set_id)
    return card_set_ids
