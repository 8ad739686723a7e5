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


@dataclass(frozen=True)
class Actor:
    """Who sends a command; the seat is looked up in the game's state."""

    user_id: int
    username: str
