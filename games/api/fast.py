"""Game commands answered by the ASGI server itself, past Django's request handling and DRF's view.

``POST /api/v1/games/{id}/commands/`` is the API's hot path: a client playing sends one per move. Under ASGI
(production's uvicorn workers, to which nginx sends this route; `make run`'s daphne) ``CommandFastPath`` answers
the ordinary request itself: a token in ``Authorization``, a JSON body of known length, no ``Idempotency-Key``
or ``If-Match``, no ``Origin`` (a page's request, whose CORS headers are the CORS middleware's to give), an
``Accept`` that takes JSON, a host the site serves, over HTTPS where the site insists. It runs
the view's own steps with the same code as Django's route: the request as Django's ``ASGIRequest`` makes it (its
host check, its HTTPS), SecurityMiddleware's redirect check, DRF's token authentication and its cache, the view's
throttles by DRF's ``check_throttles``, the API's JSON parser, ``command_check``, the one command pipeline
(``services.game_command``), the API's exception handler and JSON renderer, DRF's response headers for the view,
the response middleware's own ``process_response``, and the view's own answer headers (``ETag``, ``Location``, the
throttles' ``RateLimit-*``). Every other request, and one whose token it cannot
authenticate, goes on to Django untouched (its body handed on as read), so each refusal except the command's
own is Django's. The service runs on a few threads of the process's own (``COMMAND_THREADS``, 2 by default: more
than one, so that a command waiting on PostgreSQL does not hold up the next). Each command closes a broken or old
database connection before and after its steps, in its own thread, as Django does around a request.

Django's stack was about half of a card command's CPU under gunicorn (bench/README.md).
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from concurrent.futures import ThreadPoolExecutor
from http import HTTPStatus
from io import BytesIO
from typing import Any

import structlog
from corsheaders.middleware import CorsMiddleware
from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.core.handlers.asgi import ASGIRequest
from django.db import close_old_connections
from django.http import HttpRequest, HttpResponse
from django.middleware.clickjacking import XFrameOptionsMiddleware
from django.middleware.common import CommonMiddleware
from django.middleware.security import SecurityMiddleware
from django.urls import resolve
from django.utils.datastructures import CaseInsensitiveMapping
from rest_framework import exceptions
from rest_framework.renderers import JSONRenderer

from dvorak_kit import metrics
from dvorak_kit.api.authentication import CachedTokenAuthentication
from dvorak_kit.api.exceptions import error_body, exception_handler
from dvorak_kit.api.parsers import JSONParser
from dvorak_kit.api.throttling import rate_limit_headers
from dvorak_kit.db_threads import held
from dvorak_kit.logs import request_id_of
from dvorak_kit.publisher import PUBLISHER
from games import services
from games.api import commands
from games.api.views import GameCommandView, command_headers

logger = logging.getLogger("dvorak.games.fast")
request_logger = logging.getLogger("django.request")
request_log = structlog.get_logger("dvorak.request")  # the request line, as dvorak_site.middleware logs it

# Django's `uuid` path converter, as games/api/urls.py routes the view.
COMMAND_PATH = re.compile(
    r"/api/v1/games/(?P<game_id>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/commands/")
JSON_BODY = {b"application/json", b"application/json; charset=utf-8", b"application/json;charset=utf-8"}
TAKES_JSON = {None, b"*/*", b"application/json"}
# Headers whose presence means the view's own handling: the locked path with its receipt, a version check, or a
# page's request on another origin (its CORS headers depend on its Origin).
VIEW_ONLY = {b"idempotency-key", b"if-match", b"origin"}

AUTHENTICATION = CachedTokenAuthentication()
PARSER = JSONParser()
RENDERER = JSONRenderer()
VIEW = GameCommandView()  # its throttles, its response headers: DRF's own code, as the view runs it


class CorsResponse(CorsMiddleware):
    """The CORS middleware's headers of an answer to a request without an ``Origin`` (``Vary: origin``)."""

    def process_response(self, request, response):
        return self.add_response_headers(request, response)


