"""The state of one game, as the core keeps it for every ruleset: the envelope around the ruleset's own state.

The core knows who sits where (``seats``), whether the game is open, being played, stopped for a vote or over
(``status``; a game is over once won, or abandoned by its players' agreement with no winner: ``OVER``; an open
game its creator called off is ``cancelled``), how many
events made it (``version``), who won (``winners``) and the game's ``options``. During a step of simultaneous
moves it also holds the seats asked to choose (``choosing``) and the secret choices made so far (``choices``),
which no viewer but the seat that chose ever sees. Everything else belongs to the ruleset: its own frozen
dataclass, in ``table``.

States are frozen values: code that changes one builds a new one (``dataclasses.replace``), so every old state
stays valid (replay, views of the state before an event, snapshots).
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any

from dvorak_engine.values import replace, replace_inner
from dvorak_engine.visibility import Seen, derived, public

OPEN, ACTIVE, VOTING, FINISHED, ABANDONED = "open", "active", "voting", "finished", "abandoned"
# A game called off before it started (its creator cancelled it, or left it): never played, so not ``OVER``.
CANCELLED = "cancelled"
STATUSES = (OPEN, ACTIVE, VOTING, FINISHED, ABANDONED, CANCELLED)
# The statuses of a game that is over: ``finished`` (someone won: ``winners``) or ``abandoned`` (given up by its
# players' agreement, "through stalemate or boredom": no winner). Either opens a creative game's Aftermath.
OVER = (FINISHED, ABANDONED)
PLAYING, ELIMINATED = "playing", "eliminated"


@dataclass(frozen=True)
class Seat:
    """A player of the game: seat numbers go from 0 in order of joining. ``team`` is None for a player without
    one; ``status`` is ``playing`` or ``eliminated``."""

    # `public()` with no default declares none, but mypy takes any call here for a default: hence the ignore.
    seat: int = public()
    user_id: int  # type: ignore[misc]  # the server's own key of the player: no viewer sees it (the username names them)
    username: str = public()
    team: str | None = public(None)
    status: str = public(PLAYING)
    # A computer player's level (``random`` or ``greedy``), None for a person: seated by the game's creator.
    bot: str | None = public(None, added=True)


@dataclass(frozen=True)
class GameState:
    ruleset: str = public()
    table: Any = public(None)
    status: str = public(OPEN)
    version: int = public(0)
    max_players: int = public(2)
    options: dict[str, Any] = public(default_factory=dict)
    seats: tuple[Seat, ...] = public(())
    winners: tuple[int, ...] = public(())
    # Simultaneous moves: the seats asked for a secret choice, and the choices made so far (seat as a string;
    # undeclared: the core's view shows each seat its own).
    choosing: tuple[int, ...] = public(())
    choices: dict[str, Any] = dataclass_field(default_factory=dict)
    # Whether its players may leave it while it is open, and its creator cancel it, by listed moves: games created
    # since (``game.created``'s ``may_leave``). A game created before lists its open table's moves as it did.
    may_leave: bool = public(False, added=True)
    # The clock of a game created with ``options.clock`` (``dvorak_engine.clock``): each waited-on seat's deadline
    # (seconds since the epoch, by seat as a string), and under a bank clock each seat's bank of seconds. Set only
    # by events (the clock a command's last event carries, ``clock.expired``): replay never reads a clock.
    deadlines: dict[str, float] = public(default_factory=dict, added=True)
    banks: dict[str, float] = public(default_factory=dict, added=True)
    # A request to take the game back (``dvorak_engine.undo``): {"to": version, "by": seat, "accepted": [seats]}.
    undo: dict[str, Any] = public(default_factory=dict, added=True)
    # The usernames invited to the game (``POST /games/``'s ``invite``); with ``options.invite_only`` only they
    # may join.
    invited: tuple[str, ...] = public((), added=True)

    @derived
    def chosen(self) -> tuple[int, ...]:
        """The seats asked for a secret choice that have made it: who has chosen is seen by everyone (the core's
        view lists them under ``choices.made``), what they chose only by themselves."""
        return tuple(seat for seat in self.choosing if str(seat) in self.choices)

    @derived
    def seat(self, number: int) -> Seat:
        return self.seats[number]

    def with_seat(self, seat: Seat) -> GameState:
        seats = list(self.seats)
        seats[seat.seat] = seat
        return replace(self, seats=tuple(seats))

    def with_table(self, **changes: Any) -> GameState:
        """The state with these fields of the ruleset's own state changed."""
        return replace_inner(self, "table", **changes)


def seat_of(state: GameState | None, user_id: int) -> int | None:
    if state is None:
        return None
    return next((s.seat for s in state.seats if s.user_id == user_id), None)


def seats_standing(state: GameState) -> list[int]:
    """The seats still in the game."""
    return [s.seat for s in state.seats if s.status == PLAYING]


# --- Teams ------------------------------------------------------------------------------------------------


def team_mates(state: GameState, seat: int) -> list[int]:
    """The other players of ``seat``'s team (none for a player without a team)."""
    team = state.seat(seat).team
    if team is None:
        return []
    return [s.seat for s in state.seats if s.team == team and s.seat != seat]


def opponents(state: GameState, seat: int) -> list[int]:
    """The players still in the game who are not ``seat`` and not its team-mates: team-mates are not opponents
    of one another."""
    mates = set(team_mates(state, seat))
    return [s for s in seats_standing(state) if s != seat and s not in mates]


def teams(state: GameState | Seen) -> dict[str, list[int]]:
    """Each team's name and seats, in order of joining."""
    found: dict[str, list[int]] = {}
    for seat in state.seats:
        if seat.team is not None:
            found.setdefault(seat.team, []).append(seat.seat)
    return found


def winning_seats(state: GameState, seats: list[int]) -> list[int]:
    """A player's win is their team's: every seat of each winner's team wins with them."""
    winners = set(seats)
    for seat in seats:
        winners.update(team_mates(state, seat))
    return sorted(winners)
