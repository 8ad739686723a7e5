"""The play client's pages: the lobby and the table.

The pages are a frame for the browser: a signed-in player's page reads and acts through the API itself
(``/api/v1/games/…`` with the session cookie and the CSRF token) and follows the game on its websocket, so the
server stays the only judge of every move and the page only ever holds what the API shows that player.

Someone not signed in may still watch a game whose ``options.spectators`` lets anyone watch: the two read-only
feeds below give them the spectator's view (the same service and the same redaction as the API's), which the
page polls, since the websocket and the API take signed-in users only. To act, they are sent to sign in.
"""

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from dvorak_core.errors import DomainError, Forbidden
from dvorak_engine.rulesets import board_titles, ruleset_names
from games import invitations, services
from games.models import Game

LOBBY_PUBLIC_GAMES = 50
# The lobby's ruleset picker: Dvorak first (every archived deck's default), then the others, from the registry.
LOBBY_RULESETS = sorted(ruleset_names(), key=lambda name: (name != "dvorak", name))


@require_GET
def lobby(request):
    public = []
    if not request.user.is_authenticated:
        # The API lists games to signed-in users only; a visitor sees the games anyone may watch.
        public = Game.objects.filter(spectators="anyone").prefetch_related("seats__user")[:LOBBY_PUBLIC_GAMES]
    return render(request, "web/play/lobby.html", {"public_games": public, "rulesets": LOBBY_RULESETS})


def may_watch(game: Game, user) -> bool:
    """The game's own rule (`options.spectators`) for signed-in users; a visitor watches public games only, those
    whose `spectators` is `anyone` (a game of its `players` opens its replay to signed-in users, once over)."""
    if not user.is_authenticated:
        return game.spectators == "anyone"
    return services.may_watch(game, user)


@require_GET
def table(request, game_id):
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise Http404("No such game.")
    if not may_watch(game, request.user):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path(), login_url=reverse("web:sign-in"))
        # An invitation's link leads here: the invited player of an open table closed to watchers takes a seat.
        invited = game.status == "open" and game.id in invitations.games_invited_to(request.user)
        return render(request, "web/play/closed.html", {"game": game, "invited": invited},
                      status=200 if invited else 403)
    config = {
        "game": str(game.id),
        "api": "/api/v1/",
        "signed_in": request.user.is_authenticated,
        "username": request.user.get_username() if request.user.is_authenticated else None,
        "watch": {
            "state": reverse("web:watch-state", args=[game.id]),
            "events": reverse("web:watch-events", args=[game.id]),
        },
        "sign_in": f"{reverse('web:sign-in')}?next={request.path}",
        "board_titles": board_titles(),
        "max_players": game.max_players,
    }
    return render(request, "web/play/table.html", {"game": game, "config": config})


def _whole_number(value: str | None, minimum: int) -> int | None:
    if value in (None, ""):
        return None
    if not value.isdigit() or int(value) < minimum:
        raise DomainError(f"Expected a whole number from {minimum}.", code="invalid")
    return int(value)


def _feed(request, game_id, read):
    """A read-only answer for a visitor, as the API would give it a spectator (errors in the API's shape)."""
    if request.user.is_authenticated:
        return JsonResponse({"error": {"code": "invalid", "message": "Signed in: read the game through the API."}},
                            status=400)
    try:
        game = services.get_game(game_id)
        if not may_watch(game, request.user):
            raise Forbidden("Only signed-in users may watch this game (its `options.spectators`): sign in.")
        return JsonResponse(read())
    except DomainError as error:
        body = {"code": error.code, "message": error.message, **({"details": error.details} if error.details else {})}
        return JsonResponse({"error": body}, status=error.status)


@require_GET
def watch_state(request, game_id):
    return _feed(request, game_id, lambda: services.game_state(
        user=request.user, game_id=game_id, at=_whole_number(request.GET.get("at"), 1)))


@require_GET
def watch_events(request, game_id):
    return _feed(request, game_id, lambda: services.game_events(
        user=request.user, game_id=game_id, after=_whole_number(request.GET.get("after"), 0) or 0))
