"""Failed sign-ins, limited by django-axes (settings: ``SIGNIN_*``): what the client's address is, and what a
sign-in refused for too many failures answers.

The address is the client's behind DRF's ``NUM_PROXIES`` proxies: behind nginx, the last one it added to
``X-Forwarded-For``; without a proxy, the connection's (``client_address``). The answer is the API's ``throttled`` error under
``/api/`` and the site's lockout page elsewhere (the site's sign-in page and the admin's), both 429 with
``Retry-After``.
"""

from __future__ import annotations

from django.conf import settings
from django.http import JsonResponse
from django.shortcuts import render
from rest_framework.settings import api_settings

from dvorak_kit.api.exceptions import error_body


def client_address(request) -> str:
    """The client's address: behind ``NUM_PROXIES`` proxies, as DRF's ``BaseThrottle.get_ident`` reads it. Without
    a proxy setting it is the connection's own, where ``get_ident`` would take the whole ``X-Forwarded-For`` a
    client sends: a guesser could then name a new address at every attempt and never be counted."""
    remote = request.META.get("REMOTE_ADDR") or ""
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR")
    proxies = api_settings.NUM_PROXIES
    if proxies is not None and forwarded:
        if proxies == 0:
            return remote
        addresses = [address.strip() for address in forwarded.split(",") if address.strip()]
        if addresses:
            return addresses[-min(proxies, len(addresses))]
    return remote


def retry_after() -> int:
    return int(settings.AXES_COOLOFF_TIME.total_seconds())


def lockout_response(request, original_response=None, credentials=None):
    seconds = retry_after()
    if request.path.startswith("/api/"):
        # The API's own view has answered already (dvorak_site.api.services.token_obtain): its JSON error stands.
        if getattr(original_response, "status_code", None) == 429:
            return original_response
        response = JsonResponse(error_body("throttled", "Too many failed sign-ins for this account or from this "
                                                        f"address. Expected available in {seconds} seconds."),
                                status=429)
    else:
        response = render(request, "registration/locked_out.html", {"minutes": max(1, seconds // 60)}, status=429)
    response["Retry-After"] = str(seconds)
    return response
