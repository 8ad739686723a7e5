"""The game API: thin views that validate input, call a service, and return what the caller may see."""

from django.db.models import Prefetch, Q
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param
from rest_framework.views import APIView

from dvorak_kit.api.idempotency import idempotency_key, idempotency_parameter, idempotent
from dvorak_kit.api.pagination import PageNumbers
from dvorak_kit.api.params import (
    IF_MATCH,
    MAX_KEY,
    if_match_version,
    number_parameter,
    read_query,
    takes_no_body,
    whole_number,
)
from dvorak_kit.api.responses import NOT_MODIFIED, conditional, conditional_parameters, created
from dvorak_kit.api.schema import refusals
from games import bots, invitations, rematch, services
from games.api import commands
from games.api import serializers as s
from games.models import Game, Seat

GAME_TAG = ["games"]
# The events a page of `GET /games/{id}/events/` holds when `limit` is left out, and the most it may ask for.
EVENTS_LIMIT, EVENTS_MOST = 500, 1000


CLOSED_TO_YOU = {403: "The game's `options.spectators` does not let you watch it (`forbidden`)."}


class GameListView(APIView):
    pagination_class = PageNumbers

    @extend_schema(tags=GAME_TAG, parameters=[s.GameListQuerySerializer], responses=s.GameSummarySerializer(many=True))
    def get(self, request):
        query = read_query(s.GameListQuerySerializer, request)
        games = Game.objects.prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        # A game not open to anyone's watching (`options.spectators`) is listed to its own players only.
        invited = invitations.games_invited_to(request.user) if query.get("invited") else None
        if invited is not None:  # an invitation lets its player find the game, whoever else may watch it
            games = games.filter(id__in=invited)
        else:
            games = games.filter(Q(spectators="anyone") | Q(seats__user=request.user))
        if query.get("mine"):
            games = games.filter(seats__user=request.user)
        if query.get("status"):
            games = games.filter(status=query["status"])
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(games.distinct(), request, view=self)
        return paginator.get_paginated_response(s.GameSummarySerializer(page, many=True).data)

    @extend_schema(tags=GAME_TAG, request=s.GameCreateSerializer, responses={
        201: s.GameStateSerializer,
        **refusals({400: "Not valid (`invalid`): a malformed body or option, or an `invite` naming a username no "
                         "player has (`details.invite` lists each).",
                    404: "No deck has that slug, or no player deck of yours has that id (`not_found`).",
                    409: "The deck cannot be played so (e.g. the ruleset needs card data it lacks, or the player "
                         "deck is outdated in a formal CCG game)."}),
    })
    @idempotent
    def post(self, request):
        form = s.GameCreateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        game = services.game_create(user=request.user, **form.validated_data)
        return game_created(request, game)


def game_created(request, game: dict) -> Response:
    """A new game as its creator sees it: 201, with its address and its version as the `ETag`."""
    return created(request, game, reverse("game-detail", args=[game["id"]]), headers={"ETag": f'"{game["version"]}"'})


def command_headers(request, played: services.Played) -> dict[str, str]:
    """The headers of a command's 201, on either route (this view, games/api/fast.py): `ETag`, the game's version
    after it; `Location`, the events it appended (the game's events after the version before it)."""
    before = played.events[0]["version"] - 1 if played.events else played.version
    events = request.path.removesuffix("commands/") + f"events/?after={before}"
    return {"ETag": f'"{played.version}"', "Location": request.build_absolute_uri(events)}


