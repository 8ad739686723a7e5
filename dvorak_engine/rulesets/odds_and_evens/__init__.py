"""Odds and Evens: the smallest game the server plays, and the example of adding one.

Two players throw one to five fingers at once, in secret (``{"type": "throw", "fingers": 3}``); the throws are
revealed together. Seat 0 (Odds) scores when the sum is odd, seat 1 (Evens) when it is even; the first to
``options.target`` points (3 unless the creator says; 1 to 9) wins. The game plays no cards: any deck may be named
when it is created (``"ruleset": "odds_and_evens"``).

Its one command's body is declared beside its handler (``Body``): the engine checks it, and the API's schema and
first check are made from it. Everything a player sees comes from declarations: the state's fields say who sees them (``public``, ``owner``,
``counted``), each event's keys likewise (``shows``), and a throw not yet revealed is the core's secret choice
(``choose``), seen by its seat alone. The package and its line in ``dvorak_engine/rulesets/__init__.py`` are all
the server needed: the API, the websocket, the lobby, the moves list and replay take it as they are.

Live tables: a clock waits on the seats that have not thrown yet (``awaited``); a seat whose time runs out loses,
and if neither threw, both are out and the game ends with no winner (the core's ``game.won_on_time``). A throw is
secret until both are in, and the core's reveal of them is what no undo goes back across. A computer player counts
its points against the other's (``evaluate``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from dvorak_core.errors import DomainError
from dvorak_engine.bodies import Body, whole_field
from dvorak_engine.events import Event
from dvorak_engine.ruleset import PUBLIC, CommandContext, Ruleset, applies, choose, command
from dvorak_engine.state import ACTIVE, FINISHED, GameState
from dvorak_engine.visibility import owner, public

NAME = "odds_and_evens"
FINGERS = (1, 2, 3, 4, 5)
TARGETS = range(1, 10)
DEFAULT_TARGET = 3
SIDES = ("odds", "evens")


@dataclass(frozen=True)
class Score:
    seat: int = public()
    side: str = public("")
    points: int = public(0)
    # The fingers this player threw, round by round: their own record.
    throws: tuple[int, ...] = owner(())


@dataclass(frozen=True)
class OddsAndEvens:
    target: int = public(DEFAULT_TARGET)
    round: int = public(0)
    scores: tuple[Score, ...] = public(())
    # Every round's sum, for everyone.
    sums: tuple[int, ...] = public(())


class OddsAndEvensRuleset(Ruleset):
    name = NAME
    min_players = max_players = 2
    State = OddsAndEvens
    deck_title_phrases = ("odds and evens",)

    def created(self, *, deck: dict[str, Any], variant: str, creative: bool, options: dict[str, Any], rng: Any) -> dict[str, Any]:
        target = options.get("target", DEFAULT_TARGET)
        if isinstance(target, bool) or target not in TARGETS:
            raise DomainError("\"options.target\" is the points that win, 1 to 9.", code="invalid",
                              details={"field": "options.target"})
        return {"target": target}

    @applies("game.created", shows={"target": PUBLIC})
    def apply_game_created(self, state: GameState, event: Event) -> GameState:
        return replace(state, table=OddsAndEvens(target=event.data.get("target", DEFAULT_TARGET)))

    @applies("player.joined")
    def apply_player_joined(self, state: GameState, event: Event) -> GameState:
        seat = event.data["seat"]
        return state.with_table(scores=(*state.table.scores, Score(seat=seat, side=SIDES[seat])))

    def setup(self, state: GameState, rng: Any) -> list[Event]:
        return [Event("round.began", {"round": 1}), self.request_choices([0, 1])]

    @command("throw", body=Body(
        "Throw one to five fingers, in secret: the throws are revealed once both are in.",
        {"fingers": whole_field("How many fingers.", low=FINGERS[0], high=FINGERS[-1])}, ({"fingers": 3},)))
    def throw(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        return self.choose(state, ctx, command_body["fingers"])

    def revealed(self, state: GameState, choices: dict[int, Any], ctx: CommandContext) -> list[Event]:
        total = sum(choices.values())
        events = [Event("round.won", {"seat": total % 2 == 0 and 1 or 0, "sum": total})]
        after = self.fold(state, events)
        leader = max(after.table.scores, key=lambda score: score.points)
        if leader.points >= after.table.target:
            return [*events, Event("game.over", {"winners": [leader.seat]})]
        return [*events, Event("round.began", {"round": after.table.round + 1}), self.request_choices([0, 1])]

    @applies("round.began", shows={"round": PUBLIC})
    def apply_round_began(self, state: GameState, event: Event) -> GameState:
        return replace(state, status=ACTIVE).with_table(round=event.data["round"])

    @applies("choices.revealed")
    def apply_choices_revealed(self, state: GameState, event: Event) -> GameState:
        throws = {int(seat): fingers for seat, fingers in event.data["choices"].items()}
        return state.with_table(scores=tuple(replace(score, throws=(*score.throws, throws[score.seat]))
                                             for score in state.table.scores))

    @applies("round.won", shows={"seat": PUBLIC, "sum": PUBLIC})
    def apply_round_won(self, state: GameState, event: Event) -> GameState:
        scores = tuple(replace(score, points=score.points + 1) if score.seat == event.data["seat"] else score
                       for score in state.table.scores)
        return state.with_table(scores=scores, sums=(*state.table.sums, event.data["sum"]))

    @applies("game.over", shows={"winners": PUBLIC})
    def apply_game_over(self, state: GameState, event: Event) -> GameState:
        return replace(state, status=FINISHED, winners=tuple(event.data["winners"]))

    @applies("game.won_on_time")
    def apply_won_on_time(self, state: GameState, event: Event) -> GameState:
        """A game won on time asks nobody for a throw any more."""
        return replace(state, choosing=(), choices={})

    # --- live tables ------------------------------------------------------------------------------------

    def awaited(self, state: GameState) -> tuple[int, ...]:
        """The seats asked for a throw that have not thrown."""
        if state.status != ACTIVE:
            return ()
        return tuple(seat for seat in state.choosing if str(seat) not in state.choices and self.takes_part(state, seat))

    def timed_out(self, state: GameState, seats: list[int], ctx: CommandContext) -> list[Event]:
        """Nothing of the game's own: with two players, a seat out of time leaves one side, or none, and the core
        ends the game."""
        return []

    def evaluate(self, view: dict[str, Any], seat: int) -> float:
        """The seat's points less the other's."""
        points = {score["seat"]: score["points"] for score in view.get("scores", ())}
        return float(points.get(seat, 0) - sum(value for other, value in points.items() if other != seat))

    def legal_moves(self, state: GameState, seat: int) -> list[dict[str, Any]]:
        if state.status != ACTIVE or seat not in state.choosing or str(seat) in state.choices:
            return []
        return [{"type": "throw", "fingers": choose(1, FINGERS, as_list=False)}]


RULESET = OddsAndEvensRuleset()
