"""What the community side does when the archive changes: a change to a watched deck becomes a notice to each of
its watchers, once the change is committed (a change rolled back tells no one; a notice that fails is logged and
never undoes the change)."""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.dispatch import receiver

from community import services
from decks import signals

logger = logging.getLogger("dvorak.community")


@receiver(signals.deck_changed, dispatch_uid="community.watchers")
def tell_watchers(sender: Any, *, deck: Any, actor: Any, kind: str, summary: str, revision: int, post: Any = None,
                  **kwargs: Any) -> None:
    if kind == signals.CREATED:  # no one can watch a deck before it exists
        return
    change = services.change_of(deck=deck, actor=actor, kind=kind, summary=summary, revision=revision, post=post)
    transaction.on_commit(lambda: _notify(change), robust=True)


def _notify(change: services.Change) -> None:
    try:
        services.watchers_notify(change)
    except Exception:
        logger.exception("The watchers of %s could not be told of its change (%s).", change.slug, change.kind)
