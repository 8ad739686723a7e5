"""Game commands answered by the ASGI server itself, past Django's request handling and DRF's view.

``POST /api/v1/games/{id}/commands/`` is the API's hot path: a client playing sends one per move. Under ASGI
(production's uvicorn workers, to which nginx sends this route; `make run`'s daphne) ``CommandFastPath`` answers
the ordinary request itself: a token in ``Authorization``, a JSON body of known length, no ``Idempotency-Key``
or ``If-Match``, an ``Accept`` that takes JSON, a host the site serves, over HTTPS where the site insists. It runs
the view's own steps with the view's own parts: the token authentication and its cache, the view's throttles,
the API's JSON parser, ``command_check``, ``services.game_command``, the API's exception handler and JSON
renderer, and the headers the middleware and DRF add. Every other request, and one whose token it cannot
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

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, close_old_connections, connections
from django.http.request import split_domain_port, validate_host
from rest_framework import exceptions
from rest_framework.renderers import JSONRenderer

from dvorak_kit.api.authentication import CachedTokenAuthentication
from dvorak_kit.api.exceptions import error_body, exception_handler
from dvorak_kit.api.parsers import JSONParser
from dvorak_kit.publisher import PUBLISHER
from games import services
from games.api import commands
from games.api.views import GameCommandView

logger = logging.getLogger("dvorak.games.fast")
request_logger = logging.getLogger("django.request")

# Django's `uuid` path converter, as games/api/urls.py routes the view.
COMMAND_PATH = re.compile(
    r"/api/v1/games/(?P<game_id>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/commands/")
JSON_BODY = {b"application/json", b"application/json; charset=utf-8", b"application/json;charset=utf-8"}
TAKES_JSON = {None, b"*/*", b"application/json"}
# Headers whose presence means the view's own handling: the locked path with its receipt, or a version check.
VIEW_ONLY = {b"idempotency-key", b"if-match"}

AUTHENTICATION = CachedTokenAuthentication()
PARSER = JSONParser()
RENDERER = JSONRenderer()


class CommandFastPath:
    """ASGI middleware: ordinary game commands answered here, everything else passed on to ``app``."""

    def __init__(self, app):
        self.app = app
        self.publishing = False

    async def __call__(self, scope, receive, send):
        if not self.publishing:  # the live updates sent from this server's loop (dvorak_kit/publisher.py)
            self.publishing = True
            PUBLISHER.send_from(asyncio.get_running_loop())
        match = None
        if scope["type"] == "http" and scope["method"] == "POST":
            match = COMMAND_PATH.fullmatch(scope["path"])
        if match is None or scope.get("root_path"):
            return await self.app(scope, receive, send)
        request = ordinary(scope)
        if request is None:
            return await self.app(scope, receive, send)
        body = await read_body(receive)
        if body is None:  # the client went away
            return None
        if body:
            answer = await answer_command(request, match["game_id"], body, scope["path"])
            if answer is not None:
                status, payload, extra = answer
                await send({"type": "http.response.start", "status": status,
                            "headers": [*response_headers(request["secure"]), *extra,
                                        (b"content-length", str(len(payload)).encode())]})
                await send({"type": "http.response.body", "body": payload})
                return None
        return await self.app(scope, replaying(body, receive), send)


def ordinary(scope) -> dict[str, Any] | None:
    """What the fast path needs of a request it may answer (its token, the caller's address for throttling,
    whether it came over HTTPS), or None for one Django answers."""
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
    secure = is_secure(scope, headers)
    if settings.SECURE_SSL_REDIRECT and not secure:
        return None  # Django redirects it to HTTPS
    if not host_served(headers.get(b"host")):
        return None  # Django refuses it (400)
    authorization = headers.get(b"authorization", b"").split()
    if len(authorization) != 2 or authorization[0].lower() != AUTHENTICATION.keyword.lower().encode():
        return None  # no token (a session's cookie, or nothing): DRF's authentication and its CSRF check
    try:
        token = authorization[1].decode()
    except UnicodeDecodeError:
        return None
    meta = {"REMOTE_ADDR": (scope.get("client") or ("",))[0]}
    if b"x-forwarded-for" in headers:
        meta["HTTP_X_FORWARDED_FOR"] = headers[b"x-forwarded-for"].decode("latin-1")
    return {"token": token, "meta": meta, "secure": secure}


def is_secure(scope, headers: dict[bytes, bytes]) -> bool:
    """As Django's ``request.is_secure()``: the proxy's header when SECURE_PROXY_SSL_HEADER names one."""
    if settings.SECURE_PROXY_SSL_HEADER:
        header, secure_value = settings.SECURE_PROXY_SSL_HEADER
        name = header.removeprefix("HTTP_").replace("_", "-").lower().encode()
        value = headers.get(name)
        if value is not None:
            return value.decode("latin-1").split(",")[0].strip() == secure_value
    return scope.get("scheme") == "https"


def host_served(host: bytes | None) -> bool:
    """As Django's ``request.get_host()`` checks the Host header against ALLOWED_HOSTS."""
    if not host or settings.USE_X_FORWARDED_HOST:
        return False
    allowed = settings.ALLOWED_HOSTS
    if settings.DEBUG and not allowed:
        allowed = [".localhost", "127.0.0.1", "[::1]"]
    domain, _ = split_domain_port(host.decode("latin-1"))
    return bool(domain) and validate_host(domain, allowed)


