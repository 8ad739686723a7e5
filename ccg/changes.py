"""Changes to a CCG card set, as its registered players propose and answer them: the card set's side of
``proposals`` (which keeps the changes and their votes, and decides them by the no-objection rule).

CCG Dvorak lets the Card Set change only "if no player objects". Each registered player of the set answers a
proposal (accept or object); one objection rejects it, and it passes once every registered player has accepted
or, at its deadline, if nobody objected. Accepted changes are grouped into the set's next version by the Celery
task ``ccg.tasks.build_card_set_version``.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from celery import current_app
from django.db import transaction
from django.utils import timezone
from kombu.exceptions import OperationalError

from ccg import selectors as ccg
from ccg.services import card_set_version_ensure
from decks.services import CARD_ROW_FIELDS, check_card
from dvorak_core.deckdata import CardData
from dvorak_core.effects import InvalidEffect, checked_effect
from dvorak_core.errors import Conflict, DomainError, Forbidden, NotFound
from dvorak_core.vote_rules import ACCEPTED, OPEN
from dvorak_kit.outage import Outage
from proposals import services as proposals
from proposals.models import ADD, CHANGE, REMOVE, CardSetChange

KINDS = (ADD, CHANGE, REMOVE)
# How long registered players have to object before silence counts as consent.
ANSWER_PERIOD = timedelta(days=7)
# Changes accepted within this long of each other go into one version ("grouped together, where possible").
VERSION_GROUPING_SECONDS = 60
BUILD_TASK = "decks.ccg.build_card_set_version"  # ccg.tasks.build_card_set_version
BROKER = Outage("Celery's broker (card set version builds)")


def _content_for(kind: str, content: dict[str, Any] | None) -> dict[str, Any]:
    content = dict(content or {})
    unknown = sorted(set(content) - set(CARD_ROW_FIELDS))
    if unknown:
        raise DomainError(f"A card has no field {', '.join(unknown)}.", details={"content": unknown})
    if kind == REMOVE:
        return {}
    if kind == CHANGE and not content:
        raise DomainError("A change names at least one field of the card.", details={"content": ["Required."]})
    try:
        card = CardData.from_dict({"title": "placeholder", **content} if kind == CHANGE else content)
    except (KeyError, ValueError, TypeError) as error:
        raise DomainError(f"That is not a card: {error}", details={"content": [str(error)]}) from error
    if kind == ADD and not card.title.strip():
        raise DomainError("A new card needs a title.", details={"content": {"title": ["Required."]}})
    # Checked now as the archive checks a card: the version build writes it to the card's row later, in a task.
    try:
        check_card(card)
    except DomainError as error:
        raise DomainError(error.message, details={"content": error.details}) from error
    # A confirmed effect (the effect language's JSON list, or null) is checked and kept in its full JSON.
    try:
        effect = checked_effect(content.get("effect"), field="content.effect")
    except InvalidEffect as error:
        raise DomainError(error.message, details={"content": error.details}) from error
    full = {**card.to_dict(), "effect": effect}
    if kind == ADD and effect is None:
        del full["effect"]
    return full if kind == ADD else {name: full[name] for name in content}


@transaction.atomic
def card_set_change_propose(
    *, slug: str, author: Any, kind: str, card_id: int | None = None, content: dict[str, Any] | None = None
) -> CardSetChange:
    """A registered player proposes to add, change or remove a card; the proposer does not object to it."""
    version = card_set_version_ensure(slug=slug)
    card_set = version.card_set
    if not ccg.is_registered_player(card_set=card_set, user=author):
        raise Forbidden("Only registered players of a card set may propose changes to it.")
    if kind not in KINDS:
        raise DomainError(f"A change is one of {', '.join(KINDS)}.", details={"kind": [f"{kind!r} is not one."]})
    if kind != ADD and (card_id is None or ccg.version_content_card(version.content, card_id) is None):
        raise NotFound(f"Version {version.number} of {slug!r} has no card {card_id}.")
    change = proposals.change_open(card_set=card_set, author=author, kind=kind,
                                   card_id=None if kind == ADD else card_id, content=_content_for(kind, content),
                                   deadline=timezone.now() + ANSWER_PERIOD)
    _decided(change, final=False)
    return change


@transaction.atomic
def card_set_change_answer(*, slug: str, change_id: int, user: Any, approve: bool) -> CardSetChange:
    """A registered player accepts (`approve=True`) or objects to an open change; answering again replaces
    the earlier answer while the change is open."""
    change = proposals.change_for_update(card_set_slug=slug, change_id=change_id)
    if change is None:
        raise NotFound(f"The card set {slug!r} has no proposed change {change_id}.")
    if not ccg.is_registered_player(card_set=change.card_set, user=user):
        raise Forbidden("Only registered players of a card set may answer its proposed changes.")
    if change.status != OPEN:
        raise Conflict(f"Change {change_id} is already {change.status}.", code="change_decided",
                       details={"status": change.status})
    proposals.change_answer(change, user=user, approve=approve)
    _decided(change, final=False)
    return change


@transaction.atomic
def card_set_changes_close_due(*, now: Any = None) -> list[int]:
    """Decide every open change whose deadline has passed: silence is no objection. Returns their ids."""
    closed = []
    for change in proposals.changes_due(now=now or timezone.now()):
        _decided(change, final=True)
        closed.append(change.pk)
    return closed


def _decided(change: CardSetChange, *, final: bool) -> None:
    """The change decided by the set's registered players' votes; an accepted one queues the set's next version."""
    decided = proposals.change_decide(change, voters=ccg.registered_player_ids(card_set=change.card_set),
                                      final=final)
    if decided == ACCEPTED:
        card_set_id = change.card_set_id
        transaction.on_commit(lambda: _request_version(card_set_id), robust=True)


def _request_version(card_set_id: int) -> None:
    """Queue the set's build. The change is already accepted and committed: with the broker away, the answer
    stays a success and the build waits for Celery beat's ``queue_missing_card_set_versions``, which finds every
    accepted change that no version has taken."""
    if not BROKER.worth_trying():
        return
    try:  # the task by its name (the task module imports this one for its periodic close-due task)
        current_app.tasks[BUILD_TASK].apply_async(args=[card_set_id], countdown=VERSION_GROUPING_SECONDS)
    except OperationalError as error:
        BROKER.failed(error)
    else:
        BROKER.answered()
