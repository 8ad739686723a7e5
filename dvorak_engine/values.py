"""A fast ``dataclasses.replace`` for the engine's frozen states.

Folding an event builds new states from old ones, a few ``replace`` calls an event; the standard one re-runs
``__init__`` through keyword arguments and costs most of a replay. A frozen dataclass that has no
``__post_init__``, no ``__slots__`` and only ``init`` fields is fully described by its ``__dict__``, so its copy
is the old ``__dict__`` with the changes laid over it: the same value ``dataclasses.replace`` returns, and
an unknown field name is still refused with TypeError. Any other class goes through ``dataclasses.replace``.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Literal, TypeVar

T = TypeVar("T")

_FIELDS: dict[type, frozenset[str] | None] = {}


def plain_fields(cls: type) -> frozenset[str] | None:
    """The field names of a dataclass that may be copied by its ``__dict__``, or None when it may not."""
    if cls in _FIELDS:
        return _FIELDS[cls]
    fields = dataclasses.fields(cls)
    # A field's kind (a plain field, not a ClassVar or an InitVar) is private to dataclasses, which has no
    # public way to ask it and no stub of these names.
    plain = (not hasattr(cls, "__post_init__") and "__slots__" not in cls.__dict__
             and all(f.init and f._field_type is dataclasses._FIELD  # type: ignore[attr-defined]  # noqa: SLF001
                     for f in fields))
    names = frozenset(f.name for f in fields) if plain else None
    _FIELDS[cls] = names
    return names


def replace(obj: T, /, **changes: Any) -> T:
    cls = type(obj)
    names: frozenset[str] | None | Literal[False] = _FIELDS.get(cls, False)
    if names is False:
        names = plain_fields(cls)
    if names is None:
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]  # obj is a dataclass instance
    fields = obj.__dict__.copy()
    count = len(fields)
    fields.update(changes)
    if len(fields) != count:  # a name that is not a field was added
        unknown = sorted(changes.keys() - names)[0]
        raise TypeError(f"{cls.__name__}.__init__() got an unexpected keyword argument {unknown!r}")
    new = _new(cls)
    _set_dict(new, "__dict__", fields)
    return new


def replace_inner(obj: T, attribute: str, /, **changes: Any) -> T:
    """``replace(obj, **{attribute: replace(getattr(obj, attribute), **changes)})`` in one call: how a state
    changes a few fields of the value it holds (the ruleset's table in the core's envelope)."""
    inner = obj.__dict__[attribute]
    cls = type(inner)
    names: frozenset[str] | None | Literal[False] = _FIELDS.get(cls, False)
    if names is False:
        names = plain_fields(cls)
    outer_names: frozenset[str] | None | Literal[False] = _FIELDS.get(type(obj), False)
    if outer_names is False:
        outer_names = plain_fields(type(obj))
    if names is None or outer_names is None:
        return replace(obj, **{attribute: replace(inner, **changes)})
    fields = inner.__dict__.copy()
    count = len(fields)
    fields.update(changes)
    if len(fields) != count:
        unknown = sorted(changes.keys() - names)[0]
        raise TypeError(f"{cls.__name__}.__init__() got an unexpected keyword argument {unknown!r}")
    new_inner = _new(cls)
    _set_dict(new_inner, "__dict__", fields)
    outer = obj.__dict__.copy()
    outer[attribute] = new_inner
    new = _new(type(obj))
    _set_dict(new, "__dict__", outer)
    return new


_new = object.__new__
_set_dict = object.__setattr__  # a frozen dataclass refuses its own __setattr__
