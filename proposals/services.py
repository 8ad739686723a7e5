"""Voting on proposed changes: a change opened with its author's acceptance, each voter's answer, and the decision
by the no-objection rule (``dvorak_core.vote_rules``): one objection rejects it; it passes once every voter has
accepted or, at its deadline, if nobody objected. Who may vote, and what an accepted change does, are the caller's
(the CCG side, ``ccg.changes``, for a card set's changes): this app imports none of it.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from dvorak_core.vote_rules import ACCEPTED, NO_OBJECTION, OPEN, outcome
from proposals.models import CardSetChange, CardSetChangeVote

# An accepted change still in no version this long after its decision lost its build message: well past the
# grouping countdown and a build, so the reconciler does not race the build queued at accept time.
VERSION_RECONCILE_GRACE = timedelta(minutes=5)


def change_open(*, card_set: Any, author: Any, kind: str, card_id: int | None, content: dict[str, Any],
                deadline: Any) -> CardSetChange:
    """A new open change; its author does not object to it."""
    change = CardSetChange.objects.create(card_set=card_set, author=author, kind=kind, card_id=card_id,
                                          content=content, deadline=deadline)
    CardSetChangeVote.objects.create(change=change, user=author, approve=True)
    return change


def change_for_update(*, card_set_slug: str, change_id: int) -> CardSetChange | None:
    """The change, locked for its answer; None when the set has no such change."""
    return (CardSetChange.objects.select_for_update(of=("self",)).select_related("card_set")
            .filter(pk=change_id, card_set__slug=card_set_slug).first())


def change_answer(change: CardSetChange, *, user: Any, approve: bool) -> None:
    """A voter's answer, replacing their earlier one."""
    CardSetChangeVote.objects.update_or_create(change=change, user=user, defaults={"approve": approve})


def changes_due(*, now: Any) -> QuerySet[CardSetChange]:
    """The open changes whose deadline has passed, locked, oldest first."""
    return CardSetChange.objects.select_for_update().filter(status=OPEN, deadline__lte=now).order_by("id")


def change_decide(change: CardSetChange, *, voters: Any, final: bool) -> str:
    """The change decided by its voters' answers (``final``: at its deadline, silence is consent); recorded when
    it is no longer open. Returns the outcome (``OPEN``, ``ACCEPTED`` or rejected)."""
    votes = dict(change.votes.values_list("user_id", "approve"))
    decided = outcome(NO_OBJECTION, votes, voters, final=final)
    if decided != OPEN:
        change.status = decided
        change.decided_at = timezone.now()
        change.save(update_fields=["status", "decided_at"])
    return decided


def card_sets_awaiting_version(*, now: Any = None) -> list[int]:
    """Card sets with a change accepted more than VERSION_RECONCILE_GRACE ago that no version has taken: their
    build message was lost (a build queued at accept time would have taken it by then)."""
    decided_before = (now or timezone.now()) - VERSION_RECONCILE_GRACE
    return list(
        CardSetChange.objects.filter(status=ACCEPTED, version__isnull=True, decided_at__lte=decided_before)
        .order_by("card_set_id").values_list("card_set_id", flat=True).distinct()
    )
