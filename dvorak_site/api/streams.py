"""The two streams' routes, as Django answers them: who may open a stream, and what it says.

``GET /api/v1/games/{game_id}/stream/`` (a game's events, as ``GET /games/{id}/events/`` shows them to the reader)
and ``GET /api/v1/account/stream/`` (the signed-in user's feed) are answered live by the ASGI side
(dvorak_site/streams.py), which first passes the request through Django to these views: authentication (a token,
a ticket in the URL for a browser's ``EventSource``, the session cookie), the throttles, the game's spectator rules
and the query's checks are the API's own, and so is every refusal (its JSON error shape, its headers). A view that
lets the stream open answers a ``StreamingHttpResponse`` carrying its ``Plan``, whose status and headers the ASGI
side sends before it follows the game or the user's group.

Where no ASGI stream route is in front (a WSGI server, the test client, Schemathesis), the same views answer what a
stream would send on opening, then end: the events after ``after``, or the feed's lines of what is true now.

Framing: NDJSON (``application/x-ndjson``, the default), one JSON object a line, an empty line to keep the
connection alive; or Server-Sent Events (``text/event-stream``, when ``Accept`` prefers it), each object an event's
``data:`` (with ``id:`` its version, on a game's stream) and a ``: keep-alive`` comment.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import HttpResponse, StreamingHttpResponse
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.authentication import BaseAuthentication
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.renderers import JSONRenderer
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from accounts.tickets import spend_ticket
from dvorak_kit.api.params import MAX_KEY, number_parameter, whole_number
from dvorak_kit.api.schema import refusals
from games import feed, services
from games.api.serializers import EventSerializer

NDJSON = "application/x-ndjson"
EVENT_STREAM = "text/event-stream"
# The request's META key by which the ASGI side asks a view to let its stream open rather than answer it whole
# (no HTTP header becomes a META key with a dot in it).
LIVE = "dvorak.stream"
RENDERER = JSONRenderer()


# --- framing ---------------------------------------------------------------------------------------------------


def framing_of(accept: str) -> str:
    """NDJSON or Server-Sent Events, whichever ``Accept`` prefers (its q-values read); NDJSON when it names
    neither."""
    chosen, best = NDJSON, 0.0
    for part in accept.split(","):
        media, *parameters = (piece.strip() for piece in part.split(";"))
        if media.lower() not in (NDJSON, EVENT_STREAM):
            continue
        quality = 1.0
        for parameter in parameters:
            name, _, value = parameter.partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if quality > best:
            chosen, best = media.lower(), quality
    return chosen


def frame(framing: str, item: dict[str, Any], event_id: int | None = None) -> bytes:
    """One object as a line of the stream: its JSON as the API renders it (one line: JSON escapes every newline)."""
    data = RENDERER.render(item)
    if framing == NDJSON:
        return data + b"\n"
    if event_id is None:
        return b"data: " + data + b"\n\n"
    return b"id: %d\ndata: %s\n\n" % (event_id, data)


def keep_alive(framing: str) -> bytes:
    return b"\n" if framing == NDJSON else b": keep-alive\n\n"


def events_framed(framing: str, events: list[dict[str, Any]]) -> bytes:
    return b"".join(frame(framing, event, event["version"]) for event in events)


def lines_framed(framing: str, lines: list[dict[str, Any]]) -> bytes:
    return b"".join(frame(framing, line) for line in lines)


# --- opening ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """What a stream that may open follows: a game's events after ``after`` (``game_id``), or the feed of ``user``
    (no ``game_id``), in ``framing``."""

    user: Any
    framing: str
    game_id: Any = None
    stream_id: str = ""
    after: int = 0


def opening(plan: Plan) -> StreamingHttpResponse:
    """The answer that lets the ASGI side open the stream: its status and headers, and the plan."""
    response = StreamingHttpResponse(iter(()), content_type=plan.framing)
    response.stream = plan
    return unbuffered(response)


def unbuffered(response: HttpResponse | StreamingHttpResponse):
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx passes each line on at once
    return response


class TicketAuthentication(BaseAuthentication):
    """``?ticket=`` from ``POST /auth/ticket/``: how a browser's ``EventSource``, which sends no header, signs in.
    A ticket opens one stream, once, within a minute (accounts.tickets), so a URL that ends up in a log opens
    nothing. Looked at first: a ticket that
    does not sign in is refused (401), whatever else the request carries."""

    def authenticate(self, request):
        ticket = request.query_params.get("ticket")
        if not ticket:
            return None
        user = spend_ticket(ticket)
        if user is None:
            raise AuthenticationFailed("The ticket is not valid, has been used, or has expired; get a new one.")
        return user, None

    def authenticate_header(self, request):
        return "Token"  # a 401's WWW-Authenticate, as every API answer's (the token is what gets a ticket)


class TicketScheme(OpenApiAuthenticationExtension):
    target_class = TicketAuthentication
    name = "ticketAuth"

    def get_security_definition(self, auto_schema):
        return {"type": "apiKey", "in": "query", "name": "ticket",
                "description": "A ticket from `POST /auth/ticket/` (valid 60 seconds), for a browser's EventSource."}


class RefusalsInJson(BaseContentNegotiation):
    """A stream's own format is chosen by ``framing_of``; what DRF renders, a refusal, is JSON whatever ``Accept``
    says (a client asking for a stream gets its error as every API error comes)."""

    def select_parser(self, request, parsers):
        return parsers[0] if parsers else None

    def select_renderer(self, request, renderers, format_suffix=None):
        return renderers[0], renderers[0].media_type


class StreamView(APIView):
    authentication_classes = [TicketAuthentication, *api_settings.DEFAULT_AUTHENTICATION_CLASSES]
    renderer_classes = [JSONRenderer]
    content_negotiation_class = RefusalsInJson

    @staticmethod
    def live(request) -> bool:
        return bool(request.META.get(LIVE))

    @staticmethod
    def framing(request) -> str:
        return framing_of(request.META.get("HTTP_ACCEPT", ""))


LAST_EVENT_ID = OpenApiParameter(
    "Last-Event-ID", {"type": "integer", "minimum": 0, "maximum": MAX_KEY}, location=OpenApiParameter.HEADER,
    description="The version of the last event you handled (an `EventSource` sends it by itself when it "
                "reconnects): the stream resumes after it. It wins over `after`.")


class FeedLineSerializer(serializers.Serializer):
    type = serializers.ChoiceField(["invited", "game_started", "your_turn", "game_finished", "notice"])
    game = serializers.UUIDField(required=False, help_text="The game's id (every type but `notice`).")
    ruleset = serializers.CharField(required=False)
    version = serializers.IntegerField(required=False, help_text="The game's version when the line was made.")
    by = serializers.CharField(required=False, help_text="`invited`: who invites you.")
    seat = serializers.IntegerField(required=False, help_text="`game_started`, `your_turn`: your seat.")
    status = serializers.CharField(required=False, help_text="`game_finished`: `finished`, `abandoned` or "
                                                             "`cancelled`.")
    winners = serializers.ListField(child=serializers.IntegerField(), required=False,
                                    help_text="`game_finished`: the winning seats.")
    notice = serializers.DictField(required=False, help_text="`notice`: the notice as `GET /notifications/` "
                                                             "shows it.")


def stream_responses(line: Any, line_text: str, sse_text: str) -> dict:
    """The stream's two formats (one answer, 200, whose description the schema keeps once)."""
    description = f"{line_text} {sse_text}"
    return {
        (200, NDJSON): OpenApiResponse(line, description=description),
        (200, EVENT_STREAM): OpenApiResponse({"type": "string"}, description=description),
    }


