"""The shapes of the answers a client handles most (docs/api.md has every one); anything else is a plain dict.

Version 1 of the API only grows: a client should ignore fields it does not know, so these are ``total=False``
where the server may add to them.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict


class Event(TypedDict):
    """One event of a game, shown as the reader may see it (docs/api.md, Events)."""

    version: int
    type: str
    actor: str | None
    at: str
    data: dict[str, Any]


class Moves(TypedDict):
    """``GET /games/{id}/moves/``: the commands you may send now, at ``version``. A field may hold a choice,
    ``{"choose": k, "from": [...], "list": bool}`` (``dvorak_client.fill`` makes it)."""

    version: int
    moves: list[dict[str, Any]]


class CommandResult(TypedDict):
    """The answer to a command: the game's version after it and the events it appended."""

    version: int
    events: list[Event]


class AccountLine(TypedDict, total=False):
    """One line of ``GET /account/stream/``. Every line has ``type``; the rest depends on it:

    - ``invited``: ``game``, ``ruleset``, ``by`` (who invited you), ``version``;
    - ``game_started``, ``your_turn``: ``game``, ``ruleset``, ``seat`` (yours), ``version``;
    - ``game_finished``: ``game``, ``ruleset``, ``status``, ``winners`` (seats), ``version``;
    - ``notice``: ``notice``, as ``GET /notifications/`` shows one.
    """

    type: Literal["invited", "game_started", "your_turn", "game_finished", "notice"] | str
    game: str
    ruleset: str
    by: str
    seat: int
    status: str
    winners: list[int]
    version: int
    notice: dict[str, Any]
