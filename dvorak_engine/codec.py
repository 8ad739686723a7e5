"""Frozen dataclass states to JSON and back, for snapshots, by the states' own type hints.

A ruleset's state needs no code of its own to be snapshotted: tuples, dicts, nested dataclasses, optional values
and plain JSON values are read back as the type hints say (a ``dict[str, X]``'s keys are strings in JSON).

A field added to a state after games were stored is marked ``ADDED`` in its metadata
(``visibility.public(..., added=True)``): a snapshot without it reads it as its default, and ``to_json_as_before`` writes a
state leaving it out while it holds its default, so a game that never used it is written byte for byte as it was
before the field was added (how the recorded streams are compared).
"""

from __future__ import annotations

import collections.abc
import dataclasses
import types
import typing
from collections.abc import Callable
from functools import cache
from typing import Any

from dvorak_engine.values import plain_fields

ADDED = "codec.added"


def to_json_as_before(value: Any) -> Any:
    """``to_json``, but for the fields marked ``ADDED`` that hold their default, which are left out."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json_as_before(getattr(value, f.name)) for f in dataclasses.fields(value)
                if not (f.metadata.get(ADDED) and getattr(value, f.name) == _default_of(f))}
    if isinstance(value, tuple | list):
        return [to_json_as_before(item) for item in value]
    if isinstance(value, dict):
        return {key: to_json_as_before(item) for key, item in value.items()}
    return value


def _default_of(field: dataclasses.Field[Any]) -> Any:
    if field.default is not dataclasses.MISSING:
        return field.default
    factory = field.default_factory
    assert callable(factory), f"{field.name} has neither a default nor a default factory"
    return factory()


def to_json(value: Any) -> Any:
    """``value`` as JSON: a dataclass as an object of its fields, tuples and lists as arrays, dicts as objects."""
    encode = _ENCODERS.get(type(value))
    if encode is None:
        encode = _encoder(type(value))
    return encode(value)


def _encoder(cls: type) -> Callable[[Any], Any]:
    """How a value of type ``cls`` is written, worked out once per type: a snapshot of a game of a few hundred
    cards holds tens of thousands of values, and asking each whether it is a dataclass, and for its fields, cost
    more than writing it."""
    if dataclasses.is_dataclass(cls):
        names = tuple(f.name for f in dataclasses.fields(cls))

        def encode(value: Any) -> Any:
            return {name: to_json(getattr(value, name)) for name in names}
    elif issubclass(cls, tuple | list):
        def encode(value: Any) -> Any:
            return [to_json(item) for item in value]
    elif issubclass(cls, dict):
        def encode(value: Any) -> Any:
            return {key: to_json(item) for key, item in value.items()}
    else:
        encode = _same
    _ENCODERS[cls] = encode
    return encode


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def from_json(hint: Any, value: Any) -> Any:
    """``value`` (JSON) read as the type ``hint`` says."""
    return _decoder(hint)(value)


def _same(value: Any) -> Any:
    return value


@cache
def _decoder(hint: Any) -> Callable[[Any], Any]:
    """A function reading JSON as ``hint`` says, built once per type: a snapshot is read without looking at
    type hints again for every value in it."""
    if hint is Any:
        return _same
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        return _optional(_decoder(options[0])) if len(options) == 1 else _same
    if origin is tuple:
        args = typing.get_args(hint)
        item = _decoder(args[0] if args else Any)
        if item is _same:
            return lambda value: None if value is None else tuple(value)
        return lambda value: None if value is None else tuple([item(v) for v in value])
    if origin in (dict, collections.abc.Mapping) or hint is dict:
        args = typing.get_args(hint)
        item = _decoder(args[1] if len(args) == 2 else Any)
        if item is _same:
            return _same
        return lambda value: None if value is None else {key: item(v) for key, v in value.items()}
    if origin is list:
        args = typing.get_args(hint)
        item = _decoder(args[0] if args else Any)
        if item is _same:
            return _same
        return lambda value: None if value is None else [item(v) for v in value]
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _dataclass_decoder(hint)
    return _same


def _optional(decode: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda value: None if value is None else decode(value)


def _dataclass_decoder(cls: type) -> Callable[[Any], Any]:
    """Reads a dataclass: a key it does not have is ignored, a field missing from the JSON takes its default.
    A plain frozen dataclass (see ``values``) holding every field is built by its ``__dict__``, as ``replace``
    copies one, without running ``__init__``: only its fields that are not plain JSON are converted."""
    built: list[tuple[Any, ...]] = []

    def build() -> tuple[Any, ...]:
        hints = _hints(cls)
        decoders = [(f.name, _decoder(hints[f.name])) for f in dataclasses.fields(cls)]
        names = tuple(name for name, _ in decoders)
        converted = tuple((name, item) for name, item in decoders if item is not _same)
        return decoders, names, frozenset(names), converted, plain_fields(cls) is not None

    def decode(value: Any) -> Any:
        if value is None:
            return None
        if not built:  # built on first use: a dataclass may name itself in its hints
            # Whole, then added: threads that meet the type first at once each build it and add theirs; the first
            # added is used by all (they are alike).
            built.append(build())
        decoders, names, name_set, converted, plain = built[0]
        if plain:
            if value.keys() == name_set:  # every field and nothing else, as the codec writes it: copied whole
                fields = value.copy()
            else:
                fields = {name: value[name] for name in names if name in value}
            if len(fields) == len(names):  # else a field is missing: its default, through __init__
                for name, item in converted:
                    fields[name] = item(fields[name])
                new: Any = object.__new__(cls)
                _set(new, "__dict__", fields)
                return new
        return cls(**{name: item(value[name]) for name, item in decoders if name in value})

    return decode


_set = object.__setattr__
_ENCODERS: dict[type, Callable[[Any], Any]] = {}
