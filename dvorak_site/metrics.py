"""``GET /metrics``: the service's Prometheus metrics (dvorak_kit/metrics.py), and the timing of every request.

``MetricsMiddleware`` is the outermost middleware. It times each request Django answers, labelled by the URL
pattern the request resolved to (``api/v1/games/<uuid:game_id>/commands/``, never the path with its ids), its
method and its status class; the game commands the ASGI server answers itself are timed there, under the same
pattern (games/api/fast.py). And it answers ``/metrics`` itself, before the host check and the HTTPS redirect, as
the health check is answered (dvorak_site/middleware.py): a scraper reaches a server at its own address over plain
HTTP.

Who may read them: a request from the networks of ``METRICS_ALLOWED_NETWORKS`` (by default loopback and the private
ranges: the host's own network), every address it passed through included (``X-Forwarded-For``), so that a public
client coming through a proxy on the private network is not taken for the proxy; and, when ``METRICS_TOKEN`` is
set, only with ``Authorization: Bearer <token>``. Anyone else gets a 403 in the API's error shape. The endpoint is
not throttled, and not in the API's OpenAPI schema: it is the operator's, not the clients'.
"""

from __future__ import annotations

import hmac
import ipaddress
import time
from functools import lru_cache

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import Resolver404, resolve

from dvorak_kit import metrics
from dvorak_kit.api.exceptions import error_body

METRICS_PATH = "/metrics"
UNMATCHED = "unmatched"  # a request no URL pattern matches (a 404 outside the API, a redirect before resolving)


@lru_cache(maxsize=1)
def allowed_networks(networks: tuple[str, ...]) -> tuple:
    return tuple(ipaddress.ip_network(network.strip(), strict=False) for network in networks if network.strip())


def from_allowed_network(request: HttpRequest) -> bool:
    """Whether the request's address, and every address its ``X-Forwarded-For`` names, is in an allowed network."""
    networks = allowed_networks(tuple(settings.METRICS_ALLOWED_NETWORKS))
    addresses = [request.META.get("REMOTE_ADDR") or ""]
    addresses += request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if "HTTP_X_FORWARDED_FOR" in request.META \
        else []
    for address in addresses:
        try:
            ip = ipaddress.ip_address(address.strip())
        except ValueError:
            return False
        if getattr(ip, "ipv4_mapped", None) is not None:
            ip = ip.ipv4_mapped
        if not any(ip.version == network.version and ip in network for network in networks):
            return False
    return True


def bearer_matches(request: HttpRequest) -> bool:
    token = settings.METRICS_TOKEN
    if not token:
        return True
    sent = request.META.get("HTTP_AUTHORIZATION", "")
    return hmac.compare_digest(sent.encode("utf-8", "replace"), f"Bearer {token}".encode())


def metrics_view(request: HttpRequest) -> HttpResponse:
    if not from_allowed_network(request):
        return JsonResponse(error_body("forbidden", "The metrics are served to the host's own network only."),
                            status=403)
    if not bearer_matches(request):
        return JsonResponse(error_body("forbidden", "The metrics need `Authorization: Bearer <METRICS_TOKEN>`."),
                            status=403)
    if request.method not in ("GET", "HEAD"):
        response = JsonResponse(error_body("method_not_allowed", f"Method \"{request.method}\" not allowed."),
                                status=405)
        response["Allow"] = "GET, HEAD"
        return response
    body, content_type = metrics.exposition()
    response = HttpResponse(b"" if request.method == "HEAD" else body, content_type=content_type)
    response["Cache-Control"] = "no-store"
    return response


def route_of(request: HttpRequest) -> str:
    """The URL pattern the request resolved to; for a request answered before Django resolved it (the health check,
    a redirect to HTTPS, a preflight), the pattern its path would resolve to."""
    match = request.resolver_match
    if match is None:
        try:
            match = resolve(request.path_info)
        except Resolver404:
            return UNMATCHED
        except Exception:  # a path the resolver cannot read: still a request to count
            return UNMATCHED
    return match.route or match.view_name or UNMATCHED


class MetricsMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info == METRICS_PATH:
            return metrics_view(request)
        if not metrics.ENABLED:
            return self.get_response(request)
        started = time.perf_counter()
        response = self.get_response(request)
        metrics.request_observed(route_of(request), request.method, response.status_code,
                                 time.perf_counter() - started)
        return response
