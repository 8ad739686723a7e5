"""Reads of the community side: watchlists, designer claims, and what a user's page shows."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Prefetch, Q, QuerySet, Sum, Value
from django.db.models.functions import Coalesce

from community.models import DesignerClaim, Watch
from decks import selectors as archive
from decks.models import Deck, Revision
from dvorak_core.errors import NotFound
from dvorak_engine.state import OVER
from games.models import Game, Seat


def watchlist(*, user: Any) -> QuerySet[Watch]:
    """The user's watches, newest first, each with its deck and the deck's `card_count` (every copy counted)."""
    return (Watch.objects.filter(user=user).select_related("deck").defer("deck__search")
            .annotate(card_count=Coalesce(Sum("deck__cards__copies"), Value(0))).order_by("-id"))


def watch_get(*, user: Any, slug: str) -> Watch:
    """The user's watch of the deck: NotFound when there is no such deck, or the user does not watch it."""
    if not Deck.objects.filter(slug=slug).exists():
        raise NotFound(f"There is no deck {slug!r}.")
    watch = watchlist(user=user).filter(deck__slug=slug).first()
    if watch is None:
        raise NotFound(f"You do not watch {slug!r}.")
    return watch


def is_watching(*, user: Any, deck: Deck) -> bool:
    return bool(user is not None and user.is_authenticated and Watch.objects.filter(user=user, deck=deck).exists())


# --- designers and the accounts they are ------------------------------------------------------------------------


def designer_account(*, name: str) -> Any:
    """The account a curator confirmed as the designer `name`, or None."""
    claim = (DesignerClaim.objects.filter(name=name, status=DesignerClaim.CONFIRMED).select_related("user")
             .first())
    return claim.user if claim is not None and claim.user.is_active else None


def designer_claims_waiting(*, name: str) -> list[DesignerClaim]:
    return list(DesignerClaim.objects.filter(name=name, status=DesignerClaim.PENDING).select_related("user")
                .order_by("created_at", "id"))


def designer_names(*, user: Any) -> list[str]:
    """The designer names confirmed as the user's."""
    return list(DesignerClaim.objects.filter(user=user, status=DesignerClaim.CONFIRMED)
                .order_by("name").values_list("name", flat=True))


def claims_of(*, user: Any) -> list[DesignerClaim]:
    """The user's claims waiting for a curator."""
    return list(DesignerClaim.objects.filter(user=user, status=DesignerClaim.PENDING).order_by("name"))


# --- a user's page ----------------------------------------------------------------------------------------------


def user_get(*, username: str) -> Any:
    User = get_user_model()
    user = User.objects.filter(**{User.USERNAME_FIELD: username}, is_active=True).first()
    if user is None:
        raise NotFound(f"There is no user {username!r}.")
    return user


def user_decks(*, user: Any) -> QuerySet[Deck]:
    """The decks the user made (the author of their first revision) and the decks of the designer names confirmed
    as theirs, by title, each with its `card_count`."""
    made = Revision.objects.filter(author=user, number=1).values("deck_id")
    ids = set(Deck.objects.filter(pk__in=made).values_list("pk", flat=True))
    for name in designer_names(user=user):
        ids.update(archive.designer_decks(name=name).values_list("pk", flat=True))
    return archive.with_card_count(Deck.objects.filter(pk__in=ids)).order_by("title", "slug")


def user_edits(*, user: Any) -> QuerySet[Revision]:
    """The revisions the user saved, newest first, with their decks."""
    return (Revision.objects.filter(author=user).select_related("deck").defer("content", "deck__search")
            .order_by("-created_at", "-id"))


def user_finished_games(*, user: Any, viewer: Any) -> QuerySet[Game]:
    """The games the user played that are over (won, or abandoned), newest first, with their seats: those the
    viewer may see (`games.services.may_watch`: any game over but one closed to all but its players, which only
    its players see)."""
    games = Game.objects.filter(status__in=OVER, seats__user=user)
    if getattr(viewer, "pk", None) != user.pk:
        visible = ~Q(spectators="nobody")
        if viewer is not None and viewer.is_authenticated:
            visible |= Q(pk__in=Seat.objects.filter(user=viewer).values("game_id"))
        games = games.filter(visible)
    seats = Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("number"))
    return games.prefetch_related(seats).distinct().order_by("-updated_at")
