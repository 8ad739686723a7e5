"""``Idempotency-Key`` on the API's creating requests (a game, a deck, a card, a player deck, a change, a talk post):
a client that is not sure its request arrived sends it again with the same key and gets the first answer (its
status, body and ``Location``), and nothing is made twice.

A view's method takes it with ``@idempotent``. The receipt is written in the request's own transaction, before
the view runs: a second request with the key, sent while the first is still being answered, waits on the first's
row (its unique key) and then gives the first answer; a request that is refused (an error raised, or any answer
that is not a 2xx) writes no receipt, so retrying it is simply trying again. Keys are kept per user for
``KEEP`` (a day); past that a key is new again. The same key with another method, path or body is 422
``idempotency_key_reused``. Game commands keep their receipts per game, in the command pipeline
(``games.services``), under the same rules.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework.exceptions import ValidationError
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

from dvorak_core.errors import IdempotencyKeyReused
from dvorak_kit.idempotency.models import RequestReceipt

# 1 to 200 characters, none a control character (the key is stored as text, which takes no NUL); a header value
# neither starts nor ends with white space.
IDEMPOTENCY_KEY = r"^[^\s\x00-\x1f\x7f]([^\x00-\x1f\x7f]{0,198}[^\s\x00-\x1f\x7f])?$"
KEEP = timedelta(hours=24)
# The headers of a first answer that a retry gets again.
REPLAYED_HEADERS = ("Location", "ETag")

REUSED = "The `Idempotency-Key` came first with another request (`idempotency_key_reused`)."


def idempotency_key(request) -> str | None:
    """The request's ``Idempotency-Key``, or None; 400 ``invalid`` for one the pattern refuses."""
    key = request.headers.get("Idempotency-Key")
    if key is not None and not re.fullmatch(IDEMPOTENCY_KEY, key):
        raise ValidationError({"Idempotency-Key": [
            "An Idempotency-Key has 1 to 200 characters, no control characters, and no space at either end."]})
    return key


def idempotency_parameter(what: str = "request") -> OpenApiParameter:
    return OpenApiParameter(
        "Idempotency-Key", OpenApiTypes.STR, OpenApiParameter.HEADER, pattern=IDEMPOTENCY_KEY,
        description=f"1 to 200 characters, no control characters. The same key with the same {what} again returns "
                    f"the first answer and changes nothing; with another {what}, 422 `idempotency_key_reused`.")


def fingerprint(request) -> str:
    """What a retry must repeat to get the first answer: the method, the path and the body (its JSON, keys in
    order, so that the same body written in another key order is the same request)."""
    body = json.dumps(_canonical(request.data), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(f"{request.method} {request.path}\n{body}".encode()).hexdigest()


def _canonical(data: Any) -> Any:
    if hasattr(data, "lists"):  # a form or a multipart body: each part's values, a file by its content
        return {key: [_digest(value) if hasattr(value, "read") else value for value in values]
                for key, values in data.lists()}
    return data


def _digest(upload) -> str:
    digest = hashlib.sha256()
    for chunk in upload.chunks():
        digest.update(chunk)
    upload.seek(0)
    return digest.hexdigest()


def idempotent(method):
    """A view method (a creating POST) that takes an ``Idempotency-Key``."""

    @functools.wraps(method)
    def answer(view, request, *args, **kwargs):
        key = idempotency_key(request)
        if key is None or not request.user.is_authenticated:
            return method(view, request, *args, **kwargs)
        request_hash = fingerprint(request)
        with transaction.atomic():
            RequestReceipt.objects.filter(user=request.user, created_at__lt=timezone.now() - KEEP).delete()
            try:
                with transaction.atomic():
                    receipt = RequestReceipt.objects.create(user=request.user, key=key, request_hash=request_hash,
                                                            status=0)
            except IntegrityError:  # the key came before (or is being answered now: its row was waited for)
                return replayed(RequestReceipt.objects.get(user=request.user, key=key), request_hash)
            response = method(view, request, *args, **kwargs)
            if not 200 <= response.status_code < 300:
                receipt.delete()
                return response
            receipt.status = response.status_code
            receipt.headers = {name: response[name] for name in REPLAYED_HEADERS if response.has_header(name)}
            receipt.body = json.loads(JSONRenderer().render(response.data) or b"null")
            receipt.save(update_fields=["status", "headers", "body"])
        return response

    answer.idempotent = True  # the schema lists the header and the 422 (dvorak_kit.api.schema)
    return answer


def replayed(receipt: RequestReceipt, request_hash: str) -> Response:
    if receipt.request_hash != request_hash:
        raise IdempotencyKeyReused("This Idempotency-Key came first with another request; use a new key.")
    return Response(receipt.body, status=receipt.status, headers=receipt.headers)
