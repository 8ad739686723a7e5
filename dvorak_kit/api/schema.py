"""The OpenAPI schema's one mechanism for errors: every operation lists the 4xx answers it can give, each in the
one error shape (``Error``, API.md's "Errors").

``DvorakAutoSchema`` (settings ``DEFAULT_SCHEMA_CLASS``) derives the answers any view of its kind can give from
the view itself: 400 when it takes a body or parameters, 401 when it reads a token, 403 for a write that a
signed-in browser session sends without its CSRF token, 404 when its path names something, 415 for a body
that is not JSON, 429 when it is throttled. What a service refuses in a view's own terms (409, 412, 423, …)
the view declares with ``refusals(...)`` in its ``extend_schema(responses=...)``, in the same shape.

The headers every answer of a kind carries are derived the same way: ``RateLimit-*`` on every answer of a throttled
view, ``Location`` on every 201 (but a view's whose product has no address: ``location_header = False``), and
``Idempotency-Key`` (with its 422) on every method marked ``@idempotent`` (dvorak_kit/api/idempotency.py).
"""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiResponse, extend_schema_serializer
from rest_framework import serializers
from rest_framework.authentication import SessionAuthentication

from dvorak_kit.api.params import MAX_KEY, StrictTypes

SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
# The rate-limit headers, one component each (every answer of a throttled view refers to them).
RATE_LIMIT_HEADERS = {
    "RateLimit-Limit": "Requests the client may send in its rate's window (a minute by default).",
    "RateLimit-Remaining": "Requests it may still send now; 0 when the next one would be refused (429).",
    "RateLimit-Reset": "Seconds until the count of its requests goes down (with none remaining, `Retry-After`).",
}


class ErrorBodySerializer(serializers.Serializer):
    code = serializers.CharField(help_text="snake_case, stable: what a client branches on (API.md's table).")
    message = serializers.CharField(help_text="A sentence for a person.")
    details = serializers.DictField(required=False, help_text="Which fields were wrong and why, and the like.")
    request_id = serializers.CharField(
        help_text="The request's id, as in its `X-Request-ID` answer header: quote it when reporting "
                                  "a failure.")


@extend_schema_serializer(component_name="Error")
class ErrorSerializer(serializers.Serializer):
    error = ErrorBodySerializer()


GENERIC = {
    400: "Not valid (`invalid`): a malformed body, a bad field or query parameter; `details` names them.",
    401: "No token, or one that is not valid (`not_authenticated`).",
    403: "Not allowed (`forbidden`).",
    404: "Nothing at this address (`not_found`).",
    413: "The body is larger than the service takes (`too_large`).",
    415: "The body is not JSON (`unsupported_media_type`).",
    429: "Too many requests (`throttled`); `Retry-After` says how many seconds to wait.",
}


def error_response(description: str) -> OpenApiResponse:
    return OpenApiResponse(ErrorSerializer, description=description)


def refusals(statuses: dict[int, str]) -> dict[int, OpenApiResponse]:
    """A view's own refusals, ``{409: "when …", 423: "when …"}``, each answered in the error shape."""
    return {status: error_response(description) for status, description in statuses.items()}


