"""How the API's lists that can grow are cut into pages: two ways, each one class, each documented in the schema.

- The archive's deck list and card search, and the game list: page numbers, ``{"count", "next", "previous",
  "results"}`` with ``?page=N`` (``PageNumbers``).
- Every other list that can grow (revisions, talk, set versions, set changes, player decks, notifications)
  stays a JSON array, as API.md shapes it, and takes one keyset cursor (``Keyset``): ``?after=<key>&limit=<n>``
  continues the list, in its own order, after the item whose key is ``after``; while more items follow, the
  answer carries ``Link: <…?after=…&limit=…>; rel="next"``. A key (a revision number, a post id, …) stays
  valid while items are added, where a page number would shift.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from rest_framework import pagination
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param

from dvorak_kit.api.params import MAX_KEY, whole_number


class PageNumbers(pagination.PageNumberPagination):
    """DRF's page numbers, except that a page that is not a whole number from 1 up is a 400, not a 404 (a page
    past the last one is still a 404: it names nothing)."""

    def get_page_number(self, request, paginator):
        return whole_number(request.query_params.get(self.page_query_param), self.page_query_param, minimum=1) or 1

    def get_schema_operation_parameters(self, view):
        return [{
            "name": self.page_query_param,
            "required": False,
            "in": "query",
            "description": "The page, from 1; a page past the last is a 404.",
            "schema": {"type": "integer", "minimum": 1, "maximum": MAX_KEY},
        }]

    def get_paginated_response_schema(self, schema):
        paginated = super().get_paginated_response_schema(schema)
        paginated["required"] = ["count", "next", "previous", "results"]
        return paginated


class Keyset(pagination.BasePagination):
    """``?after=<key>&limit=<n>`` over a list sorted by its key (``-key``: newest first).

    Views take a class made for their list with ``Keyset.by(...)``. Any whole number is a cursor: a key that
    names no item (one deleted since) still says where to go on from.
    """

    ordering = "id"
    key_description = "id"
    default_limit, max_limit = 100, 200

    @classmethod
    def by(cls, ordering: str, *, key: str) -> type[Keyset]:
        """A paginator for a list sorted by this field (``-field`` when descending); ``key`` names it for people."""
        return type(f"KeysetBy{ordering.lstrip('-').title()}", (cls,), {"ordering": ordering, "key_description": key})

    @property
    def key_field(self) -> str:
        return self.ordering.lstrip("-")

    def paginate_queryset(self, queryset: QuerySet, request, view=None) -> list[Any]:
        after = whole_number(request.query_params.get("after"), "after")
        limit = whole_number(request.query_params.get("limit"), "limit", minimum=1)
        if limit is not None and limit > self.max_limit:
            raise ValidationError({"limit": [f"limit is at most {self.max_limit}."]})
        self.request, self.limit = request, limit or self.default_limit
        ordered = queryset.order_by(self.ordering)
        if after is not None:
            beyond = "lt" if self.ordering.startswith("-") else "gt"
            ordered = ordered.filter(**{f"{self.key_field}__{beyond}": after})
        page = list(ordered[: self.limit + 1])
        self.next_key = getattr(page[self.limit - 1], self.key_field) if len(page) > self.limit else None
        return page[: self.limit]

    def get_paginated_response(self, data) -> Response:
        headers = {}
        if self.next_key is not None:
            url = self.request.build_absolute_uri()
            url = replace_query_param(replace_query_param(url, "after", self.next_key), "limit", self.limit)
            headers["Link"] = f'<{url}>; rel="next"'
        return Response(data, headers=headers)

    # --- the schema ----------------------------------------------------------------------------------------

    def get_schema_operation_parameters(self, view) -> list[dict]:
        return [
            {"name": "after", "in": "query", "required": False,
             "description": f"Continue the list after the item with this key (its {self.key_description}), in "
                            "the list's own order; the `Link` header's next URL carries it.",
             "schema": {"type": "integer", "minimum": 0, "maximum": MAX_KEY}},
            {"name": "limit", "in": "query", "required": False,
             "description": f"At most this many items ({self.default_limit} when left out).",
             "schema": {"type": "integer", "minimum": 1, "maximum": self.max_limit, "default": self.default_limit}},
        ]

    def get_paginated_response_schema(self, schema: dict) -> dict:
        return schema  # still the plain array

    def get_schema_response_headers(self) -> dict:
        return {"Link": {
            "description": 'Present while more items follow: `<URL>; rel="next"`, the URL of the next items '
                           "(with `after` and `limit`).",
            "schema": {"type": "string"},
        }}
