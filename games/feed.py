"""The account feed's game lines (``GET /api/v1/account/stream/``): what a player needs to know of their games
without watching each one: an invitation, a game of theirs started, a game waiting on them, a game over.

Lines are made after every committed command (``after_commit``, a ``services.AFTER_COMMIT`` hook) from the game as
it was and as it is, each for one player and sent to that player's group alone (``dvorak_kit.feed``); and, for an
account stream that opens or finds Redis back after an outage, from what is true now (``lines_now``). A line says
only what its player may see anyway: a game's id, ruleset and version, their own seat, the winners.

"Waiting on them" is ``Ruleset.awaited``: their turn, a vote, a choice, an answer the game needs from them (whom
a clock runs for). A ``your_turn`` line is sent when a command leaves a player awaited who was not before it, or
when their own command leaves them awaited still (a turn of several moves: the next one is theirs again).
Computer players' seats get no lines: the server plays them.
"""

from __future__ import annotations

from typing import Any

from dvorak_engine.rulesets import get_ruleset
from dvorak_engine.state import ACTIVE, CANCELLED, OPEN, OVER, VOTING
from dvorak_kit.feed import tell
from games import invitations, services
from games.models import Game


def awaited(state: Any) -> tuple[int, ...]:
    """The seats the game waits on now (none unless it is being played)."""
    if state is None or state.status not in (ACTIVE, VOTING):
        return ()
    return get_ruleset(state.ruleset).awaited(state)


def being_played(state: Any, waiting: tuple[int, ...]) -> bool:
    """Started and not over: ``active``, or ``voting`` on something the game waits for (``waiting``, its awaited
    seats): a vote before the start, or in a creative game's Aftermath, holds up no one."""
    return state.status == ACTIVE or (state.status == VOTING and bool(waiting))


def started_line(game_id: Any, ruleset: str, seat: int, version: int) -> dict[str, Any]:
    return {"type": "game_started", "game": str(game_id), "ruleset": ruleset, "seat": seat, "version": version}


def turn_line(game_id: Any, ruleset: str, seat: int, version: int) -> dict[str, Any]:
    return {"type": "your_turn", "game": str(game_id), "ruleset": ruleset, "seat": seat, "version": version}


def finished_line(game_id: Any, state: Any, version: int) -> dict[str, Any]:
    return {"type": "game_finished", "game": str(game_id), "ruleset": state.ruleset, "status": state.status,
            "winners": list(state.winners), "version": version}


def after_commit(committed: services.Committed) -> None:
    """After every command (``services.AFTER_COMMIT``): each player it concerns told, on their own group."""
    for user_id, line in lines_after(committed):
        tell(user_id, line)


def lines_after(committed: services.Committed) -> list[tuple[int, dict[str, Any]]]:
    """The lines a committed command makes, each with the user it is for."""
    before, state = committed.before, committed.state
    if before is None or committed.new_version == committed.version:
        return []  # a game just created has nobody to tell yet (its invitations are sent with their notices)
    people = [seat for seat in state.seats if not seat.bot]
    if not people:
        return []
    game_id, ruleset, version = committed.game_id, state.ruleset, committed.new_version
    waited, waiting = awaited(before), awaited(state)
    lines = []
    if before.status == OPEN and being_played(state, waiting):
        lines += [(seat.user_id, started_line(game_id, ruleset, seat.seat, version)) for seat in people]
    if being_played(state, waiting):
        lines += [(seat.user_id, turn_line(game_id, ruleset, seat.seat, version)) for seat in people
                  if seat.seat in waiting and (seat.seat not in waited or seat.username == committed.actor)]
    elif (state.status in OVER and being_played(before, waited)) or (
            state.status == CANCELLED and before.status != CANCELLED):
        lines += [(seat.user_id, finished_line(game_id, state, version)) for seat in people]
    return lines


def lines_now(user) -> list[dict[str, Any]]:
    """What is true now for ``user``, as lines: every open game they are invited to and have not joined, every game
    of theirs being played (``game_started``), then every one that waits on them (``your_turn``)."""
    lines: list[dict[str, Any]] = []
    invited = invitations.games_invited_to(user)
    if invited:
        open_games = (Game.objects.filter(pk__in=invited, status=OPEN).exclude(seats__user=user)
                      .select_related("created_by").order_by("created_at"))
        lines += [invitations.invited_line(game, game.created_by.get_username()) for game in open_games]
    turns = []
    for game in Game.objects.filter(seats__user=user, status__in=(ACTIVE, VOTING)).order_by("created_at"):
        state = services.state_at(game.stream_id, game.version)
        seat = next((seat.seat for seat in state.seats if seat.user_id == user.pk), None)
        waiting = awaited(state)
        if seat is None or not being_played(state, waiting):
            continue
        lines.append(started_line(game.id, game.ruleset, seat, game.version))
        if seat in waiting:
            turns.append(turn_line(game.id, game.ruleset, seat, game.version))
    return lines + turns
