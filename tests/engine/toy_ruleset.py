"""Odds and Evens, a toy game written on the ruleset contract alone, to show what the core gives any new game.

Two players throw one to five fingers at once, in secret; the throws are revealed together. Seat 0 scores when
the sum is odd, seat 1 when it is even; the first to three points wins. The state and events carry things no
player may see, some of them on purpose undescribed (``memo``, an event's ``"note"``): the core must hide them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from dvorak_core.errors import DomainError
from dvorak_engine.events import Event
from dvorak_engine.ruleset import PUBLIC, CommandContext, Ruleset, applies, choose, command
from dvorak_engine.state import ACTIVE, FINISHED, GameState
from dvorak_engine.visibility import counted, owner, public

FINGERS = (1, 2, 3, 4, 5)
TARGET = 3


@dataclass(frozen=True)
class Score:
    seat: int = public()
    points: int = public(0)
    # What the player noted for themselves: theirs alone.
    tally: tuple[int, ...] = owner(())


@dataclass(frozen=True)
class OddsAndEvens:
    round: int = public(0)
    scores: tuple[Score, ...] = public(())
    # The throws of past rounds, counted for all, read by none.
    history: tuple[int, ...] = counted(())
    # Described by nobody: the server's alone.
    memo: str = ""


class OddsAndEvensRuleset(Ruleset):
    name = "odds_and_evens"
    min_players = max_players = 2
    State = OddsAndEvens

    @applies("game.created")
    def apply_game_created(self, state: GameState, event: Event) -> GameState:
        return replace(state, table=OddsAndEvens(memo="not for anyone's eyes"))

    @applies("player.joined")
    def apply_player_joined(self, state: GameState, event: Event) -> GameState:
        return state.with_table(scores=(*state.table.scores, Score(seat=event.data["seat"])))

    def setup(self, state: GameState, rng: Any) -> list[Event]:
        return [Event("round.began", {"round": 1, "note": "secret"}), self.request_choices([0, 1])]

    @command("throw")
    def throw(self, state: GameState, command_body: dict, ctx: CommandContext) -> list[Event]:
        fingers = command_body.get("fingers")
        if fingers not in FINGERS:
            raise DomainError("\"fingers\" is a number from 1 to 5.", code="invalid", details={"field": "fingers"})
        return self.choose(state, ctx, fingers)

    def revealed(self, state: GameState, choices: dict[int, Any], ctx: CommandContext) -> list[Event]:
        total = sum(choices.values())
        events = [Event("round.won", {"seat": total % 2 == 0 and 1 or 0, "sum": total, "note": f"memo {total}"})]
        after = self.fold(state, events)
        leader = max(after.table.scores, key=lambda s: s.points)
        if leader.points >= TARGET:
            return [*events, Event("game.over", {"winners": [leader.seat]})]
        return [*events, Event("round.began", {"round": after.table.round + 1}), self.request_choices([0, 1])]

    @applies("round.began", shows={"round": PUBLIC})
    def apply_round_began(self, state: GameState, event: Event) -> GameState:
        return replace(state, status=ACTIVE).with_table(round=event.data["round"])

    @applies("choices.revealed")
    def apply_choices_revealed(self, state: GameState, event: Event) -> GameState:
        throws = tuple(event.data["choices"][str(seat)] for seat in (0, 1))
        scores = tuple(replace(s, tally=(*s.tally, throws[s.seat])) for s in state.table.scores)
        return state.with_table(history=(*state.table.history, *throws), scores=scores)

    @applies("round.won", shows={"seat": PUBLIC, "sum": PUBLIC})
    def apply_round_won(self, state: GameState, event: Event) -> GameState:
        scores = tuple(replace(s, points=s.points + 1) if s.seat == event.data["seat"] else s
                       for s in state.table.scores)
        return state.with_table(scores=scores)

    @applies("game.over", shows={"winners": PUBLIC})
    def apply_game_over(self, state: GameState, event: Event) -> GameState:
        return replace(state, status=FINISHED, winners=tuple(event.data["winners"]))

    def legal_moves(self, state: GameState, seat: int) -> list[dict[str, Any]]:
        if seat not in state.choosing or str(seat) in state.choices:
            return []
        return [{"type": "throw", "fingers": choose(1, FINGERS, as_list=False)}]


RULESET = OddsAndEvensRuleset()