# The middleware that adds headers to an API answer, in the order of settings.MIDDLEWARE.
RESPONSE_MIDDLEWARE = {
    "corsheaders.middleware.CorsMiddleware": CorsResponse,
    "django.middleware.security.SecurityMiddleware": SecurityMiddleware,
    "django.middleware.common.CommonMiddleware": CommonMiddleware,  # Content-Length
    "django.middleware.clickjacking.XFrameOptionsMiddleware": XFrameOptionsMiddleware,
}


class Middleware:
    """Django's own middleware that the fast path runs, built as Django's handler builds its chain (each reads the
    settings once, when built): SecurityMiddleware's request check, and the response middleware of
    ``settings.MIDDLEWARE`` (``RESPONSE_MIDDLEWARE``), last listed first, as Django runs them on the way out."""

    def __init__(self):
        built = {path: RESPONSE_MIDDLEWARE[path](lambda request: None)
                 for path in settings.MIDDLEWARE if path in RESPONSE_MIDDLEWARE}
        self.security = built.get("django.middleware.security.SecurityMiddleware")
        self.responding = list(reversed(built.values()))
        self._added: dict[bool, list[tuple[bytes, bytes]]] = {}

    def added(self, request: HttpRequest) -> list[tuple[bytes, bytes]]:
        """The headers every API answer gets from DRF (the view's ``Allow`` and ``Vary``, the renderer's
        ``Content-Type``) and from the response middleware (``process_response`` of each): made by that code itself,
        on a JSON answer, the first time over HTTP and the first time over HTTPS, and kept. They depend on nothing
        else of an answer: the settings, read when the middleware is built, and whether the request is secure
        (HSTS). Making them for every command cost a seventh of its CPU under the command bench."""
        secure = request.is_secure()
        added = self._added.get(secure)
        if added is None:
            response = HttpResponse(b"", content_type="application/json")
            for name, value in VIEW.default_response_headers.items():
                response[name] = value
            for responding in self.responding:
                response = responding.process_response(request, response)
            added = self._added[secure] = [
                (name.lower().encode("latin-1"), str(value).encode("latin-1")) for name, value in response.items()
                if name.lower() != "content-length"]  # each answer's own, as CommonMiddleware sets it
        return added


class CommandFastPath:
    """ASGI middleware: ordinary game commands answered here, everything else passed on to ``app``."""

    def __init__(self, app):
        self.app = app
        self.publishing = False
        self.middleware = Middleware()
        self.route: str | None = None  # the view's URL pattern, the label its answers here are timed under

    def command_route(self) -> str:
        """The command view's URL pattern, as Django's own timing labels it (dvorak_site/metrics.py)."""
        if self.route is None:
            self.route = resolve("/api/v1/games/00000000-0000-0000-0000-000000000000/commands/").route
        return self.route

    async def __call__(self, scope, receive, send):
        if not self.publishing:  # the live updates sent from this server's loop (dvorak_kit/publisher.py)
            self.publishing = True
            PUBLISHER.send_from(asyncio.get_running_loop())
        match = None
        if scope["type"] == "http" and scope["method"] == "POST":
            match = COMMAND_PATH.fullmatch(scope["path"])
        if match is None or scope.get("root_path"):
            return await self.app(scope, receive, send)
        started = time.perf_counter()
        request = ordinary(scope, self.middleware)
        if request is None:
            return await self.app(scope, receive, send)
        body = await read_body(receive)
        if body is None:  # the client went away
            return None
        if body:
            answer = await answer_command(request, match["game_id"], body, scope["path"])
            if answer is not None:
                status, payload, headers = answer
                await send({"type": "http.response.start", "status": status, "headers": headers})
                await send({"type": "http.response.body", "body": payload})
                metrics.request_observed(self.command_route(), "POST", status, time.perf_counter() - started)
                return None
        return await self.app(scope, replaying(body, receive), send)


