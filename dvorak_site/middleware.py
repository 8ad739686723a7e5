"""The health check answers before the host check and the HTTPS redirect.

Probes (docker compose's health check, a load balancer) reach the process at its own address over plain
HTTP: their Host header is not a name the site serves, and they do not come through the TLS proxy. So
GET /api/v1/health/ (and its live/ and ready/) is answered here, by the API's own health views, before SecurityMiddleware redirects to
HTTPS and before anything reads the Host header; every other request goes on as usual. The answer names no
host and holds nothing secret: which parts are reachable.
"""

import time

import structlog
from django.conf import settings
from django.http import JsonResponse
from django.urls import reverse
from django.utils.functional import SimpleLazyObject, empty

from dvorak_kit.api.throttling import rate_limit_headers
from dvorak_kit.logs import request_id_of

request_log = structlog.get_logger("dvorak.request")

# An API path's 5xx when no code of the API's answered it (an exception in a view, a middleware, a renderer): never
# the exception's text, which could hold what a client may not see.
SERVER_ERROR = "The server failed while answering; the request id names this failure in the server's logs."


class RequestLogMiddleware:
    """Outermost: the request's id (``X-Request-ID``: the client's when it is a sane token, else a new one) bound
    into every log line of the request and sent back on its answer; one line logged for the request (method, path,
    status, duration, user); and on an API path (``/api/``) a 5xx that is not JSON, Django's page for an exception
    raised anywhere within (a view, a middleware), is answered in the JSON error shape instead (``server_error``,
    the request id), its headers kept. Django has logged the exception itself, with its traceback, once
    (``django.request``). The pages outside ``/api/`` keep Django's HTML error pages.

    The game commands the ASGI server answers itself do the same in their own code (games/api/fast.py)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request_id = request.request_id = request_id_of(request.META.get("HTTP_X_REQUEST_ID"))
        structlog.contextvars.clear_contextvars()
        structlog.contextvars.bind_contextvars(request_id=request_id)
        started = time.perf_counter()
        try:
            response = self.get_response(request)
            if response.status_code >= 500 and request.path_info.startswith("/api/") and not is_json(response):
                response = as_server_error(response)
            response["X-Request-ID"] = request_id
            user = user_of(request)
            if user is not None:
                structlog.contextvars.bind_contextvars(user=user)
            request_log.info(f"{request.method} {request.path} {response.status_code}", method=request.method,
                             path=request.path, status=response.status_code, duration_ms=round((time.perf_counter() - started) * 1000, 2))
            return response
        finally:
            structlog.contextvars.clear_contextvars()


def is_json(response) -> bool:
    return response.get("Content-Type", "").split(";")[0].strip() == "application/json"


def as_server_error(response):
    """A 5xx page turned into the API's error shape, its status and other headers (CORS's among them) kept."""
    from dvorak_kit.api.exceptions import error_body

    answer = JsonResponse(error_body("server_error", SERVER_ERROR), status=response.status_code)
    for name, value in response.items():
        if name.lower() not in {"content-type", "content-length"}:
            answer[name] = value
    return answer


def user_of(request) -> str | None:
    """The signed-in user's name, when the request has already looked it up (DRF's authentication sets it on
    Django's request; a page's session user once read): not looked up for the log alone."""
    user = getattr(request, "user", None)
    if isinstance(user, SimpleLazyObject) and user._wrapped is empty:
        return None
    if user is None or not user.is_authenticated:
        return None
    return user.get_username()

HEALTH_URL_NAMES = ("health", "health-live", "health-ready")


def health_paths() -> set[str]:
    return {reverse(name) for name in HEALTH_URL_NAMES}


class HealthCheckMiddleware:
    def __init__(self, get_response):
        from dvorak_site.api.views import HealthView, LiveView, ReadyView

        self.get_response = get_response
        self.views = dict(zip((reverse(name) for name in HEALTH_URL_NAMES),
                              (HealthView.as_view(), LiveView.as_view(), ReadyView.as_view()), strict=True))

    def __call__(self, request):
        view = self.views.get(request.path_info)
        if view is None:
            return self.get_response(request)
        response = view(request)
        response.render()  # no later middleware renders it: this one answers directly
        return response


class ApiBodyLimitMiddleware:
    """An API request whose body is over DATA_UPLOAD_MAX_MEMORY_SIZE answers 413 in the error shape, before any
    part of the stack reads the body (Django would answer its own HTML 400)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        length = request.META.get("CONTENT_LENGTH") or ""
        if limit is not None and request.path_info.startswith("/api/") and length.isdigit() and int(length) > limit:
            from dvorak_kit.api.exceptions import error_body

            return JsonResponse(error_body("too_large", f"A request body has at most {limit} bytes."), status=413)
        return self.get_response(request)


class RateLimitHeadersMiddleware:
    """Every API answer but the health checks' says where its client stands under the rate limits
    (``RateLimit-Limit``, ``RateLimit-Remaining``, ``RateLimit-Reset``; dvorak_kit/api/throttling.py), a 429 too,
    so a client can slow down before it is refused. The game commands the ASGI server answers itself add the same
    headers (games/api/fast.py)."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.health_paths = health_paths()

    def __call__(self, request):
        response = self.get_response(request)
        path = request.path_info
        if path.startswith("/api/") and path not in self.health_paths and "RateLimit-Limit" not in response:
            for name, value in rate_limit_headers(request).items():
                response[name] = value
        return response
