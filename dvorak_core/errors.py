"""Domain errors: the one hierarchy that the engine, the services and the apps raise.

A refused command or request raises one of these and changes nothing. Each has API.md's snake_case ``code``, a
``message`` for a person, optional ``details``, and the HTTP ``status`` the API's one exception handler answers
with. A subclass fixes its code and status (``NotFound``); a ``DomainError`` given only a ``code`` takes the
status that code has in ``STATUS_BY_CODE`` (the engine's codes), else the class's own.
"""

from __future__ import annotations

from typing import Any

# The codes the rules engine refuses commands with. A refusal of the rules is a conflict with the game's state
# (409) unless the command itself is malformed (400), forbidden (403) or names nothing (404).
STATUS_BY_CODE: dict[str, int] = {
    "invalid": 400,
    "unknown_command": 400,
    "forbidden": 403,
    "not_invited": 403,
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
    "card_data_missing": 409,
    "not_citable": 409,
    "effect_not_allowed": 409,
    "win_condition_not_met": 409,
    "clock_running": 409,
    "undo_not_possible": 409,
}


class DomainError(Exception):
    code = "invalid"
    status = 400

    def __init__(self, message: str, *, code: str | None = None, status: int | None = None,
                 details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        if status is not None:
            self.status = status
        elif code is not None and type(self) is DomainError:
            self.status = STATUS_BY_CODE.get(code, DomainError.status)
        self.details = details or {}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r}, code={self.code!r})"


class NotFound(DomainError):
    code, status = "not_found", 404


class Forbidden(DomainError):
    code, status = "forbidden", 403


class Conflict(DomainError):
    code, status = "conflict", 409


class VersionConflict(DomainError):
    """The caller's expected version of a stream is not the current one."""

    code, status = "version_conflict", 412


class IdempotencyKeyReused(DomainError):
    """An Idempotency-Key sent again with another request than the one it first came with."""

    code, status = "idempotency_key_reused", 422


class DeckLocked(DomainError):
    code, status = "deck_locked", 423
