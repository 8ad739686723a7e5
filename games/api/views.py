"""The game API: thin views that validate input, call a service, and return what the caller may see."""

import re

from django.db.models import Prefetch, Q
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from dvorak_kit.api.pagination import PageNumbers
from dvorak_kit.api.params import IF_MATCH, if_match_version, number_parameter, read_query, whole_number
from dvorak_kit.api.schema import refusals
from games import bots, invitations, rematch, services
from games.api import commands
from games.api import serializers as s
from games.models import Game, Seat

GAME_TAG = ["games"]
# 1 to 200 characters, none a control character (the key is stored as text, which takes no NUL); a header value
# neither starts nor ends with white space.
IDEMPOTENCY_KEY = r"^[^\s\x00-\x1f\x7f]([^\x00-\x1f\x7f]{0,198}[^\s\x00-\x1f\x7f])?$"


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
    def post(self, request):
        form = s.GameCreateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        game = services.game_create(user=request.user, **form.validated_data)
        return Response(game, status=status.HTTP_201_CREATED)


class GameDetailView(APIView):
    @extend_schema(
        tags=GAME_TAG,
        parameters=[number_parameter("at", "The state at this past version (from 1).", minimum=1)],
        responses={200: s.GameStateSerializer, **refusals(CLOSED_TO_YOU)},
    )
    def get(self, request, game_id):
        at = whole_number(request.query_params.get("at"), "at", minimum=1)
        return Response(services.game_state(user=request.user, game_id=game_id, at=at))


    @extend_schema(tags=GAME_TAG, request=None, responses={
        204: None,
        **refusals({403: "Only the game's creator (seat 0) cancels it (`forbidden`).",
                    409: "The game has started, or is over or cancelled (`game_not_open`); a game being played is "
                         "left by `concede`."}),
    }, description="Cancel an open game (its creator): the game's status becomes `cancelled` (event "
                   "`game.cancelled`), it leaves the lobby's open games, and CCG player decks brought to it are "
                   "free again. Answers 204.")
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
    def post(self, request, game_id):
        services.game_leave(user=request.user, game_id=game_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class GameEventsView(APIView):
    @extend_schema(
        tags=GAME_TAG,
        parameters=[number_parameter("after", "Only events after this version.")],
        responses={200: s.EventsSerializer, **refusals(CLOSED_TO_YOU)},
    )
    def get(self, request, game_id):
        after = whole_number(request.query_params.get("after"), "after") or 0
        return Response(services.game_events(user=request.user, game_id=game_id, after=after))


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
            OpenApiParameter("Idempotency-Key", OpenApiTypes.STR, OpenApiParameter.HEADER, pattern=IDEMPOTENCY_KEY,
                             description="1 to 200 characters, no control characters. The same key with the same "
                                         "command again returns the first answer and appends nothing; with another "
                                         "command, 422 `idempotency_key_reused`."),
            OpenApiParameter("If-Match", OpenApiTypes.STR, OpenApiParameter.HEADER, pattern=IF_MATCH,
                             description='The version the game must be at, as an entity tag: `"12"` (the ETag of '
                                         "the last answer). At any other version the command is refused with 412 "
                                         "`version_conflict`."),
        ],
        description="One command of the game's ruleset: `type` and its own fields. Each command is described in "
                    "the repository's `docs/api.md`, section \"Commands\"; the request schema below (one variant "
                    "per `type`) is the one the server checks bodies against before the game sees them. Answers "
                    "201 with the events the command appended, redacted for you, and an `ETag` naming the game's "
                    "new version.",
    )
    def post(self, request, game_id):
        commands.command_check(request.data)
        key = request.headers.get("Idempotency-Key")
        if key is not None and not re.fullmatch(IDEMPOTENCY_KEY, key):
            raise ValidationError({"Idempotency-Key": [
                "An Idempotency-Key has 1 to 200 characters, no control characters, and no space at either end."]})
        played = services.game_command(
            user=request.user,
            game_id=game_id,
            command=dict(request.data),
            idempotency_key=key,
            if_match=if_match_version(request.headers.get("If-Match")),
        )
        return Response(played.as_json(), status=201, headers={"ETag": f'"{played.version}"'})


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
        "the game is on; 403 for anyone but its players.",
    )
    def post(self, request, game_id):
        form = s.PublishSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        published = services.game_publish(user=request.user, game_id=game_id, **form.validated_data)
        decks = [{"deck": deck.slug, "revision": deck.revision} for deck in published.decks]
        answer = {**decks[0], "decks": decks} if published.per_side else decks[0]
        return Response(s.PublishedSerializer(answer).data, status=status.HTTP_201_CREATED)


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
    def post(self, request, game_id):
        game = rematch.game_rematch(user=request.user, game_id=game_id)
        return Response(game, status=status.HTTP_201_CREATED)


class GameBotsView(APIView):
    @extend_schema(tags=GAME_TAG, request=s.BotSerializer, responses={
        201: s.BotSeatSerializer,
        **refusals({403: "Only the game's creator seats computer players (`forbidden`).",
                    409: "The game has started, or is over or cancelled (`game_not_open`), or it is full "
                         "(`limit_reached`)."}),
    }, description="The game's creator seats a computer player at its open table, of `level` `random` or "
                   "`greedy`: it takes the next seat (event `player.joined` with its `bot` level; a seat of "
                   "`options.invite_only` games too) under a name of its own, `Computer 1` to `Computer 20`, and "
                   "once the game is being played moves by its seat's listed moves, from what its seat may see. "
                   "Answers 201 with its seat.")
    def post(self, request, game_id):
        form = s.BotSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        seated = bots.game_add_bot(user=request.user, game_id=game_id, level=form.validated_data["level"])
        return Response(s.BotSeatSerializer(seated).data, status=status.HTTP_201_CREATED)
