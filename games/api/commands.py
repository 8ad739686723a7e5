"""The catalogue of game commands, for ``POST /games/{id}/commands/``: made from the bodies the rulesets declare.

Each ruleset declares the body of each of its commands once, beside its handler (``@command("draw", body=...)``,
``dvorak_engine.bodies``). The engine checks a body by that declaration before the handler runs; this module turns
the same declarations into one DRF serializer per command type, which is the one source of two things: the
OpenAPI schema of the request (``COMMAND_SCHEMA``, a oneOf with a discriminator on ``type``; ``propose`` is itself
a oneOf on ``kind``), each with its examples, and the check the view makes before the game is loaded
(``command_check``), so that what the schema admits, what the API checks first and what the engine accepts cannot
drift apart. A command type several rulesets have is one variant: the fields of all of them, each required only
where every such ruleset requires it, its help saying which ruleset means what; the engine then checks the body
by the game's own ruleset. The check refuses only bodies the engine would refuse too (400 ``invalid``, or
``unknown_command`` for a type no ruleset has), and a field that no ruleset's command of that type takes (the engine
would leave it unread: a misspelt optional field would be lost without a word); everything that depends on the
game (whose turn, which cards a player can see) is still the engine's to decide.

Field types are strict, as JSON Schema's are: ``"5"`` is not an integer and ``1`` is not ``true``, which is
what the engine reads too. The reference for people is ``docs/api.md``, "Commands".
"""

from __future__ import annotations

import copy
import dataclasses
import threading
from typing import Any

from drf_spectacular.plumbing import list_hash, load_enum_name_overrides
from drf_spectacular.utils import OpenApiExample, PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import ValidationError

from dvorak_core.errors import DomainError
from dvorak_engine import bodies
from dvorak_engine.rulesets import all_rulesets
from dvorak_kit.api.params import EffectField, StrictTypes

# --- strict fields: JSON types as they are, no coercion ----------------------------------------------------------


class Text(serializers.CharField):
    """A JSON string (a number is not one), untrimmed unless said."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("trim_whitespace", False)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class Pattern(serializers.RegexField):
    """A JSON string matching a pattern."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class UniqueList(serializers.ListField):
    """A list whose items are all different (``uniqueItems`` in the schema)."""

    unique_items = True

    def to_internal_value(self, data: Any) -> list:
        items = super().to_internal_value(data)
        if len({repr(item) for item in items}) != len(items):
            raise ValidationError("Name each one once.")
        return items


class Whole(serializers.IntegerField):
    """A JSON integer (not a string of digits, not true or false, not 2.0)."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class Flag(serializers.BooleanField):
    """JSON true or false, nothing else."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


class AnyValue(serializers.JSONField):
    """Any JSON value, null included."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(allow_null=True, **kwargs)


@extend_schema_field({"not": {}})
class Absent(serializers.Field):
    """A field this command must not carry; the help text says where it belongs instead."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, **kwargs)

    def to_internal_value(self, data: Any) -> Any:
        raise ValidationError(self.help_text)


def type_field(name: str, *, on: str = "type") -> serializers.Field:
    """``type`` (or a proposal's ``kind``): this one word."""

    @extend_schema_field({"type": "string", "enum": [name]})
    class CommandType(serializers.ChoiceField):
        pass

    CommandType.__name__ = f"Command{camel(on)}"
    return CommandType(choices=[name], help_text=f"`{name}`")


def choice(name: str, choices: tuple[str, ...], **options: Any) -> serializers.ChoiceField:
    """One of ``choices``, its enum a component of the schema named by the field (the rulesets name their choices as
    they like: one set of words may be a `facing` in one command and a `direction` in another, each its own enum)."""

    enum_id = list_hash([(value, value) for value in choices])  # drf-spectacular's own, which its overrides name
    if enum_id not in load_enum_name_overrides():
        enum_id = f"{name}:{enum_id}"

    @extend_schema_field({"type": "string", "enum": list(choices), "x-spec-enum-id": enum_id})
    class Choice(serializers.ChoiceField):
        pass

    return Choice(list(choices), **options)


class Closed(StrictTypes):
    """An object inside a command, which takes no fields but its own (as every body, ``StrictTypes``), and with
    ``at_least_one`` not none of them (``minProperties: 1``): the engine reads these objects whole."""

    at_least_one = False

    def to_internal_value(self, data: Any) -> dict:
        if isinstance(data, dict) and self.at_least_one and not data:
            raise ValidationError({"non_field_errors": ["Change at least one field."]})
        return super().to_internal_value(data)


class Command(StrictTypes):
    """A command: ``type`` and its own fields, and no other (a field no ruleset's command of that type takes is
    refused, named, as in every body: ``StrictTypes``)."""

    name = ""
    rulesets: tuple[str, ...] = ()
    body_check: Any = None
    example_bodies: tuple[dict[str, Any], ...] = ()
    declared: dict[str, serializers.Field] = {}

    def get_fields(self) -> dict[str, serializers.Field]:
        return copy.deepcopy(self.declared)

    @classmethod
    def examples(cls) -> list[dict[str, Any]]:
        return list(cls.example_bodies)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if self.body_check is not None:
            try:
                self.body_check(attrs)
            except (ValueError, DomainError) as refused:
                raise ValidationError({"non_field_errors": [str(refused)]}) from None
        return attrs


