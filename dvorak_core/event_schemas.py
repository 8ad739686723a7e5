"""Event types by stable name, with their current schema number and the upcasters that bring old ones up.

An event's ``type`` is a stable string (``card.drawn``), never a class path, so renaming code never breaks
replay. When the shape of an event's data changes, its schema number goes up and an upcaster from the old
number is registered (``@upcaster(type, from_schema)``, beside the code that writes the new shape); stored rows are
never rewritten. The engine writes each event with its type's current schema (``dvorak_engine.game``), and the
event store brings every row it reads up to it (``dvorak_kit.eventstore.store``): both ask this one registry.
"""

from collections.abc import Callable
from typing import Any

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]

_current_schema: dict[str, int] = {}
_upcasters: dict[tuple[str, int], Upcaster] = {}


class UnknownSchema(Exception):
    pass


def register_event_type(type_: str, schema: int = 1) -> None:
    _current_schema[type_] = max(schema, _current_schema.get(type_, 1))


def current_schema(type_: str) -> int:
    return _current_schema.get(type_, 1)


def upcaster(type_: str, from_schema: int) -> Callable[[Upcaster], Upcaster]:
    """Register ``fn(data) -> data`` turning schema ``from_schema`` of ``type_`` into ``from_schema + 1``."""

    def register(fn: Upcaster) -> Upcaster:
        _upcasters[(type_, from_schema)] = fn
        register_event_type(type_, from_schema + 1)
        return fn

    return register


def upcast(type_: str, schema: int, data: dict) -> tuple[int, dict]:
    target = current_schema(type_)
    while schema < target:
        step = _upcasters.get((type_, schema))
        if step is None:
            raise UnknownSchema(f"no upcaster for {type_} schema {schema}")
        data = step(data)
        schema += 1
    return schema, data
