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


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        # A body announced as too large is answered before this (dvorak_site.middleware.ApiBodyLimitMiddleware);
        # one that turns out too large while read is answered here.
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:  # JSON nested deeper than Python's parser goes: no command is that deep
            raise exceptions.ParseError("JSON parse error - the body is nested too deeply.") from None
        except RequestDataTooBig:
            raise RequestTooLarge(f"A request body has at most {settings.DATA_UPLOAD_MAX_MEMORY_SIZE} bytes.") from None