# --- from the declarations to DRF's fields ------------------------------------------------------------------------


def camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


def _validator(check: Any) -> Any:
    def validate(value: Any) -> None:
        try:
            check(value)
        except (ValueError, DomainError) as refused:
            raise ValidationError(str(refused)) from None

    return validate


_OBJECTS: dict[str, type[Closed]] = {}


def _closed(field: bodies.Field) -> type[Closed]:
    """The serializer of a closed object, one per schema component name."""
    shape = _OBJECTS.get(field.name)
    if shape is None:
        declared = {name: drf_field(inner, name=name) for name, inner in field.fields.items()}
        shape = _OBJECTS[field.name] = type(field.name, (Closed,), {
            "__doc__": field.doc, "__module__": __name__, "at_least_one": field.at_least_one,
            "get_fields": lambda self: copy.deepcopy(declared)})
    return shape


def drf_field(field: bodies.Field, *, name: str = "", help_text: str | None = None, required: bool | None = None
              ) -> serializers.Field:
    """The serializer field that checks what ``field`` declares, for the schema and the API's first check."""
    options: dict[str, Any] = {"help_text": field.help if help_text is None else help_text,
                               "required": field.required if required is None else required}
    if field.null:
        options["allow_null"] = True
    if field.check is not None:
        options["validators"] = [_validator(field.check)]
    kind = field.kind
    if kind == bodies.TEXT:
        if field.pattern is not None:
            return Pattern(field.pattern, max_length=field.high, **options)
        low = field.low if field.low is not None else (None if field.blank else 1)
        return Text(min_length=low, max_length=field.high, allow_blank=field.blank, trim_whitespace=field.trim,
                    **options)
    if kind in (bodies.WHOLE, bodies.SEAT):
        return Whole(min_value=field.low, max_value=field.high, **options)
    if kind == bodies.FLAG:
        return Flag(**options)
    if kind == bodies.CHOICE:
        return choice(name, field.choices, **options)
    if kind == bodies.LIST:
        child = drf_field(field.item, name=name, help_text=field.item.help) if field.item is not None else AnyValue()
        shape = UniqueList if field.unique else serializers.ListField
        return shape(child=child, min_length=field.low, max_length=field.high, **options)
    if kind == bodies.OBJECT:
        return _closed(field)(**options)
    if kind == bodies.MAP:
        return serializers.DictField(child=AnyValue(), **options)
    if kind == bodies.EFFECT:
        options.pop("allow_null", None)
        return EffectField(**options)
    if kind in (bodies.ABSENT, bodies.SERVER):
        return Absent(help_text=field.help)
    options.pop("allow_null", None)
    return AnyValue(**options)


def _loosest(fields: list[bodies.Field]) -> bodies.Field | None:
    """One field taking every value that any of these declarations of it takes (the API checks first what every
    ruleset with the command would take; the game's own ruleset checks the rest), or None when they are of
    different kinds."""
    first = fields[0]
    if any(field.kind != first.kind for field in fields):
        return None

    def bound(values: list[int | None], pick: Any) -> int | None:
        return None if any(value is None for value in values) else pick(values)

    items = [field.item for field in fields]
    item = None if any(each is None for each in items) else _loosest(items)
    if first.kind == bodies.LIST and items[0] is not None and item is None:
        return None
    if first.kind == bodies.OBJECT and any(field.fields != first.fields for field in fields):
        return None
    patterns = {field.pattern for field in fields}
    return dataclasses.replace(
        first, null=any(field.null for field in fields), blank=any(field.blank for field in fields),
        low=bound([field.low for field in fields], min), high=bound([field.high for field in fields], max),
        pattern=patterns.pop() if len(patterns) == 1 else None, unique=all(field.unique for field in fields),
        choices=tuple(dict.fromkeys(choice for field in fields for choice in field.choices)), item=item,
        check=first.check if all(field.check is first.check for field in fields) else None)


def _by_ruleset(texts: list[tuple[str, str]]) -> str:
    """One text when every ruleset says the same; else each ruleset's, named: "`dvorak`: … `article_ii`: …"."""
    distinct = {text for _, text in texts}
    if len(distinct) <= 1:
        return next(iter(distinct), "")
    return " ".join(f"`{name}`: {text}" for name, text in texts if text)


