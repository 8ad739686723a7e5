"""The API's one parser: JSON, whose every failure is the 400 of the error shape (or 413 for a body too large),
never a server error."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from rest_framework import exceptions, parsers


class RequestTooLarge(exceptions.APIException):
    status_code = 413
    default_detail = "The request body is too large."
    default_code = "too_large"


# How deeply a body's arrays and objects may nest. The event store writes what a command carries with orjson, which
# stops at 254 levels (a game's options nested 300 deep was a 500 at the append); no body of the API needs a tenth.
MAX_DEPTH = 64
TOO_DEEP = "JSON parse error - the body is nested too deeply."


def nested_deeper_than(data, limit: int) -> bool:
    """Whether ``data`` nests arrays and objects more than ``limit`` deep (``[[1]]`` is two deep), level by level."""
    level = [data]
    for _ in range(limit):
        level = [child for node in level if isinstance(node, dict | list)
                 for child in (node.values() if isinstance(node, dict) else node)]
        if not level:
            return False
    return any(isinstance(node, dict | list) for node in level)


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        # A body announced as too large is answered before this (dvorak_site.middleware.ApiBodyLimitMiddleware);
        # one that turns out too large while read is answered here.
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:  # JSON nested deeper than Python's parser goes
            raise exceptions.ParseError(TOO_DEEP) from None
        except RequestDataTooBig:
            raise RequestTooLarge(f"A request body has at most {settings.DATA_UPLOAD_MAX_MEMORY_SIZE} bytes.") from None
        if nested_deeper_than(data, MAX_DEPTH):
            raise exceptions.ParseError(TOO_DEEP)
        return data
