"""Writes of the community side: watching decks, the notices a change to a watched deck sends, designer claims.
One function per use case, keyword-only, one transaction each."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from ccg.services import notification_send
from community.models import DesignerClaim, Watch
from decks import selectors as archive
from decks import signals
from decks.models import Deck
from decks.services import is_curator
from dvorak_core.errors import Conflict, Forbidden, NotFound

logger = logging.getLogger("dvorak.community")

# A notice's `data["kind"]` for a change to a watched deck, and for the answer to a designer claim.
WATCH_KIND = "watch"
CLAIM_KIND = "designer_claim"
# How much of a talk post a notice quotes.
EXCERPT = 300


def _signed_in(user: Any, doing: str) -> None:
    if user is None or not user.is_authenticated:
        raise Forbidden(f"Sign in to {doing}.")


def _deck(slug: str) -> Deck:
    deck = Deck.objects.filter(slug=slug).only("pk", "slug", "title").first()
    if deck is None:
        raise NotFound(f"There is no deck {slug!r}.")
    return deck


# --- watching ---------------------------------------------------------------------------------------------------


@transaction.atomic
def watch_add(*, user: Any, slug: str) -> tuple[Watch, bool]:
    """The user watches the deck (or card set) from now on: (the watch, whether it is new). Watching a deck
    already watched changes nothing."""
    _signed_in(user, "watch a deck")
    deck = _deck(slug)
    existing = Watch.objects.filter(user=user, deck=deck).first()
    if existing is not None:
        return existing, False
    try:
        with transaction.atomic():
            return Watch.objects.create(user=user, deck=deck), True
    except IntegrityError:  # the same user's other request made it meanwhile
        return Watch.objects.get(user=user, deck=deck), False


@transaction.atomic
def watch_remove(*, user: Any, slug: str) -> bool:
    """The user no longer watches the deck; whether they did."""
    _signed_in(user, "stop watching a deck")
    deck = _deck(slug)
    deleted, _ = Watch.objects.filter(user=user, deck=deck).delete()
    return bool(deleted)


@dataclass(frozen=True)
class Change:
    """A change to a deck as its watchers are told of it (plain values: the rows may change again before the
    notices are written)."""

    deck_id: int
    slug: str
    title: str
    kind: str
    summary: str
    revision: int
    post_id: int | None
    actor_id: int | None
    actor_name: str | None

    @property
    def link(self) -> str:
        """The site's page of the change: the revision's diff, the talk post, or the deck."""
        if self.kind == signals.TALK:
            return f"/decks/{self.slug}/talk/" + (f"#post-{self.post_id}" if self.post_id else "")
        return f"/decks/{self.slug}/history/{self.revision}/"

    def subject(self) -> str:
        who = self.actor_name or "the archive"  # the system: seed data, a card set's version build
        if self.kind == signals.LOCK:
            return f"{self.title} was locked by {who}"
        if self.kind == signals.UNLOCK:
            return f"{self.title} was unlocked by {who}"
        if self.kind == signals.TALK:
            return f"{self.actor_name} wrote on the talk page of {self.title}"  # only a signed-in user posts
        return f"{self.title}: revision {self.revision} by {who}"

    def body(self) -> str:
        if self.kind == signals.TALK:
            excerpt = self.summary if len(self.summary) < EXCERPT else self.summary[:EXCERPT - 1] + "…"
            what = f"{self.subject()}:\n\n{excerpt}\n"
        else:
            what = f"{self.subject()}.\n\nSummary: {self.summary or '(none)'}\n"
        return (f"{what}\nSee it at {self.link}\n\nYou are watching {self.title}. To stop, press Unwatch on "
                f"/decks/{self.slug}/ (or DELETE /api/v1/decks/{self.slug}/watch/).\n")

    def data(self) -> dict[str, Any]:
        return {"kind": WATCH_KIND, "deck": self.slug, "change": self.kind, "revision": self.revision,
                "post": self.post_id, "by": self.actor_name, "link": self.link}


def change_of(*, deck: Deck, actor: Any, kind: str, summary: str, revision: int, post: Any = None) -> Change:
    has_actor = actor is not None and getattr(actor, "is_authenticated", False)
    return Change(deck_id=deck.pk, slug=deck.slug, title=deck.title, kind=kind, summary=summary or "",
                  revision=revision, post_id=getattr(post, "pk", None),
                  actor_id=actor.pk if has_actor else None, actor_name=actor.get_username() if has_actor else None)


def watchers_notify(change: Change) -> int:
    """A notice of the change to each of the deck's watchers but the one who made it (in their list, by email to
    those with an address, and on their account feed); how many. Runs once the change is committed."""
    watchers = (get_user_model().objects.filter(watches__deck_id=change.deck_id, is_active=True)
                .exclude(pk=change.actor_id).order_by("pk"))
    subject, body, data = change.subject(), change.body(), change.data()
    with transaction.atomic():
        told = 0
        for user in watchers:
            notification_send(user=user, subject=subject, body=body, data=data)
            told += 1
    return told


# --- designer claims --------------------------------------------------------------------------------------------


@transaction.atomic
def designer_claim(*, user: Any, name: str) -> DesignerClaim:
    """The user says they are the designer the archive's decks name `name`: a claim waiting for a curator. A
    claim of theirs already waiting (or confirmed) is answered as it is; a name confirmed as someone else's is a
    conflict."""
    _signed_in(user, "claim a designer's name")
    if not name.strip() or not archive.designer_decks(name=name).exists():
        raise NotFound(f"The archive names no designer {name!r}.")
    confirmed = DesignerClaim.objects.select_for_update().filter(name=name, status=DesignerClaim.CONFIRMED).first()
    if confirmed is not None:
        if confirmed.user_id == user.pk:
            return confirmed
        raise Conflict(f"{name!r} is already confirmed as another account's name.")
    waiting = DesignerClaim.objects.filter(name=name, user=user, status=DesignerClaim.PENDING).first()
    if waiting is not None:
        return waiting
    try:
        with transaction.atomic():
            return DesignerClaim.objects.create(name=name, user=user)
    except IntegrityError:  # the same user's other request made it meanwhile
        return DesignerClaim.objects.get(name=name, user=user, status=DesignerClaim.PENDING)


def _decided(claim: DesignerClaim, status: str, actor: Any) -> None:
    claim.status, claim.decided_at, claim.decided_by = status, timezone.now(), actor
    claim.save(update_fields=["status", "decided_at", "decided_by"])


def _claim_for_update(claim_id: int) -> DesignerClaim:
    claim = DesignerClaim.objects.select_for_update().select_related("user").filter(pk=claim_id).first()
    if claim is None:
        raise NotFound(f"There is no designer claim {claim_id}.")
    return claim


def _tell_claimant(claim: DesignerClaim, confirmed: bool) -> None:
    if confirmed:
        subject = f"You are {claim.name} on the archive"
        body = (f"A curator confirmed your claim: the designer page of {claim.name} now links your page, and your "
                f"page lists {claim.name}'s decks.\n")
    else:
        subject = f"Your claim to be {claim.name} was not confirmed"
        body = f"A curator did not confirm your claim to be the designer {claim.name}.\n"
    notification_send(user=claim.user, subject=subject, body=body,
                      data={"kind": CLAIM_KIND, "designer": claim.name, "status": claim.status})


@transaction.atomic
def designer_claim_confirm(*, claim_id: int, actor: Any) -> DesignerClaim:
    """A curator confirms the claim: the account is that designer. The name's other claims still waiting are
    rejected; a name already confirmed as another account's is a conflict (reject that claim first)."""
    if not is_curator(actor):
        raise Forbidden("Only curators may confirm designer claims.")
    claim = _claim_for_update(claim_id)
    if claim.status == DesignerClaim.CONFIRMED:
        return claim
    other = (DesignerClaim.objects.select_for_update().filter(name=claim.name, status=DesignerClaim.CONFIRMED)
             .exclude(pk=claim.pk).select_related("user").first())
    if other is not None:
        raise Conflict(f"{claim.name!r} is already confirmed as {other.user.get_username()}'s name; reject that "
                       "claim first.")
    _decided(claim, DesignerClaim.CONFIRMED, actor)
    for rival in (DesignerClaim.objects.select_for_update().select_related("user")
                  .filter(name=claim.name, status=DesignerClaim.PENDING).exclude(pk=claim.pk)):
        _decided(rival, DesignerClaim.REJECTED, actor)
        _tell_claimant(rival, confirmed=False)
    _tell_claimant(claim, confirmed=True)
    return claim


@transaction.atomic
def designer_claim_reject(*, claim_id: int, actor: Any) -> DesignerClaim:
    """A curator rejects the claim, one waiting or one confirmed before (the account is then no longer linked)."""
    if not is_curator(actor):
        raise Forbidden("Only curators may reject designer claims.")
    claim = _claim_for_update(claim_id)
    if claim.status == DesignerClaim.REJECTED:
        return claim
    _decided(claim, DesignerClaim.REJECTED, actor)
    _tell_claimant(claim, confirmed=False)
    return claim