class DvorakAutoSchema(AutoSchema):
    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        for status, description in self.derived_errors().items():
            responses.setdefault(str(status), self._get_response_for_code(error_response(description), str(status),
                                                                          ["application/json"], direction))
        return responses

    def derived_errors(self) -> dict[int, str]:
        view, errors = self.view, {}
        takes_body = self.method in {"POST", "PUT", "PATCH"} and self.get_request_serializer() is not None
        # If-None-Match is never refused: a tag that names nothing current is simply not matched.
        takes_parameters = any(p["in"] in {"query", "header"} and p["name"] != "If-None-Match"
                               for p in self._get_parameters())
        if takes_body or takes_parameters:
            errors[400] = GENERIC[400]
        elif self._marked("takes_no_body"):
            errors[400] = "Not valid (`invalid`): the operation takes no body, and a field sent is named."
        authenticators = getattr(view, "authentication_classes", [])
        if authenticators:
            errors[401] = GENERIC[401]
        if self.method not in SAFE_METHODS and any(issubclass(a, SessionAuthentication) for a in authenticators):
            errors[403] = "Not allowed (`forbidden`), e.g. a browser session's write without its CSRF token."
        if "{" in self.path or self._paginator_can_miss():
            errors[404] = GENERIC[404]
        if takes_body:
            errors[413] = GENERIC[413]
            errors[415] = GENERIC[415]
        if getattr(view, "throttle_classes", []):
            errors[429] = GENERIC[429]
        if self._marked("idempotent"):
            from dvorak_kit.api.idempotency import REUSED

            errors[422] = REUSED
        return errors

    def _marked(self, mark: str) -> bool:
        """Whether the view's method for this operation is decorated so (``@idempotent``, ``@takes_no_body``)."""
        return getattr(getattr(self.view, self.method.lower(), None), mark, False)

    def get_override_parameters(self):
        parameters = super().get_override_parameters()
        if self._marked("idempotent"):
            from dvorak_kit.api.idempotency import idempotency_parameter

            parameters = [*parameters, idempotency_parameter()]
        return parameters

    def _get_parameters(self):
        parameters = super()._get_parameters()
        for parameter in parameters:
            schema = parameter.get("schema", {})
            if parameter["in"] == "query" and not parameter.get("required"):
                # An empty query parameter counts as left out (`?status=` is any status): read_query, whole_number.
                parameter["allowEmptyValue"] = True
            if parameter["in"] == "path" and schema.get("type") == "integer":
                # A number in a path names a row: a whole number a key can be (larger names nothing).
                schema.setdefault("minimum", 0)
                schema.setdefault("maximum", MAX_KEY)
        return parameters

    def get_paginated_name(self, serializer_name: str) -> str:
        from dvorak_kit.api.pagination import Keyset

        # A keyset-paged list is still the plain array: not "Paginated…", which names the page-number envelope.
        if isinstance(self._get_paginator(), Keyset):
            return f"{serializer_name}List"
        return super().get_paginated_name(serializer_name)

    def _paginator_can_miss(self) -> bool:
        from dvorak_kit.api.pagination import PageNumbers

        return self.method == "GET" and self._is_list_view() and isinstance(self._get_paginator(), PageNumbers)

    def _get_response_headers_for_code(self, status_code, direction="response"):
        headers = super()._get_response_headers_for_code(status_code, direction)
        paginator = self._get_paginator() if self.method == "GET" and self._is_list_view() else None
        if status_code == "200" and hasattr(paginator, "get_schema_response_headers"):
            headers.update(paginator.get_schema_response_headers())
        if status_code == "429":
            headers["Retry-After"] = {"description": "Seconds to wait before trying again.",
                                      "schema": {"type": "integer"}}
        if status_code == "201" and getattr(self.view, "location_header", True):
            headers["Location"] = {"description": "The address of what the request made.",
                                   "schema": {"type": "string", "format": "uri"}}
        if getattr(self.view, "throttle_classes", []):
            for name in RATE_LIMIT_HEADERS:
                headers[name] = {"$ref": f"#/components/headers/{name}"}
        return headers

    # --- what DRF's fields cannot say by themselves ---------------------------------------------------------

    def _map_basic_serializer(self, serializer, direction):
        schema = super()._map_basic_serializer(serializer, direction)
        if getattr(serializer, "closed", False):
            schema["additionalProperties"] = False
        if getattr(serializer, "at_least_one", False):
            schema["minProperties"] = 1
        return schema

    def _map_serializer_field(self, field, direction, bypass_extensions=False):
        schema = super()._map_serializer_field(field, direction, bypass_extensions)
        if schema is not None and getattr(field, "unique_items", False):
            schema["uniqueItems"] = True
        return schema

    def _insert_field_validators(self, field, schema):
        super()._insert_field_validators(field, schema)
        if (isinstance(getattr(field, "parent", None), StrictTypes) and isinstance(field, serializers.CharField)
                and not field.read_only and field.trim_whitespace
                and not field.allow_blank and "pattern" not in schema and schema.get("type") == "string"):
            # In a request body, white space alone is blank, and DRF refuses a blank text.
            schema["pattern"] = r"\S"


def inline_single_value_enums(result, generator, request, public):
    """A postprocessing hook, after drf-spectacular's enum hook: an enum of one value (a command's `type`, a
    proposal's `kind`) is a constant that tells variants apart, not a choice set worth a component of its own;
    put it back inline, where the discriminator reads it."""
    schemas = result.get("components", {}).get("schemas", {})
    constants = {f"#/components/schemas/{name}": schema for name, schema in schemas.items()
                 if isinstance(schema.get("enum"), list) and len(schema["enum"]) == 1}

    def inline(node):
        if isinstance(node, dict):
            if node.get("$ref") in constants:
                return {key: value for key, value in constants[node["$ref"]].items() if key != "description"}
            parts = node.get("allOf")
            if isinstance(parts, list) and len(parts) == 1 and parts[0].get("$ref") in constants:
                merged = {key: value for key, value in node.items() if key != "allOf"}
                return {**inline(parts[0]), **merged}
            return {key: inline(value) for key, value in node.items()}
        if isinstance(node, list):
            return [inline(item) for item in node]
        return node

    result = inline(result)
    for ref in constants:
        del result["components"]["schemas"][ref.rsplit("/", 1)[1]]
    return result


def rate_limit_header_components(result, generator, request, public):
    """A postprocessing hook: the ``RateLimit-*`` headers every answer refers to, as components."""
    result.setdefault("components", {})["headers"] = {
        name: {"description": description, "schema": {"type": "integer", "minimum": 0}}
        for name, description in RATE_LIMIT_HEADERS.items()}
    return result
