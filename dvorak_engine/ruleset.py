"""The contract every ruleset plugs into.

A ruleset is a module or package under ``dvorak_engine/rulesets/``, named in that package's registry, whose
``RULESET`` is an instance of a ``Ruleset`` subclass. It declares:

- ``name``, ``min_players`` and ``max_players``, the ``variants`` the API's ``"variant"`` may name (and the
  ``default_variant`` of a game whose creator names none), and ``State``:
  its own frozen dataclass, kept by the core in ``GameState.table`` beside the seats, status, version and
  winners (``dvorak_engine.state``). Its fields say who may see them (``dvorak_engine.visibility``: ``public``,
  ``owner``, ``counted``; a field described by none is seen by nobody);
- setup: ``created`` (its part of the ``game.created`` event: the deck copied in), ``joined`` (its part of a
  ``player.joined`` event), ``left`` (what a player leaving the open table takes away: ``player.left``) and
  ``setup`` (the events of ``start``: cards dealt, the first player chosen);
- its phases and its turn order, in its own state (where its view shows them) and commands; for moves
  made at once by several seats, ``request_choices`` asks seats for a secret choice, ``choose`` records one
  (seen only by its seat) and, once every seat asked has chosen, reveals them all in one event and lets the
  ruleset's ``revealed`` resolve them;
- its commands: methods marked ``@command("draw")``, ``(self, state, command, ctx) -> list[Event]``, raising
  ``DomainError`` to refuse (nothing is then appended);
- its events: methods marked ``@applies("card.drawn", shows={...})``, ``(self, state, event) -> GameState``, pure,
  returning a new state and never changing the one given; ``shows`` says which keys of the event's data each
  viewer may see (keys it does not name are seen by nobody); ``@redacts("type")`` may refine what is shown;
- when the game ends: its events set ``status`` to ``finished`` and ``winners``;
- what each viewer sees: ``shown``, made from the state as the viewer may see it (``visibility.seen``: a field
  declared for nobody, or for another seat, cannot be read), by default its state's fields as declared;
- ``deck_after_game``: the deck as the game leaves it, if the game changes or keeps one, for the archive;
- ``card_problems``: what its cards must carry (a type from its list, a value in ``stats``) that a deck's cards
  lack or carry wrongly: the archive refuses a wrong value in a deck naming the ruleset, and no game is created
  while anything is missing (409 ``card_data_missing``, every problem listed per card);
- ``takes_part(state, seat)``: whether a seated player may send commands (not once knocked out, by default);
- ``legal_moves(state, seat)``: every command the seat may send now, as complete command bodies, a choice left
  to the client written ``{"choose": k, "from": [values], "list": bool}``.

The core applies its own part of ``game.created``, ``player.joined``, ``player.left`` and the simultaneous-move
events before the ruleset's applier of the same type. Randomness is drawn only while deciding, from the ``rng`` passed in, and its
outcome is written into events.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, TypeVar

from dvorak_core.card_data import INVALID, MISSING, card_problem, cards_named
from dvorak_core.errors import DomainError
from dvorak_engine import clock, codec, visibility
from dvorak_engine.bodies import Body, flag_field, server_field, text_field, whole_field
from dvorak_engine.events import Actor, Event
from dvorak_engine.rng import Rng, SeededRng
from dvorak_engine.state import (
    ABANDONED,
    ACTIVE,
    CANCELLED,
    ELIMINATED,
    FINISHED,
    OPEN,
    VOTING,
    GameState,
    Seat,
    seat_of,
)
from dvorak_engine.values import replace
from dvorak_engine.visibility import COUNT, OWNER, PUBLIC, Shows

F = TypeVar("F", bound=Callable[..., Any])

STANDARD = "standard"
MAX_TEAM_NAME = 60  # the seat projection's column


class Past(Protocol):
    """The game's history, as the server hands it to a command that needs it (an undo): never read in replay."""

    def state(self, version: int) -> GameState: ...

    def events(self, after: int) -> list[Event]: ...


@dataclass(frozen=True)
class CommandContext:
    """Who sent a command (``seat`` is None for someone not playing), the randomness to decide it with, the time
    the server decides it at (``now``, seconds since the epoch; None where no clock is read) and the game's
    history (``past``, for an undo)."""

    actor: Actor
    seat: int | None
    rng: Rng
    now: float | None = None
    past: Past | None = None

    @property
    def player_seat(self) -> int:
        """The sender's seat, in a command only players send (``command(seated=True)``, the default), which the
        core has refused to anyone else: a seat, never None."""
        if self.seat is None:
            raise DomainError("You are not playing in this game.", code="forbidden")
        return self.seat