def ordinary(scope, middleware: Middleware) -> dict[str, Any] | None:
    """What the fast path needs of a request it may answer, or None for one Django answers: the headers it looks at
    before reading the body (a header sent twice, one of the view's own, a body that is not JSON of known length, an
    ``Accept`` that does not take JSON all go to Django)."""
    headers: dict[bytes, bytes] = {}
    for name, value in scope["headers"]:
        name = name.lower()
        if name in headers:  # a header sent twice: Django's way of joining them applies
            return None
        headers[name] = value
    if VIEW_ONLY & headers.keys() or headers.get(b"content-type") not in JSON_BODY:
        return None
    if headers.get(b"accept") not in TAKES_JSON:
        return None
    length = headers.get(b"content-length", b"")
    if not length.isdigit() or int(length) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
        return None  # no length, or too long: Django's answer (413 for a body too large)
    return {"scope": scope, "middleware": middleware, "headers": headers}


def django_request(scope, middleware: Middleware, headers: dict[bytes, bytes]) -> HttpRequest | None:
    """The request as Django makes it of the scope (``ASGIRequest``: its META, its ``is_secure`` and ``get_host``),
    or None when Django's own checks would not let it reach the view: a host the site does not serve (Django
    answers 400) or plain HTTP where the site insists on HTTPS (SecurityMiddleware redirects it). Its ``headers``
    (what DRF's authentication reads) are made of the scope's headers that ``ordinary`` already read, each sent
    once: the mapping Django would make of them, without going over every META key again (that was a tenth of a
    command's CPU on this route)."""
    request = ASGIRequest(scope, BytesIO())
    request.__dict__["headers"] = CaseInsensitiveMapping(
        {name.decode("latin-1"): value.decode("latin-1") for name, value in headers.items()})
    try:
        request.get_host()
    except DisallowedHost:
        return None
    if middleware.security is not None and middleware.security.process_request(request) is not None:
        return None
    return request


async def read_body(receive) -> bytes | None:
    chunks = []
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body"):
            return b"".join(chunks)


def replaying(body: bytes, receive):
    """``receive`` for the app the request is passed on to: the body already read, then the client's own."""
    handed = False

    async def receive_again():
        nonlocal handed
        if not handed:
            handed = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return receive_again


def rendered(request: HttpRequest, middleware: Middleware, status: int, data: Any, headers: dict[str, str]
             ) -> tuple[int, bytes, list]:
    """The answer as the view and the middleware make it: the API's JSON renderer, the answer's own headers (its
    ``ETag`` and ``Location``, a refusal's ``Retry-After``, the throttles' ``RateLimit-*``), the headers DRF and the
    response middleware give every API answer (``Middleware.added``), and its ``Content-Length`` as
    CommonMiddleware sets it."""
    payload = RENDERER.render(data)
    headers = {**headers, **rate_limit_headers(request)}
    return status, payload, [*middleware.added(request),
                             *((name.lower().encode("latin-1"), str(value).encode("latin-1"))
                               for name, value in headers.items()),
                             (b"content-length", str(len(payload)).encode())]


def _answer_command(request: dict, game_id: str, body: bytes, path: str) -> tuple[int, bytes, list] | None:
    """The view's steps; None when the token does not authenticate (Django answers that). Around them the
    thread's database connection is looked after as Django looks after a request's (closed when broken, when
    its transaction state was left changed, or when due), except that a connection from the process's pool stays
    with the thread for ``COMMAND_CONNECTION_SECONDS`` instead of going back after every command. (Looked after
    here, not around the call: a close in the executor's handler, as channels' DatabaseSyncToAsync has it, did not
    reach the connection the steps used.)"""
    close_old_connections()
    held()
    # The request's id and its log line, as RequestLogMiddleware has them for Django's requests: bound here, in the
    # command's thread (an executor's call does not carry the loop's context over).
    request_id = request_id_of(request["headers"].get(b"x-request-id"))
    structlog.contextvars.clear_contextvars()
    structlog.contextvars.bind_contextvars(request_id=request_id)
    started = time.perf_counter()
    try:
        answer = _command_steps(request, game_id, body, path)
        if answer is not None:
            status, payload, headers = answer
            headers.append((b"x-request-id", request_id.encode()))
            request_log.info(f"POST {path} {status}", method="POST", path=path, status=status,
                             duration_ms=round((time.perf_counter() - started) * 1000, 2))
        return answer
    finally:
        structlog.contextvars.clear_contextvars()
        close_old_connections()


