"""The site's pages for following the archive and for people: a deck's Watch button, your watchlist, your notices,
a user's page (their decks, edits and finished games) and a designer's "This is me" claim.

Thin, as the other pages are: read through selectors, write through services (`community`, and the CCG side's
notices)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from ccg import selectors as ccg_selectors
from ccg import services as ccg_services
from community import selectors, services
from dvorak_core.errors import DomainError, NotFound
from web.archive_views import _page

NOTICES_PER_PAGE = 50
EDITS_PER_PAGE = 50
GAMES_ON_A_PAGE = 50


def _back(request: HttpRequest, default: str) -> str:
    target = request.POST.get("next") or ""
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                                   require_https=request.is_secure()):
        return target
    return default


def _sign_in(request: HttpRequest, then: str) -> HttpResponse:
    return redirect_to_login(then, reverse("web:sign-in"))


# --- watching ---------------------------------------------------------------------------------------------------


@require_POST
def deck_watch(request: HttpRequest, slug: str) -> HttpResponse:
    """The deck page's Watch / Unwatch button: `watch=1` watches, `watch=0` stops."""
    deck_page = reverse("web:deck", args=[slug])
    if not request.user.is_authenticated:
        return _sign_in(request, deck_page)
    try:
        if request.POST.get("watch") == "0":
            services.watch_remove(user=request.user, slug=slug)
            messages.success(request, "You no longer watch this deck.")
        else:
            services.watch_add(user=request.user, slug=slug)
            messages.success(request, "You are watching this deck: each change someone else makes to it is a "
                                      "notice to you.")
    except NotFound as error:
        raise Http404(error.message) from error
    return redirect(_back(request, deck_page))


@require_GET
def watchlist(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return _sign_in(request, request.get_full_path())
    page, query = _page(request, selectors.watchlist(user=request.user), NOTICES_PER_PAGE)
    return render(request, "web/community/watchlist.html", {"page": page, "query": query})


# --- notices ----------------------------------------------------------------------------------------------------


@require_GET
def notifications(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return _sign_in(request, request.get_full_path())
    page, query = _page(request, ccg_selectors.notification_list(user=request.user), NOTICES_PER_PAGE)
    return render(request, "web/community/notifications.html", {"page": page, "query": query})


@require_POST
def notifications_read(request: HttpRequest) -> HttpResponse:
    """Marks one notice read (`id`), or every one of yours."""
    if not request.user.is_authenticated:
        return _sign_in(request, reverse("web:notifications"))
    notice = request.POST.get("id", "")
    ids = [int(notice)] if notice.isascii() and notice.isdigit() else None
    ccg_services.notification_mark_read(user=request.user, ids=ids)
    return redirect(_back(request, reverse("web:notifications")))


# --- people -----------------------------------------------------------------------------------------------------


@require_GET
def user_page(request: HttpRequest, name: str) -> HttpResponse:
    try:
        person = selectors.user_get(username=name)
    except NotFound as error:
        raise Http404(error.message) from error
    own = request.user.is_authenticated and request.user.pk == person.pk
    edits, query = _page(request, selectors.user_edits(user=person), EDITS_PER_PAGE)
    return render(request, "web/community/user.html", {
        "person": person,
        "own": own,
        "designer_names": selectors.designer_names(user=person),
        "claims": selectors.claims_of(user=person) if own else [],
        "decks": list(selectors.user_decks(user=person)),
        "edits": edits,
        "query": query,
        "games": list(selectors.user_finished_games(user=person, viewer=request.user)[:GAMES_ON_A_PAGE]),
    })


@require_http_methods(["POST"])
def designer_claim(request: HttpRequest, name: str) -> HttpResponse:
    """The designer page's "This is me": a claim a curator confirms in the admin."""
    designer_page = reverse("web:designer", args=[name])
    if not request.user.is_authenticated:
        return _sign_in(request, designer_page)
    try:
        claim = services.designer_claim(user=request.user, name=name)
    except NotFound as error:
        raise Http404(error.message) from error
    except DomainError as error:
        messages.error(request, error.message)
    else:
        if claim.status == claim.CONFIRMED:
            messages.info(request, f"You are already confirmed as {name}.")
        else:
            messages.success(request, f"Your claim to be {name} waits for a curator to confirm it.")
    return redirect(designer_page)
