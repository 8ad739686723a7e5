"""A fast ``dataclasses.replace`` for the engine's frozen states.

Folding an event builds new states from old ones, a few ``replace`` calls an event; the standard one re-runs
``__init__`` through keyword arguments and costs most of a replay. A frozen dataclass that has no
``__post_init__``, no ``__slots__`` and only ``init`` fields is fully described by its ``__dict__``, so its copy
is the old ``__dict__`` with the changes laid over it: the same value ``dataclasses.replace`` returns, and
an unknown field name is still refused with TypeError. Any other class goes through ``dataclasses.replace``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

_FIELDS: dict[type, frozenset[str] | None] = {}


def _plain_fields(cls: type) -> frozenset[str] | None:
    """The field names of a dataclass that may be copied by its ``__dict__``, or None when it may not."""
    if cls in _FIELDS:
        return _FIELDS[cls]
    fields = dataclasses.fields(cls)
    plain = (not hasattr(cls, "__post_init__") and "__slots__" not in cls.__dict__
             and all(f.init and f._field_type is dataclasses._FIELD for f in fields))  # noqa: SLF001
    names = frozenset(f.name for f in fields) if plain else None
    _FIELDS[cls] = names
    return names


def replace(obj: Any, /, **changes: Any) -> Any:
    cls = type(obj)
    names = _FIELDS.get(cls, False)
    if names is False:
        names = _plain_fields(cls)
    if names is None:
        return dataclasses.replace(obj, **changes)
    fields = obj.__dict__.copy()
    fields.update(changes)
    if len(fields) != len(obj.__dict__):  # a name that is not a field was added
        unknown = sorted(changes.keys() - names)[0]
        raise TypeError(f"{cls.__name__}.__init__() got an unexpected keyword argument {unknown!r}")
    new = object.__new__(cls)
    _set(new, "__dict__", fields)
    return new


_set = object.__setattr__