def _command_steps(request: dict, game_id: str, body: bytes, path: str) -> tuple[int, bytes, list] | None:
    middleware = request["middleware"]
    http = django_request(request["scope"], middleware, request["headers"])
    if http is None:
        return None
    try:  # DRF's token authentication, as the view runs it; no token, or one refused, is Django's to answer
        authenticated = AUTHENTICATION.authenticate(http)
    except exceptions.AuthenticationFailed:
        return None
    if authenticated is None:
        return None
    http.user = authenticated[0]
    try:
        VIEW.check_throttles(http)  # the view's own throttles, by DRF's own check
        data = checked_body(body)
        played = services.game_command(user=http.user, game_id=game_id, command=dict(data))
    except Exception as error:
        response = exception_handler(error, {"view": VIEW, "request": None})
        if response is None:  # a bug: logged as Django logs one, answered in the API's error shape
            request_logger.error("Internal Server Error: %s", path, exc_info=error)
            return rendered(http, middleware, 500, error_body(
                "server_error", "The server failed while answering; the game's events show whether the command "
                                "was recorded."), {})
        # Logged as Django logs a refusal it answers (django.request, a warning per 4xx).
        request_logger.warning("%s: %s", HTTPStatus(response.status_code).phrase, path,
                               extra={"status_code": response.status_code})
        return rendered(http, middleware, response.status_code, response.data,
                        {name: value for name, value in response.items() if name.lower() != "content-type"})
    return rendered(http, middleware, 201, played.as_json(), command_headers(http, played))


# Commands answered at once by a process: one a thread, each thread with its own database connection (from the
# process's pool), so that one command's round trips to PostgreSQL do not hold up the next (COMMAND_THREADS).
EXECUTOR = ThreadPoolExecutor(max_workers=settings.COMMAND_THREADS, thread_name_prefix="dvorak-command")


async def answer_command(request: dict, game_id: str, body: bytes, path: str) -> tuple[int, bytes, list] | None:
    """``_answer_command`` on one of the command threads. Handed over as the loop's own executor call, not through
    asgiref's ``SyncToAsync`` (whose context copies and thread bookkeeping were about a twelfth of a worker's CPU
    under the card commands' bench): the steps need nothing of the request's context, and the one thing they send
    back to the loop, a live update on the in-memory channel layer, finds the loop itself
    (``dvorak_kit.publisher.group_send``)."""
    return await asyncio.get_running_loop().run_in_executor(EXECUTOR, _answer_command, request, game_id, body, path)


# Bodies already parsed and found well formed by the catalogue (``command_check``, which looks at nothing but the
# body): a client playing sends the same few again and again ({"type": "draw"}, {"type": "end_turn"}), and the
# check of the body's shape took as long as the engine's decision. At most CHECKED_MOST of them, each of at most
# CHECKED_LONGEST bytes.
CHECKED: dict[bytes, None] = {}
CHECKED_MOST, CHECKED_LONGEST = 4096, 512


def checked_body(body: bytes) -> Any:
    """The body's JSON, refused (400) as the view refuses it when it is not JSON or not a command's shape."""
    if body in CHECKED:
        return json.loads(body)  # as the API's parser read it the first time: the standard library's decoder
    data = PARSER.parse(BytesIO(body), "application/json", {"encoding": "utf-8"})
    commands.command_check(data)
    if len(body) <= CHECKED_LONGEST:
        if len(CHECKED) >= CHECKED_MOST:
            CHECKED.clear()
        CHECKED[body] = None
    return data
