"""The health check answers before the host check and the HTTPS redirect.

Probes (docker compose's health check, a load balancer) reach the process at its own address over plain
HTTP: their Host header is not a name the site serves, and they do not come through the TLS proxy. So
GET /api/v1/health/ (and its live/ and ready/) is answered here, by the API's own health views, before SecurityMiddleware redirects to
HTTPS and before anything reads the Host header; every other request goes on as usual. The answer names no
host and holds nothing secret: which parts are reachable.
"""

from django.conf import settings
from django.http import JsonResponse
from django.urls import reverse

from dvorak_kit.api.throttling import rate_limit_headers

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
