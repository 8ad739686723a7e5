"""Domain errors of the application layer. The API's one exception handler turns them into JSON errors.

A domain error is a small class with a ``code`` (API.md's snake_case codes) and the HTTP ``status`` it maps
to. The engine (``games.engine``) has its own ``DomainError`` with the same two attributes, so it needs no
Django import; the handler accepts both.
"""


class DomainError(Exception):
    code = "invalid"
    status = 400

    def __init__(self, message: str, *, code: str | None = None, status: int | None = None, details: dict | None = None):
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        if status is not None:
            self.status = status
        self.details = details or {}


class NotFound(DomainError):
    code, status = "not_found", 404


class Forbidden(DomainError):
    code, status = "forbidden", 403


class Conflict(DomainError):
    code, status = "conflict", 409


class VersionConflict(DomainError):
    """The caller's expected version of a stream is not the current one."""

    code, status = "version_conflict", 412


class DeckLocked(DomainError):
    code, status = "deck_locked", 423
