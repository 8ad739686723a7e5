"""Query parameters and headers, read the one way: what the schema says they are, or a 400 ``invalid``.

A view that takes query parameters describes them with a serializer (``query_serializer``), which is both
what ``extend_schema(parameters=[...])`` documents and what ``read_query`` validates, so the two cannot drift.
"""

from __future__ import annotations

import functools
from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import ValidationError

from dvorak_core.effects.language import EFFECT_KINDS
from dvorak_core.storable import unstorable

# The largest key a list or a version can have (a PostgreSQL bigint); a bigger number names nothing.
MAX_KEY = 2**63 - 1


def whole_number(value: str | None, name: str, *, minimum: int = 0, maximum: int = MAX_KEY) -> int | None:
    """A whole number given as text (a query parameter, a header), or None when it is left out or empty."""
    if value in (None, ""):
        return None
    text = value.strip()
    if not text.isdigit() or not text.isascii():
        raise ValidationError({name: [f"{name} must be a whole number."]})
    number = int(text)
    if not minimum <= number <= maximum:
        raise ValidationError({name: [f"{name} must be from {minimum} to {maximum}."]})
    return number


class QueryBooleanField(serializers.BooleanField):
    """true or false in a query string (also 1/0, yes/no, as browsers' forms send them); empty means unset."""

    TRUE_VALUES = {"true", "True", "TRUE", "1", "yes"}
    FALSE_VALUES = {"false", "False", "FALSE", "0", "no"}
    NULL_VALUES = {""}

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, allow_null=True, default=None, **kwargs)


def read_query(serializer_class: type[serializers.Serializer], request) -> dict[str, Any]:
    """The request's query parameters that the serializer describes, validated (empty ones as left out); others
    (``format``, ``page``, a cursor) are not its to judge."""
    described = serializer_class().fields
    data = {name: value for name, value in request.query_params.items() if value != "" and name in described}
    form = serializer_class(data=data)
    form.is_valid(raise_exception=True)
    return form.validated_data


def number_parameter(name: str, description: str, *, minimum: int = 0) -> OpenApiParameter:
    """A whole-number query parameter, as ``whole_number`` reads it."""
    return OpenApiParameter(name, {"type": "integer", "minimum": minimum, "maximum": MAX_KEY}, description=description)


# The base of every request body's serializer (nested ones too: each checks its own fields): a field takes JSON's
# own type, as the schema says. DRF would take 0 for a text, "5" for a number and "yes" for true, which the schema
# forbids. A field the body's object does not have ("max_player" for "max_players") is refused, named, rather
# than left unread (``closed``; ``additionalProperties: false`` in the schema). (A comment, not a docstring: the
# schema would show a docstring as every body's description.)
class StrictTypes(serializers.Serializer):
    closed = True

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            errors = {name: [message] for name, field in self.fields.items()
                      if not field.read_only and (message := json_type_error(field, data.get(name)))}
            if self.closed:
                writable = {name for name, field in self.fields.items() if not field.read_only}
                errors.update({name: [NOT_A_FIELD] for name in sorted(set(data) - writable)})
            if errors:
                raise ValidationError(errors)
        return super().to_internal_value(data)


NOT_A_FIELD = "Not a field of this object."


def takes_no_body(method):
    """A view method whose operation takes no body: nothing, ``{}`` or ``null`` is fine; an object's fields are
    each refused by name (400 ``invalid``), as a body's unknown fields are, and any other JSON value is refused
    whole. (The schema lists that 400: ``dvorak_kit.api.schema``.)"""

    @functools.wraps(method)
    def answer(view, request, *args, **kwargs):
        data = request.data
        if isinstance(data, dict) and data:
            raise ValidationError({name: ["This operation takes no body."] for name in sorted(data)})
        if data is not None and not isinstance(data, dict):
            raise ValidationError({"non_field_errors": ["This operation takes no body."]})
        return method(view, request, *args, **kwargs)

    answer.takes_no_body = True
    return answer


def json_type_error(field: serializers.Field, value: Any) -> str | None:
    """Why ``value`` is not of the JSON type ``field`` stands for, or None (None itself is the field's to judge)."""
    if value is None:
        return None
    if isinstance(field, serializers.BooleanField):
        return None if isinstance(value, bool) else "Must be true or false."
    if isinstance(field, serializers.IntegerField):
        return None if isinstance(value, int) and not isinstance(value, bool) else "Must be a whole number."
    if isinstance(field, serializers.CharField):
        if not isinstance(value, str):
            return "Must be a string."
        # The schema's maxLength is of the text as sent; DRF measures it after trimming the whitespace.
        if field.max_length is not None and len(value) > field.max_length:
            return f"Ensure this field has no more than {field.max_length} characters."
        return None
    if isinstance(field, serializers.DictField | serializers.JSONField) and (fault := unstorable(value)):
        return f"{fault}, which cannot be stored."
    if isinstance(field, serializers.ListField) and isinstance(value, list):
        return next(filter(None, (json_type_error(field.child, item) for item in value)), None)
    if isinstance(field, serializers.DictField) and isinstance(value, dict):
        return next(filter(None, (json_type_error(field.child, item) for item in value.values())), None)
    return None


def new_deck_slug(**kwargs: Any) -> serializers.RegexField:
    """The slug of a deck to be made: a slug, but not one of the paths under /decks/ (decks.services'
    RESERVED_SLUGS: "import")."""
    return serializers.RegexField(r"^(?!import$)[-a-zA-Z0-9_]+$", max_length=200, **kwargs)


# An entity tag naming a version (a game's, a deck's revision), as the ETag of the answers gives it: "12", W/"12"
# or a bare 12.
IF_MATCH = r'^(W/)?"?[0-9]{1,18}"?$'


def if_match_version(header: str | None) -> int | None:
    """``If-Match: "12"`` (an entity tag naming the version) or a bare ``12``; None when the header is absent."""
    if header is None:
        return None
    value = header.strip()
    if value.startswith("W/"):
        value = value[2:]
    # The schema's pattern takes a quote at either end or both (a client's tag cut short still names its version).
    value = value.removeprefix('"').removesuffix('"')
    if not value:  # a header sent empty names no version: refused, not read as left out
        raise ValidationError({"If-Match": ["If-Match must be a whole number."]})
    return whole_number(value, "If-Match")


EFFECT_HELP = ("A confirmed effect: a list of effects in the effect language (docs/effects.md), or null for none. "
               "Checked when written (400 `invalid` whose `details.field` names the place, e.g. `effect[0].count`) "
               "and kept with every field written out. A Special Rule's `set_rule` effects set its `params`.")


@extend_schema_field({"type": "array", "nullable": True, "items": {
    "type": "object", "required": ["kind"], "properties": {"kind": {"type": "string", "enum": sorted(EFFECT_KINDS)}},
    "additionalProperties": True}})
class EffectField(serializers.JSONField):
    """A card's or a Special Rule's effect in the effect language (its JSON list), or null: checked by the service
    that keeps it (``dvorak_core.effects.checked_effect``), before anything else, naming the place of a fault."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("help_text", EFFECT_HELP)
        super().__init__(allow_null=True, **kwargs)
