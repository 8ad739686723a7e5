"""The values that cross the engine's boundary: events it emits and the actor who sends a command."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    """Something that happened in a game. ``type`` is a stable string (``card.drawn``), ``data`` plain JSON."""

    type: str
    data: dict[str, Any] = field(default_factory=dict)
    schema: int = 1


_new = object.__new__


def stored_event(type_: str, data: dict[str, Any], schema: int = 1) -> Event:
    """``Event(type_, data, schema)``, the same value, built by its ``__dict__`` without the frozen ``__init__``'s
    three guarded assignments: how a replay makes thousands of events from the store's rows."""
    event = _new(Event)
    fields = event.__dict__
    fields["type"] = type_
    fields["data"] = data
    fields["schema"] = schema
    return event


@dataclass(frozen=True)
class Actor:
    """Who sends a command; the seat is looked up in the game's state."""

    user_id: int
    username: str