def response_headers(secure: bool) -> list[tuple[bytes, bytes]]:
    """What the middleware (SecurityMiddleware, XFrameOptionsMiddleware) and DRF add to the view's answer."""
    headers = [(b"content-type", b"application/json"), (b"vary", b"Accept"), (b"allow", b"POST, OPTIONS")]
    if settings.X_FRAME_OPTIONS:
        headers.append((b"x-frame-options", settings.X_FRAME_OPTIONS.upper().encode()))
    if secure and settings.SECURE_HSTS_SECONDS:
        hsts = f"max-age={settings.SECURE_HSTS_SECONDS}"
        if settings.SECURE_HSTS_INCLUDE_SUBDOMAINS:
            hsts += "; includeSubDomains"
        if settings.SECURE_HSTS_PRELOAD:
            hsts += "; preload"
        headers.append((b"strict-transport-security", hsts.encode()))
    if settings.SECURE_CONTENT_TYPE_NOSNIFF:
        headers.append((b"x-content-type-options", b"nosniff"))
    if settings.SECURE_REFERRER_POLICY:
        policy = settings.SECURE_REFERRER_POLICY
        policy = policy if isinstance(policy, str) else ",".join(policy)
        headers.append((b"referrer-policy", policy.encode()))
    if settings.SECURE_CROSS_ORIGIN_OPENER_POLICY:
        headers.append((b"cross-origin-opener-policy", settings.SECURE_CROSS_ORIGIN_OPENER_POLICY.encode()))
    return headers


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


class ThrottledRequest:
    """What the throttles read of a request: its user and the client's address."""

    def __init__(self, user, meta: dict):
        self.user, self.META = user, meta


def _answer_command(request: dict, game_id: str, body: bytes, path: str) -> tuple[int, bytes, list] | None:
    """The view's steps; None when the token does not authenticate (Django answers that). Around them the
    thread's database connection is looked after as Django looks after a request's (closed when broken, when
    its transaction state was left changed, or when due), except that a connection from the process's pool stays
    with the thread for ``COMMAND_CONNECTION_SECONDS`` instead of going back after every command. (Looked after
    here, not around the call: a close in the executor's handler, as channels' DatabaseSyncToAsync has it, did not
    reach the connection the steps used.)"""
    close_old_connections()
    held()
    try:
        return _command_steps(request, game_id, body, path)
    finally:
        close_old_connections()


def held() -> None:
    """The thread's pooled connection, taken for a while: each command's checkout from the pool and return to it
    (psycopg_pool's lock and checks, Django's connection set-up) cost as much as one of the command's statements.
    It goes back to the pool when its time is up, so the pool's ``max_lifetime`` still recycles it; a connection
    that is not pooled (SQLite, or ``DB_CONN_MAX_AGE``) keeps Django's own rule."""
    db = connections[DEFAULT_DB_ALIAS]
    if not getattr(db, "pool", None):
        return
    if db.connection is None:
        db.connect()
        db.held_since = time.monotonic()
    db.close_at = getattr(db, "held_since", 0.0) + settings.COMMAND_CONNECTION_SECONDS


def _command_steps(request: dict, game_id: str, body: bytes, path: str) -> tuple[int, bytes, list] | None:
    try:
        user, _ = AUTHENTICATION.authenticate_credentials(request["token"])
    except exceptions.AuthenticationFailed:
        return None
    try:
        check_throttles(ThrottledRequest(user, request["meta"]))
        data = checked_body(body)
        played = services.game_command(user=user, game_id=game_id, command=dict(data))
    except Exception as error:
        response = exception_handler(error, {"view": None, "request": None})
        if response is None:  # a bug: logged as Django logs one, answered in the API's error shape
            request_logger.error("Internal Server Error: %s", path, exc_info=error)
            return 500, RENDERER.render(error_body(
                "server_error", "The server failed while answering; the game's events show whether the command "
                                "was recorded.")), []
        headers = [(name.lower().encode(), str(value).encode()) for name, value in response.headers.items()
                   if name.lower() != "content-type"]
        # Logged as Django logs a refusal it answers (django.request, a warning per 4xx).
        request_logger.warning("%s: %s", HTTPStatus(response.status_code).phrase, path,
                               extra={"status_code": response.status_code})
        return response.status_code, RENDERER.render(response.data), headers
    return 201, RENDERER.render(played.as_json()), [(b"etag", f'"{played.version}"'.encode())]


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


def check_throttles(request: ThrottledRequest) -> None:
    """As DRF's ``APIView.check_throttles`` with the view's throttle classes: 429 with the longest wait."""
    waits = [throttle.wait() for throttle in (cls() for cls in GameCommandView.throttle_classes)
             if not throttle.allow_request(request, None)]
    if waits:
        raise exceptions.Throttled(max((wait for wait in waits if wait is not None), default=None))
