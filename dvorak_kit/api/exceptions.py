"""The one exception handler: every error a client sees has API.md's shape.

``{"error": {"code": "<snake_case>", "message": "<a sentence>", "details": {...}, "request_id": "<id>"}}``

``request_id`` is the id of the request answered (its ``X-Request-ID``, dvorak_kit/logs.py), which every log line
of that request carries: what a client quotes when it reports a failure.
"""

import logging

from django.core.exceptions import PermissionDenied
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import set_rollback

from dvorak_core.errors import DomainError
from dvorak_kit.logs import current_request_id

logger = logging.getLogger(__name__)

# DRF's own codes where they differ from the contract's.
DRF_CODES = {
    "parse_error": "invalid",
    "permission_denied": "forbidden",
    "authentication_failed": "not_authenticated",
    "method_not_allowed": "method_not_allowed",
    "unsupported_media_type": "unsupported_media_type",
    "not_acceptable": "not_acceptable",
}


def error_body(code: str, message: str, details: dict | None = None) -> dict:
    body = {"code": code, "message": message}
    if details:
        body["details"] = details
    request_id = current_request_id()
    if request_id is not None:
        body["request_id"] = request_id
    return {"error": body}


def exception_handler(exc, context):
    if isinstance(exc, DomainError):
        set_rollback()
        return Response(error_body(exc.code, exc.message, exc.details), status=exc.status)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    if not isinstance(exc, exceptions.APIException):
        return None  # a real bug: let Django log it and answer 500

    headers = {}
    if getattr(exc, "auth_header", None):
        headers["WWW-Authenticate"] = exc.auth_header
    if getattr(exc, "wait", None):
        headers["Retry-After"] = str(int(exc.wait))
    set_rollback()

    if isinstance(exc, exceptions.ValidationError):
        details = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
        message = first_message(exc.detail) or "The request is not valid."
        return Response(error_body("invalid", message, details), status=status.HTTP_400_BAD_REQUEST, headers=headers)

    code = exc.get_codes() if not isinstance(exc.get_codes(), (dict, list)) else exc.default_code
    code = DRF_CODES.get(code, code)
    if isinstance(exc, exceptions.NotAuthenticated):
        code = "not_authenticated"
    message = str(exc.detail)
    return Response(error_body(code, message), status=exc.status_code, headers=headers)


def first_message(detail) -> str:
    if isinstance(detail, dict):
        for field, value in detail.items():
            inner = first_message(value)
            if inner:
                return inner if field == "non_field_errors" else f"{field}: {inner}"
        return ""
    if isinstance(detail, list):
        return first_message(detail[0]) if detail else ""
    return str(detail)
