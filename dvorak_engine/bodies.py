"""Reading a command's body: each field checked for its kind, refused (``invalid``, naming the field) with the
words a client is shown. The rulesets' commands read their bodies with these, so one kind of field is refused
in one way whatever the game."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any, Literal, overload

from dvorak_core.errors import DomainError
from dvorak_engine.state import GameState


def invalid(message: str, field: str) -> DomainError:
    return DomainError(message, code="invalid", details={"field": field})


@overload
def text(body: dict[str, Any], name: str, *, names: str = ..., message: str | None = ...,
         required: Literal[True] = ...) -> str: ...
@overload
def text(body: dict[str, Any], name: str, *, names: str = ..., message: str | None = ...,
         required: bool) -> str | None: ...
def text(body: dict[str, Any], name: str, *, names: str = "a card", message: str | None = None,
         required: bool = True) -> str | None:
    """A non-empty string (None when left out and not ``required``): the refusal says what it names (``names``),
    or is ``message`` (``{name}`` in it is the field's name)."""
    value = body.get(name)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value:
        raise invalid(message.format(name=name) if message else f"\"{name}\" must name {names}.", name)
    return value


def whole(body: dict[str, Any], name: str, low: int | None = None, high: int | None = None) -> int:
    """A whole number (``true`` and ``false`` are not numbers); from ``low`` to ``high`` when both are given."""
    value = body.get(name)
    ranged = low is not None and high is not None
    if isinstance(value, bool) or not isinstance(value, int) or (
            low is not None and high is not None and not low <= value <= high):
        raise invalid(f"\"{name}\" is a whole number from {low} to {high}." if ranged
                      else f"\"{name}\" must be a whole number.", name)
    return value


def seat(state: GameState, body: dict[str, Any], name: str) -> int:
    """A seat of this game."""
    value = whole(body, name)
    if not 0 <= value < len(state.seats):
        raise invalid(f"\"{name}\" must be a seat in this game.", name)
    return value


@overload
def one_of(body: dict[str, Any], name: str, allowed: tuple[str, ...], *, required: Literal[True] = ...) -> str: ...
@overload
def one_of(body: dict[str, Any], name: str, allowed: tuple[str, ...], *, required: bool) -> str | None: ...
def one_of(body: dict[str, Any], name: str, allowed: tuple[str, ...], *, required: bool = True) -> str | None:
    """One of the ``allowed`` words; None for a field left out that is not ``required``."""
    value = body.get(name)
    if value is None and not required:
        return None
    if not isinstance(value, str) or value not in allowed:
        raise invalid(f"\"{name}\" is one of: {', '.join(allowed)}.", name)
    return value


def card_list(body: dict[str, Any], name: str) -> list[str]:
    """A non-empty list of different card ids."""
    value = body.get(name)
    if (not isinstance(value, list) or not value or not all(isinstance(card, str) for card in value)
            or len(set(value)) != len(value)):
        raise invalid(f"\"{name}\" must be a list of different cards.", name)
    return value


def absent(body: dict[str, Any], name: str, why: str) -> None:
    """A field this command must not carry."""
    if body.get(name) is not None:
        raise invalid(why, name)


# --- declared bodies: each command's fields, said once ------------------------------------------------------------
#
# A command declares its body where its handler is (``@command("play", body=Body(...))``). The declaration is the
# one source of three things: the engine's check of the body's shape before the handler runs (``Body.check``: each
# field refused with the words of the readers above), the OpenAPI schema of the command (the API turns each kind
# of field into its serializer field, help text and example) and the API's check before the game is loaded. What
# depends on the game (whose turn, which cards a player can see, a seat in range) stays the handler's to decide.

TEXT, WHOLE, SEAT, FLAG, CHOICE, LIST, OBJECT, MAP, ANY, EFFECT, ABSENT, SERVER = (
    "text", "whole", "seat", "flag", "choice", "list", "object", "map", "any", "effect", "absent", "server")


@dataclass(frozen=True)
class Field:
    """One field of a command's body: its ``kind`` (one of the words above), the ``help`` shown to client authors,
    whether it is ``required`` and may be ``null``; for text its length, ``pattern``, whether it may be ``blank``
    and is ``trim``-med; for numbers ``low`` and ``high``; for a choice its ``choices``; for a list its ``item``
    and length (``low``/``high``) and whether its items are ``unique``; for an object its ``fields`` (``closed``:
    no others; ``at_least_one``: not empty), its schema ``name`` and what it is (``doc``); ``refusal``: the engine's words for a wrong
    value (``{name}`` is the field); ``check``: a last test of the value, raising ``DomainError`` or ValueError."""

    kind: str
    help: str = ""
    required: bool = True
    null: bool = False
    low: int | None = None
    high: int | None = None
    pattern: str | None = None
    blank: bool = False
    trim: bool = False
    choices: tuple[str, ...] = ()
    item: Field | None = None
    unique: bool = False
    fields: Mapping[str, Field] = dataclass_field(default_factory=dict)
    closed: bool = True
    at_least_one: bool = False
    name: str = ""
    doc: str = ""
    refusal: str = ""
    check: Callable[[Any], Any] | None = None

    def refuse(self, name: str, message: str | None = None) -> DomainError:
        return invalid((message or self.refusal or _REFUSALS[self.kind](self)).replace("{name}", name), name)

    def checked(self, name: str, value: Any) -> None:
        """Refuse ``value`` (present in the body) unless it is of this field's kind."""
        if value is None:
            if not self.null and self.kind not in (ANY, EFFECT, ABSENT, SERVER):
                raise self.refuse(name)
            return
        kind = self.kind
        if kind == ABSENT:
            raise self.refuse(name)
        if kind == SERVER:
            return
        if kind == EFFECT and not isinstance(value, list):  # its words are checked where it is kept
            raise self.refuse(name)
        if kind == TEXT:
            if not isinstance(value, str):
                raise self.refuse(name)
            measured = value.strip() if self.trim else value
            if (not measured and not self.blank) or (self.high is not None and len(value) > self.high) or (
                    self.low is not None and measured and len(measured) < self.low) or (
                    self.pattern is not None and not _compiled(self.pattern).fullmatch(value)):
                raise self.refuse(name)
        elif kind in (WHOLE, SEAT):
            if isinstance(value, bool) or not isinstance(value, int) or (
                    self.low is not None and value < self.low) or (self.high is not None and value > self.high):
                raise self.refuse(name)
        elif kind == FLAG:
            if not isinstance(value, bool):
                raise self.refuse(name)
        elif kind == CHOICE:
            if not isinstance(value, str) or value not in self.choices:
                raise self.refuse(name)
        elif kind == LIST:
            if not isinstance(value, list) or (self.low is not None and len(value) < self.low) or (
                    self.high is not None and len(value) > self.high):
                raise self.refuse(name)
            if self.unique and len({repr(item) for item in value}) != len(value):
                raise self.refuse(name)
            if self.item is not None:
                for index, item in enumerate(value):
                    try:
                        self.item.checked(f"{name}[{index}]", item)
                    except DomainError:
                        raise self.refuse(name) from None
        elif kind == OBJECT:
            if not isinstance(value, dict):
                raise self.refuse(name)
            check_fields(self.fields, value, prefix=f"{name}.", closed=self.closed)
            if self.at_least_one and not value:
                raise self.refuse(name, "\"{name}\" must change at least one field.")
        elif kind == MAP:
            if not isinstance(value, dict):
                raise self.refuse(name)
        if self.check is not None:
            try:
                self.check(value)
            except ValueError as error:
                raise invalid(str(error), name) from None


_PATTERNS: dict[str, re.Pattern[str]] = {}


def _compiled(pattern: str) -> re.Pattern[str]:
    compiled = _PATTERNS.get(pattern)
    if compiled is None:
        compiled = _PATTERNS[pattern] = re.compile(pattern)
    return compiled


_REFUSALS: dict[str, Callable[[Field], str]] = {
    TEXT: lambda field: "\"{name}\" must be text" + (f" of at most {field.high} characters." if field.high else "."),
    WHOLE: lambda field: ("\"{name}\" is a whole number from " f"{field.low} to {field.high}."
                          if field.low is not None and field.high is not None else
                          "\"{name}\" must be a whole number" + (f" of at least {field.low}." if field.low is not None
                                                                 else ".")),
    SEAT: lambda field: "\"{name}\" must be a seat in this game.",
    FLAG: lambda field: "\"{name}\" must be true or false.",
    CHOICE: lambda field: "\"{name}\" is one of: " + ", ".join(field.choices) + ".",
    LIST: lambda field: "\"{name}\" must be a list" + (" of different values." if field.unique else "."),
    OBJECT: lambda field: "\"{name}\" must be an object.",
    MAP: lambda field: "\"{name}\" must be an object.",
    ANY: lambda field: "\"{name}\" is not valid.",
    EFFECT: lambda field: "\"{name}\" must be an effect.",
    ABSENT: lambda field: "\"{name}\" does not belong in this command.",
    SERVER: lambda field: "\"{name}\" is the server's to give.",
}


def check_fields(fields: Mapping[str, Field], body: dict[str, Any], *, prefix: str = "", closed: bool = False) -> None:
    """Refuse a body (or an object inside one) whose fields are not as declared."""
    for name, field in fields.items():
        if name not in body:
            if field.required:
                raise field.refuse(prefix + name)
            continue
        field.checked(prefix + name, body[name])
    if closed:
        unknown = sorted(set(body) - set(fields))
        if unknown:
            raise invalid(f"\"{prefix}{unknown[0]}\" is not a field of this object.", prefix + unknown[0])


@dataclass(frozen=True)
class Body:
    """A command's body: ``doc`` (what the command does, for client authors), its ``fields`` (``type`` is implied),
    ``examples`` (bodies without ``type``; the first is the one shown first), and ``check``: a test of the body
    as a whole once every field passed (raising ``DomainError`` or ValueError). A body whose shape depends on one
    of its fields (a proposal's ``kind``) is ``Body.by("kind", {...})``: each value of the field names its own
    body."""

    doc: str = ""
    fields: Mapping[str, Field] = dataclass_field(default_factory=dict)
    examples: tuple[dict[str, Any], ...] = ({},)
    check: Callable[[dict[str, Any]], Any] | None = None
    by: str = ""
    variants: Mapping[str, Body] = dataclass_field(default_factory=dict)

    @classmethod
    def on(cls, field: str, variants: Mapping[str, Body], doc: str = "") -> Body:
        return cls(doc=doc, by=field, variants=dict(variants), examples=())

    def checked(self, body: dict[str, Any]) -> None:
        """Refuse (400 ``invalid``, naming the field) a body that is not as declared."""
        if self.by:
            chosen = body.get(self.by)
            variant = self.variants.get(chosen) if isinstance(chosen, str) else None
            if variant is None:
                raise invalid(f"\"{self.by}\" is one of: {', '.join(self.variants)}.", self.by)
            variant.checked(body)
            return
        check_fields(self.fields, body)
        if self.check is not None:
            try:
                self.check(body)
            except ValueError as error:
                raise invalid(str(error), "non_field_errors") from None


# --- declaring fields ---------------------------------------------------------------------------------------------


def text_field(help: str = "", *, required: bool = True, null: bool = False, blank: bool = False,
               low: int | None = None, high: int | None = None, pattern: str | None = None, trim: bool = False,
               refusal: str = "", check: Callable[[Any], Any] | None = None) -> Field:
    return Field(TEXT, help, required, null, low=low, high=high, pattern=pattern, blank=blank, trim=trim,
                 refusal=refusal, check=check)


def card_field(help: str = "A card's id, as the state shows it to you.", *, required: bool = True,
               names: str = "a card") -> Field:
    """A card's id (a non-empty string), refused as ``text`` refuses it."""
    return Field(TEXT, help, required, refusal="\"{name}\" must name " + names + ".")


def whole_field(help: str = "", *, required: bool = True, null: bool = False, low: int | None = None,
                high: int | None = None, refusal: str = "") -> Field:
    return Field(WHOLE, help, required, null, low=low, high=high, refusal=refusal)


def seat_field(help: str = "A seat number (0 is the first player).", *, required: bool = True,
               null: bool = False) -> Field:
    """A seat of the game: a whole number from 0 (the handler checks it is a seat of this game)."""
    return Field(SEAT, help, required, null, low=0)


def flag_field(help: str = "", *, required: bool = True) -> Field:
    return Field(FLAG, help, required)


def choice_field(choices: tuple[str, ...], help: str = "", *, required: bool = True) -> Field:
    return Field(CHOICE, help, required, choices=tuple(choices))


def list_field(item: Field | None, help: str = "", *, required: bool = True, low: int | None = None,
               high: int | None = None, unique: bool = False, refusal: str = "") -> Field:
    return Field(LIST, help, required, item=item, low=low, high=high, unique=unique, refusal=refusal)


def cards_field(help: str = "Different cards.", *, required: bool = True) -> Field:
    """A non-empty list of different card ids, refused as ``card_list`` refuses it."""
    return Field(LIST, help, required, item=card_field(), low=1, unique=True,
                 refusal="\"{name}\" must be a list of different cards.")


def object_field(name: str, fields: Mapping[str, Field], help: str = "", *, doc: str = "", required: bool = True,
                 null: bool = False, at_least_one: bool = False) -> Field:
    """A closed object (no fields but its own), shown in the schema as the component ``name`` that ``doc``
    describes."""
    return Field(OBJECT, help, required, null, fields=dict(fields), at_least_one=at_least_one, name=name, doc=doc)


def map_field(help: str = "", *, required: bool = True, null: bool = False) -> Field:
    """An object of any keys and values."""
    return Field(MAP, help, required, null)


def any_field(help: str = "", *, required: bool = True) -> Field:
    return Field(ANY, help, required, null=True)


def effect_field(help: str = "", *, required: bool = False) -> Field:
    """An effect in the effect language (its JSON list) or null, checked where it is kept."""
    return Field(EFFECT, help, required, null=True)


def server_field(why: str) -> Field:
    """A field the server's own routes put in a command (the join endpoint's checked player deck) and a client's
    body must not carry: the engine takes it; the API refuses it in a client's body, ``why`` saying where it
    comes from instead."""
    return Field(SERVER, why, required=False, refusal=why)


def absent_field(why: str) -> Field:
    """A field this command must not carry: ``why`` says where it belongs instead."""
    return Field(ABSENT, why, required=False, refusal=why)
