"""Answers as HTTP clients expect them: a 201 says where the thing it made is (``Location``), and a read whose
representation has a version (``ETag``) answers ``If-None-Match`` with 304 when the client's copy is current.

Both are said in the schema too: the schema adds ``Location`` to every 201 (``dvorak_kit.api.schema``), and a
view whose GET answers 304 lists ``conditional_parameters()`` and ``NOT_MODIFIED``.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import status
from rest_framework.response import Response

# One entity tag of a list (RFC 9110, 8.8.3): W/ for a weak one, then the quoted opaque tag; a bare token (12) is
# read as the tag it would be quoted ("12"), as If-Match reads it. The service's own tags hold no comma.
ENTITY_TAG = re.compile(r'\s*(?:W/)?"?([^"\s]*)"?\s*')


def created(request, data: Any, path: str, *, headers: dict[str, str] | None = None) -> Response:
    """201 with ``data`` and ``Location``: the address (made absolute) of what the request made."""
    return Response(data, status=status.HTTP_201_CREATED,
                    headers={"Location": request.build_absolute_uri(path), **(headers or {})})


def none_match(header: str | None, etag: str) -> bool:
    """Whether ``If-None-Match`` names ``etag`` (or is ``*``), by the weak comparison RFC 9110 asks of it: ``W/"12"``
    and ``"12"`` name the same version."""
    if header is None:
        return False
    if header.strip() == "*":
        return True
    wanted = etag.removeprefix("W/").strip('"')
    return any((match := ENTITY_TAG.fullmatch(part)) is not None and match[1] == wanted for part in header.split(","))


def conditional(request, response: Response, etag: str) -> Response:
    """``response`` with its ``ETag``; or, for a GET whose ``If-None-Match`` names that tag, 304 without a body."""
    if request.method in ("GET", "HEAD") and none_match(request.headers.get("If-None-Match"), etag):
        return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": etag})
    response["ETag"] = etag
    return response


def content_tag(data: Any) -> str:
    """A strong entity tag made of a representation itself, for one that carries no version of its own."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
    return '"' + hashlib.sha256(text.encode()).hexdigest()[:20] + '"'


NOT_MODIFIED = {304: OpenApiResponse(description="Not modified: `If-None-Match` names the current `ETag`; no body.")}


def conditional_parameters(tag: str) -> list[OpenApiParameter]:
    """``If-None-Match`` and the ``ETag`` of the answer; ``tag`` says what the tag is."""
    return [
        OpenApiParameter(
            "If-None-Match", OpenApiTypes.STR, OpenApiParameter.HEADER,
            description=f"The `ETag` of a copy you hold ({tag}), or several, comma-separated, or `*`; `W/\"12\"` "
                        "and `\"12\"` name the same. When it names the current one, the answer is 304 without a "
                        "body."),
        OpenApiParameter("ETag", OpenApiTypes.STR, OpenApiParameter.HEADER, response=[200, 304],
                         description=f"The representation's entity tag: {tag}."),
    ]