def command(command_type: str, *, body: Body | None = None, seated: bool = True, active: bool = True,
            voting: bool = False) -> Callable[[F], F]:
    """Mark a method as the handler of a command type.

    ``body``: its declared body (``dvorak_engine.bodies.Body``), checked before the handler runs and shown to
    client authors in the API's schema; ``seated``: only a player of this game may send it (else 403
    ``forbidden``); ``active``: only while the game is being played (else 409 ``game_not_active``); ``voting``:
    also while a vote stops the game (else 409 ``vote_in_progress``).
    """

    def mark(handler: F) -> F:
        handler.__dict__["_command"] = (command_type, seated, active, voting)
        handler.__dict__["_body"] = body if body is not None else Body()
        return handler

    return mark


def applies(event_type: str, *, shows: Mapping[str, Shows] | None = None) -> Callable[[F], F]:
    """Mark a method as the way an event type changes the state; ``shows`` declares who sees which data keys."""

    def mark(applier: F) -> F:
        applier.__dict__["_applies"] = (event_type, dict(shows or {}))
        return applier

    return mark


def redacts(event_type: str) -> Callable[[F], F]:
    """Mark a method as a refinement of what one viewer sees of an event type, ``(self, event, shown, viewer,
    before, after) -> dict``: ``shown`` is the data already cut down to the keys the type declares."""

    def mark(redactor: F) -> F:
        redactor.__dict__["_redacts"] = event_type
        return redactor

    return mark


# The core's part of the events it applies itself, and who sees it.
CORE_SHOWS: dict[str, dict[str, Shows]] = {
    "game.created": {"ruleset": PUBLIC, "variant": PUBLIC, "creative": PUBLIC, "max_players": PUBLIC,
                     "options": PUBLIC, "may_leave": PUBLIC, "invited": PUBLIC},
    # `user_id` is the server's own key of a seat: undeclared, so no client sees it (the username names the player).
    "player.joined": {"seat": PUBLIC, "username": PUBLIC, "team": PUBLIC, "bot": PUBLIC},
    "choices.requested": {"seats": PUBLIC},
    "choice.made": {"seat": PUBLIC, "choice": OWNER},
    "choices.revealed": {"choices": PUBLIC},
    "player.left": {"seat": PUBLIC},
    "game.cancelled": {"by": PUBLIC},
    "clock.set": {"deadlines": PUBLIC, "banks": PUBLIC},
    "clock.expired": {"seats": PUBLIC},
    "game.won_on_time": {"winners": PUBLIC},
    "undo.requested": {"to": PUBLIC, "by": PUBLIC},
    "undo.answered": {"seat": PUBLIC, "accept": PUBLIC},
    # The state the game goes back to is the server's: its hands and piles are nobody's to see in the event.
    "game.undone": {"to": PUBLIC},
}

# The commands a player may send whatever the game waits on, which a clock does not wait for and a computer
# player does not choose among its moves: giving up, leaving, and answering an undo.
FREE_MOVES = frozenset({"abandon", "withdraw", "concede", "leave", "cancel", "undo", "undo_answer", "expire"})


class Unfolding:
    """The events one command produces, each folded into a working state as it is added, so that each step of the
    command sees what the steps before it did: ``add(type, data)`` (or ``add(type, **data)``) makes one event,
    ``extend(events)`` takes events made elsewhere (another step's, the core's). A ruleset whose commands need more
    (dice, a draw) subclasses it."""

    def __init__(self, ruleset: Ruleset, state: GameState, rng: Rng) -> None:
        self.ruleset, self.state, self.rng = ruleset, state, rng
        self.events: list[Event] = []

    @property
    def table(self) -> Any:
        return self.state.table

    @property
    def over(self) -> bool:
        """Whether the game has ended on the way."""
        return self.state.status == FINISHED

    def add(self, event_type: str, data: dict[str, Any] | None = None, /, **fields: Any) -> None:
        """One event, its data given whole (``add(type, {...})``) or by its keys (``add(type, key=value)``)."""
        event = Event(event_type, fields if data is None else data)
        self.state = self.ruleset.evolve(self.state, event)
        self.events.append(event)

    def extend(self, events: list[Event]) -> None:
        self.state = self.ruleset.fold(self.state, events)
        self.events.extend(events)