class GameStreamView(StreamView):
    @extend_schema(
        tags=["games"],
        parameters=[number_parameter("after", "Only events after this version (0, the default: all)."),
                    LAST_EVENT_ID],
        responses={
            **stream_responses(
                EventSerializer,
                "NDJSON: each event after `after` as `GET /games/{game_id}/events/` shows it to you, one a line, "
                "then each new one as it is appended; an empty line keeps the connection alive.",
                "Server-Sent Events (with `Accept: text/event-stream`): each event's `id:` is its version and its "
                "`data:` the same JSON; a `: keep-alive` comment keeps the connection alive."),
            **refusals({403: "The game's `options.spectators` does not let you watch it (`forbidden`)."}),
        },
        description="The game's events as they happen, as NDJSON or Server-Sent Events: one request a client keeps "
                    "open. See docs/api.md, \"Streams (NDJSON and Server-Sent Events)\".",
    )
    def get(self, request, game_id):
        after = whole_number(request.query_params.get("after"), "after") or 0
        resumed = whole_number(request.headers.get("Last-Event-ID"), "Last-Event-ID")
        if resumed is not None:
            after = resumed
        game = services.game_for_viewer(game_id, request.user)
        framing = self.framing(request)
        if self.live(request):
            return opening(Plan(user=request.user, framing=framing, game_id=game.id, stream_id=game.stream_id,
                                after=after))
        shown = services.game_events(user=request.user, game_id=game.id, after=after)["events"]
        return unbuffered(HttpResponse(events_framed(framing, shown), content_type=framing))


class AccountStreamView(StreamView):
    @extend_schema(
        tags=["games"],
        responses=stream_responses(
            FeedLineSerializer,
            "NDJSON: first what is true now (open games you are invited to, your games being played, those waiting "
            "on you), then a line whenever you are invited, a game of yours starts, waits on you or ends, or you "
            "get a notice; an empty line keeps the connection alive.",
            "Server-Sent Events (with `Accept: text/event-stream`): each line's JSON as an event's `data:`; a "
            "`: keep-alive` comment keeps the connection alive."),
        description="Your account's feed, as NDJSON or Server-Sent Events: all a bot needs to keep open. See "
                    "docs/api.md, \"Streams (NDJSON and Server-Sent Events)\".",
    )
    def get(self, request):
        framing = self.framing(request)
        if self.live(request):
            return opening(Plan(user=request.user, framing=framing))
        return unbuffered(HttpResponse(lines_framed(framing, feed.lines_now(request.user)), content_type=framing))