class GameDetailView(APIView):
    @extend_schema(
        tags=GAME_TAG,
        parameters=[number_parameter("at", "The state at this past version (from 1).", minimum=1),
                    *conditional_parameters('the version the state is at, `"12"`')],
        responses={200: s.GameStateSerializer, **NOT_MODIFIED, **refusals(CLOSED_TO_YOU)},
    )
    def get(self, request, game_id):
        at = whole_number(request.query_params.get("at"), "at", minimum=1)
        state = services.game_state(user=request.user, game_id=game_id, at=at)
        return conditional(request, Response(state), f'"{state["version"]}"')


    @extend_schema(tags=GAME_TAG, request=None, responses={
        204: None,
        **refusals({403: "Only the game's creator (seat 0) cancels it (`forbidden`).",
                    409: "The game has started, or is over or cancelled (`game_not_open`); a game being played is "
                         "left by `concede`."}),
    }, description="Cancel an open game (its creator): the game's status becomes `cancelled` (event "
                   "`game.cancelled`), it leaves the lobby's open games, and CCG player decks brought to it are "
                   "free again. Answers 204.")
    @takes_no_body
    def delete(self, request, game_id):
        services.game_cancel(user=request.user, game_id=game_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class GameJoinView(APIView):
    @extend_schema(tags=GAME_TAG, request=s.GameJoinSerializer, responses={
        200: s.GameStateSerializer,
        **refusals({404: "No player deck of yours has that id: someone else's answers the same; no archive deck "
                         "has the slug of `deck` (`not_found`).",
                    409: "The game has started or is full, you already sit in it (`game_not_open`, "
                         "`already_seated`, `limit_reached`), the player deck cannot be played, or the deck is "
                         "too large for a game (`deck_too_large`)."}),
    })
    def post(self, request, game_id):
        form = s.GameJoinSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        return Response(services.game_join(user=request.user, game_id=game_id, **form.validated_data))


class GameStartView(APIView):
    @extend_schema(tags=GAME_TAG, request=None, responses={
        200: s.GameStateSerializer,
        **refusals({403: "Only the player in seat 0 starts the game (`forbidden`).",
                    409: "The game has started, or is not ready (`game_not_open`, `not_enough_players`, "
                         "`not_enough_cards`)."}),
    })
    @takes_no_body
    def post(self, request, game_id):
        return Response(services.game_start(user=request.user, game_id=game_id))


class GameLeaveView(APIView):
    @extend_schema(tags=GAME_TAG, request=None, responses={
        204: None,
        **refusals({403: "You have no seat in this game (`forbidden`).",
                    409: "The game has started, or is over or cancelled (`game_not_open`): a game being played is "
                         "left by `concede`."}),
    }, description="Give up your seat at an open table (event `player.left`): later seats move down one, and a "
                   "CCG player deck you brought is free again. The creator's leaving cancels the game (event "
                   "`game.cancelled`, as `DELETE /games/{id}/`). Answers 204.")
    @takes_no_body
    def post(self, request, game_id):
        services.game_leave(user=request.user, game_id=game_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class GameEventsView(APIView):
    @extend_schema(
        tags=GAME_TAG,
        parameters=[
            number_parameter("after", "Only events after this version; the `Link` header's next URL carries it."),
            OpenApiParameter("limit", {"type": "integer", "minimum": 1, "maximum": EVENTS_MOST,
                                       "default": EVENTS_LIMIT},
                             description=f"At most this many events ({EVENTS_LIMIT} when left out)."),
            OpenApiParameter("Link", OpenApiTypes.STR, OpenApiParameter.HEADER, response=[200],
                             description='Present while more events follow: `<URL>; rel="next"`, the URL of the '
                                         "next ones (with `after` and `limit`)."),
        ],
        responses={200: s.EventsSerializer, **refusals(CLOSED_TO_YOU)},
        description="The game's events after a version, oldest first, as you may see them: a page of `limit` at "
                    "most, with a `Link` to the next page while more follow; `version` is the game's current "
                    "version.",
    )
    def get(self, request, game_id):
        after = whole_number(request.query_params.get("after"), "after") or 0
        limit = whole_number(request.query_params.get("limit"), "limit", minimum=1, maximum=MAX_KEY)
        if limit is not None and limit > EVENTS_MOST:
            raise ValidationError({"limit": [f"limit is at most {EVENTS_MOST}."]})
        limit = limit or EVENTS_LIMIT
        page = services.game_events(user=request.user, game_id=game_id, after=after, limit=limit)
        headers = {}
        if page["events"] and page["events"][-1]["version"] < page["version"]:
            url = replace_query_param(request.build_absolute_uri(), "after", page["events"][-1]["version"])
            headers["Link"] = f'<{replace_query_param(url, "limit", limit)}>; rel="next"'
        return Response(page, headers=headers)


class GameMovesView(APIView):
    @extend_schema(
        tags=GAME_TAG,
        responses={200: s.MovesSerializer, **refusals(CLOSED_TO_YOU)},
        description="The legal moves: every command the caller may send now, as complete bodies, each accepted "
        "as listed (its choices made) at this version. Empty when nothing is the caller's to do, and for "
        "anyone not playing. See docs/api.md, \"Legal moves\".",
    )
    def get(self, request, game_id):
        return Response(s.MovesSerializer(services.game_moves(user=request.user, game_id=game_id)).data)


class GameCommandView(APIView):
    @extend_schema(
        tags=GAME_TAG,
        request=commands.COMMAND_SCHEMA,
        examples=commands.command_examples(),
        responses={
            201: s.EventsSerializer,
            **refusals({
                400: "The body is not a command this schema admits (`invalid`, `unknown_command`), or the game's "
                     "ruleset finds a field wrong (`invalid`, e.g. a `cause` you cannot see).",
                403: "You are not playing in this game, or may not do that (`forbidden`).",
                404: "No such game, or no such proposal or card you can see (`not_found`).",
                409: "Not allowed in the game's present state (`not_your_turn`, `wrong_stage`, `limit_reached`, "
                     "`card_not_in_hand`, `vote_in_progress`, `game_not_active`, `denied`, `not_citable`, "
                     "`effect_not_allowed`, `win_condition_not_met`, …).",
                412: "`If-Match` names another version than the game's (`version_conflict`).",
                422: "The `Idempotency-Key` came first with another command (`idempotency_key_reused`).",
            }),
        },
        parameters=[
            idempotency_parameter("command"),
            OpenApiParameter("If-Match", OpenApiTypes.STR, OpenApiParameter.HEADER, pattern=IF_MATCH,
                             description='The version the game must be at, as an entity tag: `"12"` (the ETag of '
                                         "the last answer). At any other version the command is refused with 412 "
                                         "`version_conflict`."),
        ],
        description="One command of the game's ruleset: `type` and its own fields. Each command is described in "
                    "the repository's `docs/api.md`, section \"Commands\"; the request schema below (one variant "
                    "per `type`) is the one the server checks bodies against before the game sees them. Answers "
                    "201 with the events the command appended, redacted for you, an `ETag` naming the game's "
                    "new version and a `Location` that lists those events (`events/?after=` the version before).",
    )
    def post(self, request, game_id):
        commands.command_check(request.data)
        key = idempotency_key(request)
        played = services.game_command(
            user=request.user,
            game_id=game_id,
            command=dict(request.data),
            idempotency_key=key,
            if_match=if_match_version(request.headers.get("If-Match")),
        )
        return Response(played.as_json(), status=201, headers=command_headers(request, played))


class GameMushView(APIView):
    @extend_schema(
        tags=GAME_TAG,
        request=s.MushLineSerializer,
        responses={
            200: s.MushAnswerSerializer,
            **refusals({400: "Not a command of the MUSH engine (`unknown_command`), or a malformed one (`invalid`).",
                        403: "You are not playing in this game, or (a query) its `options.spectators` does not "
                             "let you watch it (`forbidden`).",
                        409: "Not allowed in the game's present state, as for JSON commands."}),
        },
        description="The old Dvorak Engine's text commands (drawcard, playcard N, viewhand, newcard Name/A|T/text, "
        "approve N, …; `help` lists them), answered in lines of text. See docs/mush.md.",
    )
    def post(self, request, game_id):
        form = s.MushLineSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        return Response(services.game_mush(user=request.user, game_id=game_id, line=form.validated_data["line"]))


class GamePublishView(APIView):
    @extend_schema(
        tags=GAME_TAG,
        request=s.PublishSerializer,
        responses={
            201: s.PublishedSerializer,
            **refusals({403: "Only the game's players publish its deck (`forbidden`).",
                        409: "The game is not over (`game_not_finished`), or a deck has that slug (`deck_exists`).",
                        423: "The archive deck is locked (`deck_locked`)."}),
        },
        description="The Aftermath: a finished game's deck (accepted and amended cards, each with its creator) "
        "becomes a new revision of its archive deck (423 deck_locked if that is locked) or, with new_deck, a new "
        "deck; in a Multi-Deck game where each side played its own deck, each other side's deck the game changed "
        "becomes a new revision of its own archive deck too (`decks` lists them all). 409 game_not_finished while "
        "the game is on; 403 for anyone but its players. `Location`: the (first) deck's new revision.",
    )
    @idempotent
    def post(self, request, game_id):
        form = s.PublishSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        published = services.game_publish(user=request.user, game_id=game_id, **form.validated_data)
        decks = [{"deck": deck.slug, "revision": deck.revision} for deck in published.decks]
        answer = {**decks[0], "decks": decks} if published.per_side else decks[0]
        first = published.decks[0]
        return created(request, s.PublishedSerializer(answer).data,
                       reverse("deck-revision", args=[first.slug, first.revision]))


class GameRematchView(APIView):
    @extend_schema(tags=GAME_TAG, request=None, responses={
        201: s.GameStateSerializer,
        **refusals({403: "You did not play this game (`forbidden`).",
                    404: "No such game, or its deck is no longer in the archive; in a CCG game, the player deck "
                         "you played is gone (`not_found`).",
                    409: "The game is not over (`game_not_finished`); in a CCG game, the player deck you played "
                         "can no longer be brought (`deck_invalid`, `deck_outdated`)."}),
    }, description="A rematch of a game that is over (finished or abandoned): a new open game with the same deck, "
                   "ruleset, variant, creative rules, `max_players` and options, you in seat 0 (in a CCG game with "
                   "the player deck you played). The game's other players are invited (`invited`, and a notice "
                   "each whose `data.rematch_of` names this game), and its computer players sit down again at "
                   "their levels. Answers 201 with the new game as you see it, as `POST /games/`.")
    @idempotent
    @takes_no_body
    def post(self, request, game_id):
        game = rematch.game_rematch(user=request.user, game_id=game_id)
        return game_created(request, game)


class GameBotsView(APIView):
    @extend_schema(tags=GAME_TAG, request=s.BotSerializer, responses={
        201: s.BotSeatSerializer,
        **refusals({403: "Only the game's creator seats computer players (`forbidden`).",
                    404: "No such game, or no player deck of yours has the id of `player_deck` (`not_found`).",
                    409: "The game has started, or is over or cancelled (`game_not_open`), or it is full "
                         "(`limit_reached`), or the player deck cannot be played (`deck_invalid`, "
                         "`deck_outdated`)."}),
    }, description="The game's creator seats a computer player at its open table, of `level` `random` or "
                   "`greedy`: it takes the next seat (event `player.joined` with its `bot` level; a seat of "
                   "`options.invite_only` games too) under a name of its own, `Computer 1` to `Computer 20`, and "
                   "once the game is being played moves by its seat's listed moves, from what its seat may see. "
                   "At a CCG table it plays a copy of one of your player decks (`player_deck`, by default the one "
                   "you brought). Answers 201 with its seat; `Location`: the game.")
    @idempotent
    def post(self, request, game_id):
        form = s.BotSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        seated = bots.game_add_bot(user=request.user, game_id=game_id, **form.validated_data)
        return created(request, s.BotSeatSerializer(seated).data, reverse("game-detail", args=[game_id]))
