"""The game API: thin views that validate input, call a service, and return what the caller may see."""

from django.db.models import Prefetch
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response
from rest_framework.views import APIView

from games import services
from games.api import serializers as s
from games.models import Game, Seat

GAME_TAG = ["games"]


def int_param(value, name: str, *, minimum: int = 0) -> int | None:
    if value in (None, ""):
        return None
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise ValidationError({name: [f"{name} must be a whole number."]}) from None
    if number < minimum:
        raise ValidationError({name: [f"{name} must be at least {minimum}."]})
    return number


def if_match_version(header: str | None) -> int | None:
    """``If-Match: "12"`` (an entity tag naming the game's version) or a bare ``12``."""
    if header is None:
        return None
    value = header.strip()
    if value.startswith("W/"):
        value = value[2:]
    return int_param(value.strip('"'), "If-Match")


class GameListView(APIView):
    @extend_schema(
        tags=GAME_TAG,
        parameters=[
            OpenApiParameter("mine", OpenApiTypes.BOOL, description="Only games in which you hold a seat."),
            OpenApiParameter("status", OpenApiTypes.STR, enum=["open", "active", "voting", "finished"]),
        ],
        responses=s.GameSummarySerializer(many=True),
    )
    def get(self, request):
        games = Game.objects.prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        if request.query_params.get("mine") in {"1", "true", "yes"}:
            games = games.filter(seats__user=request.user)
        if request.query_params.get("status"):
            games = games.filter(status=request.query_params["status"])
        paginator = PageNumberPagination()
        page = paginator.paginate_queryset(games.distinct(), request, view=self)
        return paginator.get_paginated_response(s.GameSummarySerializer(page, many=True).data)

    @extend_schema(tags=GAME_TAG, request=s.GameCreateSerializer, responses={201: s.GameStateSerializer})
    def post(self, request):
        form = s.GameCreateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        game = services.game_create(user=request.user, **form.validated_data)
        return Response(game, status=status.HTTP_201_CREATED)


class GameDetailView(APIView):
    @extend_schema(
        tags=GAME_TAG,
        parameters=[OpenApiParameter("at", OpenApiTypes.INT, description="The state at this past version.")],
        responses=s.GameStateSerializer,
    )
    def get(self, request, game_id):
        at = int_param(request.query_params.get("at"), "at", minimum=1)
        return Response(services.game_state(user=request.user, game_id=game_id, at=at))


class GameJoinView(APIView):
    @extend_schema(tags=GAME_TAG, request=s.GameJoinSerializer, responses=s.GameStateSerializer)
    def post(self, request, game_id):
        form = s.GameJoinSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        return Response(services.game_join(user=request.user, game_id=game_id, **form.validated_data))


class GameStartView(APIView):
    @extend_schema(tags=GAME_TAG, request=None, responses=s.GameStateSerializer)
    def post(self, request, game_id):
        return Response(services.game_start(user=request.user, game_id=game_id))


class GameEventsView(APIView):
    @extend_schema(
        tags=GAME_TAG,
        parameters=[OpenApiParameter("after", OpenApiTypes.INT, description="Only events after this version.")],
        responses=s.EventsSerializer,
    )
    def get(self, request, game_id):
        after = int_param(request.query_params.get("after"), "after") or 0
        return Response(services.game_events(user=request.user, game_id=game_id, after=after))


class GameMovesView(APIView):
    @extend_schema(
        tags=GAME_TAG,
        responses=s.MovesSerializer,
        description="The legal moves: every command the caller may send now, as complete bodies, each accepted "
        "as listed (its choices made) at this version. Empty when nothing is the caller's to do, and for "
        "anyone not playing. See docs/api.md, \"Legal moves\".",
    )
    def get(self, request, game_id):
        return Response(s.MovesSerializer(services.game_moves(user=request.user, game_id=game_id)).data)


class GameCommandView(APIView):
    @extend_schema(
        tags=GAME_TAG,
        request=s.CommandSerializer,
        responses={201: s.EventsSerializer},
        parameters=[
            OpenApiParameter("Idempotency-Key", OpenApiTypes.STR, OpenApiParameter.HEADER,
                             description="The same key again returns the first answer and appends nothing."),
            OpenApiParameter("If-Match", OpenApiTypes.STR, OpenApiParameter.HEADER,
                             description='"<version>": refuse with 412 unless the game is at this version.'),
        ],
    )
    def post(self, request, game_id):
        if not isinstance(request.data, dict):
            raise ValidationError({"non_field_errors": ["A command is a JSON object with a \"type\"."]})
        key = request.headers.get("Idempotency-Key")
        if key is not None and not 1 <= len(key) <= 200:
            raise ValidationError({"Idempotency-Key": ["An Idempotency-Key has 1 to 200 characters."]})
        outcome = services.game_command(
            user=request.user,
            game_id=game_id,
            command=dict(request.data),
            idempotency_key=key,
            if_match=if_match_version(request.headers.get("If-Match")),
        )
        return Response(outcome.body, status=outcome.status, headers={"ETag": f'"{outcome.body["version"]}"'})


class GameMushView(APIView):
    @extend_schema(
        tags=GAME_TAG,
        request=s.MushLineSerializer,
        responses=s.MushAnswerSerializer,
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
        responses={201: s.PublishedSerializer},
        description="The Aftermath: a finished game's deck (accepted and amended cards, each with its creator) "
        "becomes a new revision of its archive deck (423 deck_locked if that is locked) or, with new_deck, a new "
        "deck. 409 game_not_finished while the game is on; 403 for anyone but its players.",
    )
    def post(self, request, game_id):
        form = s.PublishSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        deck = services.game_publish(user=request.user, game_id=game_id, **form.validated_data)
        revision = deck.revisions.order_by("-number").values_list("number", flat=True).first()
        return Response({"deck": deck.slug, "revision": revision}, status=status.HTTP_201_CREATED)
