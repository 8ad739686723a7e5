"""Frozen dataclass states to JSON and back, for snapshots, by the states' own type hints.

A ruleset's state needs no code of its own to be snapshotted: tuples, dicts, nested dataclasses, optional values
and plain JSON values are read back as the type hints say (a ``dict[str, X]``'s keys are strings in JSON).
"""

from __future__ import annotations

import collections.abc
import dataclasses
import types
import typing
from functools import cache
from typing import Any


def to_json(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [to_json(item) for item in value]
    if isinstance(value, dict):
        return {key: to_json(item) for key, item in value.items()}
    return value


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def from_json(hint: Any, value: Any) -> Any:
    """``value`` (JSON) read as the type ``hint`` says."""
    if value is None or hint is Any:
        return value
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        return from_json(options[0], value) if len(options) == 1 else value
    if origin is tuple:
        args = typing.get_args(hint)
        item = args[0] if args else Any
        return tuple(from_json(item, v) for v in value)
    if origin in (dict, collections.abc.Mapping) or hint is dict:
        args = typing.get_args(hint)
        item = args[1] if len(args) == 2 else Any
        return {key: from_json(item, v) for key, v in value.items()}
    if origin is list:
        args = typing.get_args(hint)
        return [from_json(args[0] if args else Any, v) for v in value]
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        hints = _hints(hint)
        return hint(**{f.name: from_json(hints[f.name], value[f.name])
                       for f in dataclasses.fields(hint) if f.name in value})
    return value
