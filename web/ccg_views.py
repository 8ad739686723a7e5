"""The CCG pages: a card set's deck builder, its versions and changes, and a player's own decks.

Like the play pages they are frames for the browser: the page's script reads and writes through the API
(``/api/v1/decks/{slug}/versions/…``, ``/api/v1/player-decks/…``, ``/api/v1/decks/{slug}/changes/…``) with the
session cookie and the CSRF token, so a deck is saved, checked, exported and imported by the API's own services
and judged by its rules, and each problem is shown as the API words it. The views only read, through the CCG
selectors, what the page needs to start: which set, which of the player's decks, whether they are registered.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from ccg import selectors, services
from decks import selectors as archive
from dvorak_core.deckdata import CARD_SET
from dvorak_core.errors import DomainError

API = "/api/v1/"


def _card_set_or_404(slug: str):
    try:
        return selectors.card_set_get(slug=slug)
    except DomainError as error:  # no such deck, or a deck that is not a card set
        raise Http404(error.message) from error


def _latest_version(slug: str):
    """The set's latest version, made as the API's first read of its versions makes it (version 1: the set as the
    archive holds it)."""
    return services.card_set_version_ensure(slug=slug)


def set_links(slug: str) -> dict[str, str]:
    return {
        "deck": reverse("web:deck", args=[slug]),
        "build": reverse("web:deck-build", args=[slug]),
        "versions": reverse("web:card-set-versions", args=[slug]),
        "play": f"{reverse('web:lobby')}?deck={slug}",
        "my_decks": reverse("web:player-decks"),
    }


def _builder(request, card_set, *, version, player_deck=None):
    config = {
        "api": API,
        "card_set": card_set.slug,
        "title": card_set.title,
        "version": version.number,
        "min_size": selectors.min_deck_size(version.content["special_rules"]),
        "player_deck": player_deck.pk if player_deck else None,
        "registered": selectors.is_registered_player(card_set=card_set, user=request.user),
        "links": set_links(card_set.slug),
    }
    return render(request, "web/ccg/builder.html", {
        "card_set": card_set, "player_deck": player_deck, "config": config, "links": config["links"],
    })


@login_required
@require_GET
def deck_builder(request, slug: str):
    """A new deck of the set, built on its latest version."""
    card_set = _card_set_or_404(slug)
    return _builder(request, card_set, version=_latest_version(slug))


@login_required
@require_GET
def player_deck(request, player_deck_id: int):
    """One of the player's decks, to tune: someone else's is not found, as in the API."""
    try:
        deck = selectors.player_deck_get(user=request.user, player_deck_id=player_deck_id)
    except DomainError as error:
        raise Http404(error.message) from error
    version = selectors.version_get(card_set=deck.card_set, number=deck.version)
    return _builder(request, deck.card_set, version=version, player_deck=deck)


@login_required
@require_GET
def player_deck_list(request):
    decks = [(deck, selectors.player_deck_view(deck))
             for deck in selectors.player_deck_list(user=request.user).order_by("card_set__title", "name", "id")]
    return render(request, "web/ccg/player_decks.html", {
        "decks": decks,
        "card_sets": archive.deck_list(kind=CARD_SET),
    })


@require_GET
def card_set_versions(request, slug: str):
    """The set's versions with their changelogs (read here), and its changes (read and answered by the page's
    script through the API)."""
    card_set = _card_set_or_404(slug)
    latest = _latest_version(slug)
    versions = [{"number": version.number, "created_at": version.created_at, "changelog": version.changelog,
                 "problems": selectors.card_set_problems(version.content)}
                for version in selectors.version_list(card_set=card_set).order_by("-number")]
    signed_in = request.user.is_authenticated
    config = {
        "api": API,
        "card_set": card_set.slug,
        "version": latest.number,
        "signed_in": signed_in,
        "username": request.user.get_username() if signed_in else None,
        "registered": selectors.is_registered_player(card_set=card_set, user=request.user),
        "players": len(selectors.registered_player_ids(card_set=card_set)),
    }
    return render(request, "web/ccg/versions.html", {
        "card_set": card_set, "versions": versions, "config": config, "links": set_links(card_set.slug),
    })
