"""Domain errors: a refused command raises one of these and produces no events.

The HTTP layer turns them into API.md's error shape with ``status``; the engine itself knows nothing of HTTP
beyond this one table.
"""

from __future__ import annotations

from typing import Any

STATUS_BY_CODE: dict[str, int] = {
    "invalid": 400,
    "unknown_command": 400,
    "forbidden": 403,
    "not_found": 404,
    "not_your_turn": 409,
    "wrong_stage": 409,
    "limit_reached": 409,
    "card_not_in_hand": 409,
    "vote_in_progress": 409,
    "game_not_active": 409,
    "game_not_open": 409,
    "not_enough_players": 409,
    "not_enough_cards": 409,
    "already_seated": 409,
    "eliminated": 409,
    "denied": 409,
}


class DomainError(Exception):
    """A command the rules refuse. ``code`` is API.md's snake_case code, ``message`` a sentence for a person."""

    def __init__(self, code: str, message: str, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details or {}

    @property
    def status(self) -> int:
        return STATUS_BY_CODE.get(self.code, 409)

    def __repr__(self) -> str:
        return f"DomainError({self.code!r}, {self.message!r})"