class Ruleset:
    name: ClassVar[str] = ""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 20
    variants: ClassVar[tuple[str, ...]] = (STANDARD,)
    default_variant: ClassVar[str] = STANDARD  # the variant of a game created without naming one
    State: ClassVar[type] = type(None)
    commands: ClassVar[dict[str, tuple[str, bool, bool, bool]]] = {}
    bodies: ClassVar[dict[str, Body]] = {}
    appliers: ClassVar[dict[str, str]] = {}
    shows: ClassVar[dict[str, dict[str, Shows]]] = {}
    redactors: ClassVar[dict[str, str]] = {}
    # The Special Rules of the ruleset's own deck whose procedure this module carries out (setup, turns, scoring,
    # winning), each by the opening words of its text: a Special Rule whose text, spaces folded, starts with one
    # is reported "carried out by the ruleset" by the coverage report (``carries_special_rule``). Only rules the
    # module truly implements are listed; the others are read, or not, as cards are.
    special_rules_carried: ClassVar[tuple[str, ...]] = ()
    # What the rest of the service asks of a ruleset, so that adding a game edits nothing outside its package
    # and its line in the registry: the phrases of an archived deck's title that name this ruleset (the importer
    # gives a deck so titled this ruleset: ``dvorak_engine.rulesets.ruleset_for_title``), and the title of the
    # board its view shows (``board`` in the state), if it has one (the play page heads the board with it).
    deck_title_phrases: ClassVar[tuple[str, ...]] = ()
    board_title: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "view" in vars(cls):
            raise TypeError(f"{cls.__name__} defines view: a ruleset's view is its shown(), which reads the state "
                            "as the viewer may see it")
        cls.commands, cls.appliers, cls.shows, cls.redactors, cls.bodies = {}, {}, {}, {}, {}
        # From the most general class to this one, so a subclass's methods replace its parents'.
        for klass in reversed(cls.__mro__):
            for attribute, member in vars(klass).items():
                if hasattr(member, "_command"):
                    command_type, *flags = member._command
                    cls.commands[command_type] = (attribute, *flags)
                    cls.bodies[command_type] = member._body
                if hasattr(member, "_applies"):
                    event_type, shows = member._applies
                    cls.appliers[event_type] = attribute
                    cls.shows[event_type] = {**CORE_SHOWS.get(event_type, {}), **shows}
                if hasattr(member, "_redacts"):
                    cls.redactors[member._redacts] = attribute

    @classmethod
    def carries_special_rule(cls, text: str) -> bool:
        """Whether this ruleset carries out the Special Rule whose text is ``text`` (``special_rules_carried``)."""
        folded = " ".join((text or "").split())
        return bool(folded) and any(folded.startswith(" ".join(opening.split()))
                                    for opening in cls.special_rules_carried)

    # --- setup ------------------------------------------------------------------------------------------

    def created(self, *, deck: dict[str, Any], variant: str, creative: bool, options: dict[str, Any], rng: Rng) -> dict[str, Any]:
        """The ruleset's part of ``game.created`` (a key ``options`` replaces the options the game keeps)."""
        return {}

    def creator_join(self, options: dict[str, Any]) -> dict[str, Any]:
        """The join command of the game's creator, from the game's options."""
        return {"team": options.get("team")}

    def joined(self, state: GameState, *, seat: int, team: str | None, body: dict[str, Any], rng: Rng) -> dict[str, Any]:
        """The ruleset's part of a ``player.joined`` event (refuse with DomainError)."""
        return {}

    def left(self, state: GameState, seat: int) -> GameState:
        """The ruleset's state once the player of ``seat`` has left the open table (``player.left``; the core has
        already taken their seat away and moved each later seat down by one, so the seats stay 0 to n-1). By
        default every per-seat entry of its state (a tuple of values with a ``seat``, such as ``players``) loses
        the leaver's and has the later ones renumbered alike; a ruleset keeping more of a joiner's (the cards they
        brought) takes that away too."""
        return replace(state, table=without_seat(state.table, seat)) if state.table is not None else state

    def setup(self, state: GameState, rng: Rng) -> list[Event]:
        """The events of ``start``, once the core's checks passed: how the game is laid out, who goes first."""
        raise NotImplementedError

    # --- commands ---------------------------------------------------------------------------------------

    def decide(self, state: GameState | None, command_body: Any, *, actor: Actor, rng: Rng,
               now: float | None = None, past: Past | None = None) -> list[Event]:
        """The events of a command, or DomainError. In a clocked game decided at ``now``, the last of them carries
        the clock where the command changed what the game waits on (``dvorak_engine.clock``)."""
        state = _existing(state)
        events = self._decided(state, command_body, actor=actor, rng=rng, now=now, past=past)
        if now is not None and events and "clock" in state.options:
            timing = clock.after_command(self, state, self.fold(state, events), events,
                                         seat_of(state, actor.user_id), now)
            if timing is not None:
                events[-1] = clock.carried(events[-1], timing)
        return events

    def decide_folded(self, state: GameState | None, command_body: Any, *, actor: Actor, rng: Rng,
                      now: float | None = None, past: Past | None = None) -> tuple[list[Event], list[GameState]]:
        """As ``decide``, with the state after each event (``evolve``'s): the server folds a command once, to
        set its clock and to show each event to its sender."""
        state = _existing(state)
        events = self._decided(state, command_body, actor=actor, rng=rng, now=now, past=past)
        states: list[GameState] = []
        before = state
        for event in events:
            before = self.evolve(before, event)
            states.append(before)
        if now is not None and events and "clock" in state.options:
            timing = clock.after_command(self, state, states[-1], events, seat_of(state, actor.user_id), now)
            if timing is not None:
                events[-1] = clock.carried(events[-1], timing)
                # ``evolve`` made this state for this event, and nothing else has it: the clock is set in place.
                states[-1].__dict__.update(deadlines=dict(timing["deadlines"]), banks=dict(timing["banks"]))
        return events, states

    def checked_body(self, command_body: Any) -> tuple[str, bool, bool, bool]:
        """The command's entry (its handler's name and flags), once its body is as its type declares (else 400:
        ``invalid``, or ``unknown_command``): what is wrong with a command's own shape, whatever the game's state."""
        if not isinstance(command_body, dict) or not isinstance(command_body.get("type"), str):
            raise DomainError("A command is a JSON object with a \"type\".", code="invalid")
        entry = self.commands.get(command_body["type"])
        if entry is None:
            raise DomainError(f"This game has no command {command_body['type']!r}.",
                              code="unknown_command", details={"known": sorted(self.commands)})
        self.bodies[command_body["type"]].checked(command_body)
        return entry

    def _decided(self, state: GameState, command_body: Any, *, actor: Actor, rng: Rng,
                 now: float | None, past: Past | None) -> list[Event]:
        attribute, seated, active, voting = self.checked_body(command_body)
        seat = seat_of(state, actor.user_id)
        if seated:
            if seat is None:
                raise DomainError("You are not playing in this game.", code="forbidden")
            if not self.takes_part(state, seat):
                raise DomainError("You are out of this game.", code="eliminated")
        if state.status == VOTING and not voting:
            raise DomainError("A proposal is open; vote on it first.", code="vote_in_progress")
        if active and state.status != ACTIVE:
            raise DomainError("This game is not being played now.", code="game_not_active")
        handler: Callable[[GameState, Any, CommandContext], list[Event]] = getattr(self, attribute)
        return handler(state, command_body, CommandContext(actor, seat, rng, now, past))

    def takes_part(self, state: GameState, seat: int) -> bool:
        """Whether a seated player may send commands now: not once knocked out. A ruleset that brings its
        knocked-out players back to the table (Dvorak's Aftermath, where the whole table reviews the deck) says
        when."""
        return state.seat(seat).status != ELIMINATED

    @command("join", seated=False, active=False, body=Body(
        "Take a seat (as `POST /games/{id}/join/`).",
        {"team": text_field("Team games: the team you join.", required=False, null=True, high=MAX_TEAM_NAME,
                            trim=True, refusal="\"team\" names a team."),
         "player_deck": server_field("A CCG game is joined with POST /games/{id}/join/, which checks the player "
                                     "deck."),
         "bot": server_field("A computer player is seated by the game's creator with POST /games/{id}/bots/.")}))
    def join(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        if state.status != OPEN:
            raise DomainError("This game has already started.", code="game_not_open")
        if ctx.seat is not None:
            raise DomainError("You already have a seat in this game.", code="already_seated")
        if len(state.seats) >= state.max_players:
            raise DomainError("This game is full.", code="limit_reached",
                              details={"max_players": state.max_players})
        bot = command_body.get("bot")
        if (state.options.get("invite_only") and state.seats and bot is None
                and ctx.actor.username not in state.invited):
            raise DomainError("Only the players invited may join this game (its `options.invite_only`).",
                              code="not_invited")
        seat, team = len(state.seats), read_team(command_body)
        own = self.joined(state, seat=seat, team=team, body=command_body, rng=ctx.rng)
        if bot is not None:
            own = {**own, "bot": bot}
        return [Event("player.joined", {"seat": seat, "user_id": ctx.actor.user_id,
                                        "username": ctx.actor.username, "team": team, **own})]

    def start_moves(self, state: GameState, seat: int) -> list[dict[str, Any]]:
        """``start``, for seat 0 of an open game that its rules would let start now (a team game needs its teams,
        a creative game its cards: a trial of the setup says, its randomness thrown away)."""
        if state.status != OPEN or seat != 0 or len(state.seats) < self.min_players:
            return []
        try:
            self.setup(state, SeededRng(0))
        except DomainError:
            return []
        return [{"type": "start"}]

    def open_table_moves(self, state: GameState, seat: int) -> list[dict[str, Any]]:
        """At an open table of a game created since players may leave one (``may_leave``): ``cancel`` for its
        creator (seat 0), ``leave`` for everyone else seated."""
        if state.status != OPEN or not state.may_leave:
            return []
        return [{"type": "cancel"}] if seat == 0 else [{"type": "leave"}]

    @command("leave", active=False, body=Body(
        "Give up your seat at an open table (as `POST /games/{id}/leave/`): later seats move down one. The "
        "creator's leaving cancels the game. A game being played is left by `concede`, where its ruleset has it."))
    def leave(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        if state.status != OPEN:
            raise DomainError("Only a game that has not started is left so; a game being played is conceded.",
                              code="game_not_open")
        if ctx.seat == 0:
            return [Event("game.cancelled", {"by": 0})]
        return [Event("player.left", {"seat": ctx.seat})]

    @command("cancel", active=False, body=Body(
        "Call off an open game (seat 0, its creator; as `DELETE /games/{id}/`): it ends with status `cancelled`."))
    def cancel(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        if state.status != OPEN:
            raise DomainError("Only a game that has not started can be cancelled.", code="game_not_open")
        if ctx.seat != 0:
            raise DomainError("Only the game's creator (seat 0) can cancel it.", code="forbidden")
        return [Event("game.cancelled", {"by": 0})]

    # --- live tables: clocks, undo, computer players -------------------------------------------------------

    # The event types that show a seat something it could not see before (a card drawn, a card turned up, dice
    # thrown): a game is never taken back across one (``undo``), and a computer player never looks ahead through
    # one (``dvorak_engine.bots``). The core's own: the reveal of secret choices.
    reveals: ClassVar[frozenset[str]] = frozenset()

    def revealing(self, event_type: str) -> bool:
        return event_type == "choices.revealed" or event_type in self.reveals

    def awaited(self, state: GameState) -> tuple[int, ...]:
        """The seats the game waits on now (a clock runs for each): by default, during a secret choice the seats
        that have not chosen, else every seat still in the game with a move to make other than ``FREE_MOVES``.
        A ruleset says it more cheaply, and more exactly, from its own state (whose turn it is, who must vote)."""
        if state.status not in (ACTIVE, VOTING):
            return ()
        if state.choosing:
            return tuple(seat for seat in state.choosing if str(seat) not in state.choices)
        return tuple(seat.seat for seat in state.seats if self.takes_part(state, seat.seat)
                     and any(move["type"] not in FREE_MOVES for move in self.legal_moves(state, seat.seat)))

    def timed_out(self, state: GameState, seats: list[int], ctx: CommandContext) -> list[Event]:
        """How the game goes on once the seats named have run out of time: ``state`` already has them out of the
        game (``clock.expired``). By default nothing more; a ruleset whose turn, vote or throw was waiting on one of
        them moves it on here. When one side is left standing the core ends the game (``game.won_on_time``)."""
        return []

    def evaluate(self, view: dict[str, Any], seat: int) -> float:
        """How good the game looks for ``seat``, from the seat's own view (``view_state``): what a ``greedy``
        computer player maximises looking one move ahead. By default nothing but winning and losing counts; each
        ruleset says what else does (points, cards in play, Electability...), in its docs."""
        return 0.0

    @command("expire", seated=False, active=False, voting=True, body=Body(
        "Sent by the server's clock: every seat whose deadline has passed runs out of time (`clock.expired`) and "
        "is out of the game. Refused (409 `clock_running`) while no deadline has passed."))
    def expire(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        if state.status not in (ACTIVE, VOTING):
            raise DomainError("This game is not being played now.", code="game_not_active")
        late = clock.late_seats(state, ctx.now) if ctx.now is not None else []
        if not late:
            raise DomainError("No clock of this game has run out.", code="clock_running")
        unfolding = Unfolding(self, state, ctx.rng)
        unfolding.add("clock.expired", seats=late)
        unfolding.extend(self.timed_out(unfolding.state, late, ctx))
        if unfolding.state.status not in (FINISHED, ABANDONED):
            sides = clock.sides_standing(unfolding.state)
            if len(sides) <= 1:
                unfolding.add("game.won_on_time", winners=sides[0] if sides else [])
        return unfolding.events

    @command("undo", voting=True, body=Body(
        "Ask to take the game back to the state it had at version `to`; every other player still in the game "
        "answers with `undo_answer`. Refused (409 `undo_not_possible`) across an event that showed a seat a card "
        "it could not see before (a draw, a reveal, a throw), or to before the game started.",
        {"to": whole_field("The version to go back to: the game's state as it was after that event.", low=1)},
        ({"to": 12},)))
    def undo(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        if state.undo:
            raise DomainError("An undo is already asked for; it is answered first.", code="denied",
                              details={"undo": dict(state.undo)})
        to = command_body["to"]
        self._may_go_back(state, to, ctx)
        requested = Event("undo.requested", {"to": to, "by": ctx.seat})
        return [requested, *self._undo_if_agreed(self.evolve(state, requested), ctx)]

    @command("undo_answer", voting=True, body=Body(
        "Answer the undo another player asked for: `accept` true or false. Once every other player still in the "
        "game has accepted, the game goes back (`game.undone`); one refusal ends the request.",
        {"accept": flag_field("Whether you agree to take the game back.")}, ({"accept": True}, {"accept": False})))
    def undo_answer(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        if not state.undo:
            raise DomainError("Nobody has asked to undo.", code="denied")
        if ctx.seat not in self._undo_answerers(state) or ctx.seat in state.undo["accepted"]:
            raise DomainError("Your answer is not awaited.", code="denied")
        answered = Event("undo.answered", {"seat": ctx.seat, "accept": command_body["accept"]})
        if not command_body["accept"]:
            return [answered]
        return [answered, *self._undo_if_agreed(self.evolve(state, answered), ctx)]

    def _undo_answerers(self, state: GameState) -> list[int]:
        return [seat.seat for seat in state.seats
                if seat.seat != state.undo.get("by") and self.takes_part(state, seat.seat)]

    def _undo_if_agreed(self, state: GameState, ctx: CommandContext) -> list[Event]:
        if any(seat not in state.undo["accepted"] for seat in self._undo_answerers(state)):
            return []
        to = state.undo["to"]
        past = self._may_go_back(state, to, ctx)
        return [Event("game.undone", {"to": to, "state": codec.to_json(past)})]

    def _may_go_back(self, state: GameState, to: int, ctx: CommandContext) -> GameState:
        """The state at version ``to``, if the game may be taken back to it."""
        if not 1 <= to < state.version or ctx.past is None:
            raise DomainError(f"The game can be taken back only to a version before its own ({state.version}).",
                              code="invalid", details={"field": "to"})
        past = ctx.past.state(to)
        if past.status not in (ACTIVE, VOTING):
            raise DomainError("A game is taken back only to a version at which it was being played.",
                              code="undo_not_possible", details={"to": to})
        for version, event in enumerate(ctx.past.events(to), start=to + 1):
            if self.revealing(event.type):
                raise DomainError(f"Event {version} ({event.type}) showed a card or a throw that no one can un-see: "
                                  "the game cannot be taken back across it.", code="undo_not_possible",
                                  details={"to": to, "version": version, "type": event.type})
        return past

    @applies("game.undone")
    def apply_game_undone(self, state: GameState, event: Event) -> GameState:
        """The game as it was at version ``to``; its clock goes on from now (the clock this event carries) and the
        request is over. The version goes on counting: nothing is deleted."""
        data = event.data["state"]
        envelope: GameState = codec.from_json(GameState, {key: value for key, value in data.items() if key != "table"})
        table = codec.from_json(self.State, data["table"]) if data.get("table") is not None else None
        return replace(envelope, table=table, deadlines=state.deadlines, banks=state.banks, undo={})

    def live_moves(self, state: GameState, seat: int) -> list[dict[str, Any]]:
        """``undo_answer`` for a player whose answer to an undo is awaited."""
        if not state.undo or seat not in self._undo_answerers(state) or seat in state.undo["accepted"]:
            return []
        return [{"type": "undo_answer", "accept": True}, {"type": "undo_answer", "accept": False}]

    @command("start", active=False, body=Body("Start the game (seat 0; as `POST /games/{id}/start/`)."))
    def start(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        if state.status != OPEN:
            raise DomainError("This game has already started.", code="game_not_open")
        if ctx.seat != 0:
            raise DomainError("Only the player in seat 0 can start the game.", code="forbidden")
        if len(state.seats) < self.min_players:
            raise DomainError(f"At least {self.min_players} players are needed.", code="not_enough_players",
                              details={"min_players": self.min_players})
        return self.setup(state, ctx.rng)

    # --- simultaneous moves -----------------------------------------------------------------------------

    def request_choices(self, seats: Iterable[int]) -> Event:
        """The event that asks these seats for a secret choice each."""
        return Event("choices.requested", {"seats": sorted(seats)})

    def choose(self, state: GameState, ctx: CommandContext, choice: Any) -> list[Event]:
        """A seat's secret choice, checked by the ruleset's command; when the last seat asked has chosen, every
        choice is revealed in one event and ``revealed`` resolves them."""
        if ctx.seat not in state.choosing:
            raise DomainError("Nobody is waiting for a choice of yours.", code="not_your_turn")
        if str(ctx.seat) in state.choices:
            raise DomainError("You have already chosen.", code="denied")
        made = Event("choice.made", {"seat": ctx.seat, "choice": choice})
        after = self.evolve(state, made)
        if set(after.choices) != {str(seat) for seat in after.choosing}:
            return [made]
        choices = {int(seat): value for seat, value in after.choices.items()}
        reveal = Event("choices.revealed", {"choices": dict(after.choices)})
        return [made, reveal, *self.revealed(self.evolve(after, reveal), choices, ctx)]

    def revealed(self, state: GameState, choices: dict[int, Any], ctx: CommandContext) -> list[Event]:
        """What the choices, now revealed, make happen."""
        return []

    # --- events -----------------------------------------------------------------------------------------

    def evolve(self, state: GameState | None, event: Event) -> GameState:
        new_state = self._step(event.type)(state, event)
        timing = event.data.get(clock.CARRIED)
        if timing is not None:
            new_state = clock.apply_carried(new_state, timing)
        return replace(new_state, version=(state.version if state is not None else 0) + 1)

    def fold(self, state: GameState | None, events: Iterable[Event], *, handing_over: bool = False) -> GameState:
        """``evolve`` event by event, without its last copy of every state: the state an event's appliers return
        is new, made for this event from the one given and seen by nothing else yet, so its version is set in
        place. Anything else (the state given back unchanged, or an older one) is copied as ``evolve`` copies it.
        The appliers see the same states ``evolve`` shows them, so the result is the same value.

        ``handing_over``: stop after an event whose state names another ruleset (the caller goes on with it);
        ``events`` is then an iterator, left at the next event."""
        steps: dict[str, Callable[[Any, Event], GameState]] = {}  # looked up once per type and fold
        name, plain_state = self.name, GameState
        carried, apply_carried = clock.CARRIED, clock.apply_carried
        for event in events:
            step = steps.get(event.type)
            if step is None:
                step = steps[event.type] = self._step(event.type)
            before = state.version if state is not None else 0
            new_state = step(state, event)
            timing = event.data.get(carried)
            if timing is not None:  # the clock the command set (``dvorak_engine.clock``), after the event's own change
                new_state = apply_carried(new_state, timing)
            if new_state is not state and type(new_state) is plain_state and new_state.version == before:
                new_state.__dict__["version"] = before + 1
            else:
                new_state = replace(new_state, version=before + 1)
            state = new_state
            if handing_over and state.ruleset != name:
                break
        if state is None:
            raise ValueError("nothing to fold: no state and no event")
        return state

    def _step(self, event_type: str) -> Callable[[Any, Event], GameState]:
        """How an event type changes the state, but for its version: the core's applier, then the ruleset's."""
        core = _CORE_APPLIERS.get(event_type)
        attribute = self.appliers.get(event_type)
        if attribute is None:
            if core is None:
                raise ValueError(f"ruleset {self.name!r} cannot apply event type {event_type!r}")
            return core
        own: Callable[[Any, Event], GameState] = getattr(self, attribute)
        if core is None:
            return own
        first = core
        return lambda state, event: own(first(state, event), event)

    @applies("player.left")
    def apply_player_left(self, state: GameState, event: Event) -> GameState:
        """After the core's part (the seat taken away, later seats moved down), the ruleset's: ``left``."""
        return self.left(state, event.data["seat"])

    # --- views ------------------------------------------------------------------------------------------

    def view(self, state: GameState, viewer: int | None) -> dict[str, Any]:
        """The ruleset's part of the state a viewer sees: what ``shown`` makes of the state as the viewer may see
        it (``visibility.seen``). Rulesets write ``shown``, never this, so no view reads what its viewer may not
        see. What it reads comes back as tuples; the view is JSON, so its arrays are lists."""
        view: dict[str, Any] = visibility.as_json(self.shown(visibility.seen(state, viewer), viewer))
        return view

    def shown(self, state: visibility.Seen, viewer: int | None) -> dict[str, Any]:
        """The ruleset's part of the view, from ``state`` as ``viewer`` may see it: by default the seats and its
        state's fields, as their declarations allow. A ruleset whose JSON is fixed by its clients builds its own
        from what ``state`` lets it read: a field it may not read raises ``visibility.Hidden``."""
        players = [{"seat": s.seat, "username": s.username, "team": s.team, "status": s.status}
                   for s in state.seats]
        table = visibility.state_view(state.table, viewer) if state.table is not None else {}
        return {"players": players, **table}

    def redact_event(self, event: Event, shown: dict[str, Any], viewer: int | None, before: GameState | None,
                     after: GameState) -> dict[str, Any]:
        """A refinement of what a viewer sees of any event of this ruleset (after its type's declaration)."""
        return shown

    def view_event(self, event: Event, viewer: int | None, before: GameState | None, after: GameState) -> dict[str, Any]:
        shows = self.shows.get(event.type, CORE_SHOWS.get(event.type, {}))
        shown = visibility.event_view(event.data, shows, viewer)
        attribute = self.redactors.get(event.type)
        if attribute is not None:
            shown = getattr(self, attribute)(event, shown, viewer, before, after)
        else:
            shown = self.redact_event(event, shown, viewer, before, after)
        timing = event.data.get(clock.CARRIED)
        if timing is not None:  # the clock the command set, every viewer's to see
            shown = {**shown, clock.CARRIED: timing}
        return shown

    # --- after the game ---------------------------------------------------------------------------------

    def deck_after_game(self, state: GameState) -> dict[str, Any]:
        """The game's deck as it stands once the game is over (``DeckData.to_dict()``), for the archive."""
        raise DomainError("This game has no deck to publish.", code="denied")

    # --- the cards it needs --------------------------------------------------------------------------------

    def card_problems(self, deck: dict[str, Any]) -> list[dict[str, Any]]:
        """What this ruleset needs of a deck's cards (``DeckData.to_dict()``) and does not find, one entry per
        problem: ``card_problem(index, card, field, problem, message)``. ``"missing"`` (a value not yet entered)
        stops a game from being created; ``"invalid"`` (a value that cannot be right) also stops the archive
        from saving the deck. Plain Dvorak needs nothing but a title and a text."""
        return []

    # --- legal moves ------------------------------------------------------------------------------------

    def legal_moves(self, state: GameState, seat: int) -> list[dict[str, Any]]:
        return []


def read_team(body: dict[str, Any]) -> str | None:
    """The team a joiner names, if any."""
    team = body.get("team")
    if team is None:
        return None
    if isinstance(team, bool) or not isinstance(team, str | int) or not str(team).strip():
        raise DomainError("\"team\" names a team.", code="invalid", details={"field": "team"})
    name = str(team).strip()
    if len(name) > MAX_TEAM_NAME:
        raise DomainError(f"A team's name has at most {MAX_TEAM_NAME} characters.", code="invalid",
                          details={"field": "team"})
    return name


def without_seat(table: Any, seat: int) -> Any:
    """``table`` (a ruleset's state) without what it kept for ``seat``: each of its fields holding a tuple of values
    with a ``seat`` field loses the one of that seat, and the values of later seats are moved down one."""
    if not dataclasses.is_dataclass(table):
        return table
    changes = {}
    for field in dataclasses.fields(table):
        value = getattr(table, field.name)
        if isinstance(value, tuple) and value and all(dataclasses.is_dataclass(item) and hasattr(item, "seat")
                                                      and isinstance(item.seat, int) for item in value):
            changes[field.name] = tuple(replace(item, seat=item.seat - 1) if item.seat > seat else item
                                        for item in value if item.seat != seat)
    return replace(table, **changes) if changes else table


def _existing(state: GameState | None) -> GameState:
    """The game a command is sent to; a command to no game is refused (404 ``not_found``) before anything else."""
    if state is None:
        raise DomainError("There is no such game.", code="not_found")
    return state


def card_data_refusal(ruleset: Ruleset, problems: list[dict[str, Any]]) -> DomainError:
    """The refusal of a game whose deck's cards lack what the ruleset needs (409), every problem listed."""
    named = cards_named(problems)
    if named:
        message = f"The deck's cards lack what {ruleset.name} needs: {named}."
    else:  # nothing of the deck's own to name: the deck as a whole lacks it
        message = f"The deck lacks what {ruleset.name} needs: {problems[0]['message']}"
    return DomainError(message, code="card_data_missing", details={"ruleset": ruleset.name, "cards": problems})


def choose(count: int, values: Iterable[Any], *, as_list: bool = True) -> dict[str, Any]:
    """A field of a legal move left to the client: pick ``count`` different values of ``values``."""
    return {"choose": count, "from": list(values), "list": as_list}


# --- the core's own appliers --------------------------------------------------------------------------------


def _game_created(state: GameState | None, event: Event) -> GameState:
    data = event.data
    return GameState(ruleset=data["ruleset"], max_players=data["max_players"], options=data["options"],
                     may_leave=data.get("may_leave", False), invited=tuple(data.get("invited", ())))


def _player_joined(state: GameState, event: Event) -> GameState:
    data = event.data
    seat = Seat(seat=data["seat"], user_id=data["user_id"], username=data["username"], team=data.get("team"),
                bot=data.get("bot"))
    return replace(state, seats=(*state.seats, seat))


def _player_left(state: GameState, event: Event) -> GameState:
    """The seat taken away; every later seat moves down one, so the seats stay 0 to n-1."""
    left = event.data["seat"]
    seats = tuple(replace(s, seat=s.seat - 1) if s.seat > left else s for s in state.seats if s.seat != left)
    return replace(state, seats=seats)


def _game_cancelled(state: GameState, event: Event) -> GameState:
    return replace(state, status=CANCELLED)


def _choices_requested(state: GameState, event: Event) -> GameState:
    return replace(state, choosing=tuple(event.data["seats"]), choices={})


def _choice_made(state: GameState, event: Event) -> GameState:
    return replace(state, choices={**state.choices, str(event.data["seat"]): event.data["choice"]})


def _choices_revealed(state: GameState, event: Event) -> GameState:
    return replace(state, choosing=(), choices={})


def _undo_requested(state: GameState, event: Event) -> GameState:
    return replace(state, undo={"to": event.data["to"], "by": event.data["by"], "accepted": []})


def _undo_answered(state: GameState, event: Event) -> GameState:
    if not event.data["accept"]:
        return replace(state, undo={})
    return replace(state, undo={**state.undo, "accepted": [*state.undo["accepted"], event.data["seat"]]})


_CORE_APPLIERS: dict[str, Callable[[Any, Event], GameState]] = {
    "clock.set": clock.apply_set,
    "clock.expired": clock.apply_expired,
    "game.won_on_time": clock.apply_won_on_time,
    "undo.requested": _undo_requested,
    "undo.answered": _undo_answered,
    "game.created": _game_created,
    "player.joined": _player_joined,
    "player.left": _player_left,
    "game.cancelled": _game_cancelled,
    "choices.requested": _choices_requested,
    "choice.made": _choice_made,
    "choices.revealed": _choices_revealed,
}

__all__ = ["COUNT", "INVALID", "MISSING", "OWNER", "PUBLIC", "CommandContext", "Ruleset", "applies", "card_problem",
           "cards_named", "choose", "command", "redacts"]