def _shape(class_name: str, command_type: str, declared: list[tuple[str, bodies.Body]],
           fixed: dict[str, str] | None = None) -> type[Command]:
    """One serializer for a command type from every ruleset's declaration of its body; ``fixed``: the field that
    says which of a command's bodies this is, and its word (a proposal's ``kind``), in the shape and its examples."""
    fixed = fixed or {}
    names = [name for name, _ in declared]
    fields: dict[str, list[tuple[str, bodies.Field]]] = {}
    for ruleset, body in declared:
        for field_name, field in body.fields.items():
            fields.setdefault(field_name, []).append((ruleset, field))
    made: dict[str, serializers.Field] = {"type": type_field(command_type),
                                          **{name: type_field(word, on=name) for name, word in fixed.items()}}
    for field_name, each in fields.items():
        required = len(each) == len(declared) and all(field.required for _, field in each)
        helps = [(ruleset, field.help) for ruleset, field in each]
        help_text = (_by_ruleset(helps) if len(each) == len(declared)
                     else " ".join(f"`{ruleset}`: {text}" for ruleset, text in helps if text))
        loosest = _loosest([field for _, field in each])
        if loosest is not None:
            made[field_name] = drf_field(loosest, name=field_name, help_text=help_text, required=required)
        else:  # the rulesets read it as different kinds of value: the engine checks it by the game's own
            made[field_name] = AnyValue(help_text=help_text, required=required)
    checks = [body.check for _, body in declared if body.check is not None]
    examples = []
    for _, body in declared:
        for example in body.examples:
            value = {"type": command_type, **fixed, **example}
            if value not in examples:
                examples.append(value)
    return type(class_name, (Command,), {
        "__doc__": _by_ruleset([(ruleset, body.doc) for ruleset, body in declared]) or f"`{command_type}`.",
        "__module__": __name__, "name": command_type, "rulesets": tuple(names), "declared": made,
        "body_check": staticmethod(checks[0]) if len(checks) == 1 and len(declared) == 1 else None,
        "example_bodies": tuple(examples)})


class Proposal(Command):
    """The proposal variants' common ground (``kind`` says which)."""

    name = "propose"


def _catalogue() -> tuple[dict[str, type[Command]], dict[str, type[Command]]]:
    """Every registered ruleset's commands, one shape per type, and the proposal's kinds."""
    declared: dict[str, list[tuple[str, bodies.Body]]] = {}
    for ruleset in all_rulesets().values():
        for command_type, body in ruleset.bodies.items():
            declared.setdefault(command_type, []).append((ruleset.name, body))
    shapes: dict[str, type[Command]] = {}
    proposals: dict[str, type[Command]] = {}
    for command_type, each in declared.items():
        on = [body for _, body in each if body.by]
        if not on:
            shapes[command_type] = _shape(camel(command_type), command_type, each)
            continue
        polymorphic = on[0]
        for kind, variant in polymorphic.variants.items():
            proposals[kind] = _shape(f"{camel(command_type)}{camel(kind)}", command_type,
                                     [(name, variant) for name, _ in each], {polymorphic.by: kind})
        shapes[command_type] = Proposal
    return shapes, proposals


COMMANDS, PROPOSALS = _catalogue()


def registered_commands() -> set[str]:
    """Every command type some registered ruleset accepts."""
    return set(COMMANDS)


# --- the schema and the check -------------------------------------------------------------------------------------

PROPOSAL_SCHEMA = PolymorphicProxySerializer(
    component_name="ProposeCommand",
    serializers=dict(PROPOSALS),
    resource_type_field_name="kind",
)
COMMAND_SCHEMA = PolymorphicProxySerializer(
    component_name="Command",
    serializers={name: (PROPOSAL_SCHEMA if name == "propose" else shape) for name, shape in COMMANDS.items()},
    resource_type_field_name="type",
)


def command_examples() -> list[OpenApiExample]:
    shapes = [shape for shape in COMMANDS.values() if shape is not Proposal] + list(PROPOSALS.values())
    return [
        OpenApiExample(
            name=f"{body['type']} {body.get('kind', '')}".strip(),
            value=body,
            request_only=True,
            description=f"{(shape.__doc__ or '').strip()} Rulesets: {', '.join(shape.rulesets)}.",
        )
        for shape in shapes
        for body in shape.examples()
    ]


def command_check(body: Any) -> None:
    """Refuse a body whose shape the catalogue forbids (400), before the game is loaded."""
    if not isinstance(body, dict) or not isinstance(body.get("type"), str):
        raise ValidationError({"non_field_errors": ["A command is a JSON object with a \"type\"."]})
    shape = COMMANDS.get(body["type"])
    if shape is None:
        raise DomainError(f"No game has a command {body['type']!r}.", code="unknown_command",
                          details={"known": sorted(registered_commands())})
    if shape is Proposal:
        kind = body.get("kind")
        shape = PROPOSALS.get(kind) if isinstance(kind, str) else None
        if shape is None:
            raise ValidationError({"kind": [f"A proposal's kind is one of {', '.join(PROPOSALS)}."]})
    _check(shape, body)


# One checking instance of each shape per thread, used again: a serializer deep-copies its declared fields into each
# new instance, and that copying was a sixth of a card command's CPU under the ASGI server.
_checking = threading.local()


def _check(shape: type[Command], body: dict) -> None:
    instances = _checking.__dict__.setdefault("instances", {})
    serializer = instances.get(shape)
    if serializer is None:
        serializer = instances[shape] = shape()
    # What a new instance with ``data=body`` would hold: the body, and no result of an earlier check.
    serializer.initial_data = body
    for left in ("_validated_data", "_errors", "_data"):
        serializer.__dict__.pop(left, None)
    serializer.is_valid(raise_exception=True)
