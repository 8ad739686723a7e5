"""Abandoning a game: the rulebook's Aftermath opens "once somebody has won the game, or the game has been abandoned
through stalemate or boredom". A game is abandoned by its players' agreement: ``AbandonRules`` is mixed into the
``dvorak`` ruleset.

- ``abandon`` (``{}``): a player still in the game agrees to abandon it (``abandon.agreed``); ``{"withdraw":
  true}`` takes the agreement back (``abandon.withdrawn``; refused, 409 ``denied``, from a player who has not
  agreed). Once every player still in the game agrees, the game ends (``game.abandoned``): status ``abandoned``, no
  winner, no turn; a creative game's Aftermath opens as after a win (``aftermath.in_the_aftermath``), and its deck
  may be published.
- The agreements are public: the state's ``abandon`` lists the seats that agree (``{"agreed": [seats]}``), shown
  in every game created under the second reading and in any game where someone has agreed (an older game's view
  is otherwise as it was).

Decisions where the rulebook leaves room (readings):

- Who: the players still in the game, each for themselves (in Team Dvorak too: a team does not agree for its
  players). Not a spectator (403 ``forbidden``), nor a player knocked out (409 ``eliminated``): they are no longer
  in the game, and a game's end is not theirs to decide. An agreement made by a player later knocked out no longer
  counts, and is no longer needed.
- When: while the game is played (``active``). Not before it starts (an open game is left, not abandoned; 409
  ``game_not_active``), nor while a proposal or a claim stops the game for a vote ("the game stops while they
  decide": 409 ``vote_in_progress``; decide it, then abandon), nor once it is over.
- How long an agreement stands: until its player withdraws it or the game ends. Play goes on meanwhile and does not
  clear it: boredom is agreed over several turns, each player when they come to it, and whoever changes their mind
  withdraws. (An option clearing agreements at each turn would only make the last player wait on the others; none
  is offered.)
- The last agreement ends the game at once. When the players who had not agreed all leave the game (conceded or
  knocked out) while the others' agreements stand, nothing is decided by their leaving: any of those who agreed
  sends ``abandon`` again to end it (listed in their legal moves then).
- One player left: in Dvorak the last player standing has already won (and in Team Dvorak the last team), so a
  game played on always has two players or more; were one left playing, their own agreement would abandon it.
- Legal moves: every player still in a game being played is offered ``abandon`` until they agree, and its
  withdrawal once they have (a game of the first reading lists them only once somebody has agreed, as it did).
"""

from __future__ import annotations

from typing import Any

from dvorak_core.errors import DomainError
from dvorak_engine.events import Event
from dvorak_engine.ruleset import PUBLIC, CommandContext, applies, command
from dvorak_engine.rulesets.dvorak import bodies
from dvorak_engine.rulesets.dvorak.state import READING
from dvorak_engine.state import ABANDONED, ACTIVE, PLAYING, GameState, seats_standing
from dvorak_engine.values import replace


def still_to_agree(state: GameState, agreed: set[int] | tuple[int, ...]) -> list[int]:
    """The players still in the game who have not agreed to abandon it."""
    return [seat for seat in seats_standing(state) if seat not in agreed]


def abandon_moves(state: GameState, seat: int) -> list[dict[str, Any]]:
    """``abandon`` for a player still in a game being played who has not agreed, and its withdrawal for one who
    has (in a game of the first reading, only once somebody has agreed: its moves stay as they were listed)."""
    agreed = state.table.agreed_to_abandon
    if state.status != ACTIVE or state.seat(seat).status != PLAYING:
        return []
    if not agreed and state.table.reading < READING:
        return []
    if seat not in agreed:
        return [{"type": "abandon"}]
    if not still_to_agree(state, agreed):  # those who had not agreed have left the game: it may end now
        return [{"type": "abandon"}, {"type": "abandon", "withdraw": True}]
    return [{"type": "abandon", "withdraw": True}]


class AbandonRules:
    """The ``abandon`` command and its events, mixed into a ``Ruleset`` (the core checks that its sender is a player
    still in the game and that the game is being played)."""

    @command("abandon", body=bodies.ABANDON)
    def abandon(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        agreed = state.table.agreed_to_abandon
        if command_body.get("withdraw"):
            if ctx.player_seat not in agreed:
                raise DomainError("You have not agreed to abandon the game: there is no agreement to withdraw.",
                                  code="denied", details={"field": "withdraw", "agreed": list(agreed)})
            return [Event("abandon.withdrawn", {"seat": ctx.player_seat})]
        if ctx.player_seat in agreed:
            waiting = still_to_agree(state, agreed)
            if waiting:
                raise DomainError("You have already agreed to abandon the game; the others still in it have not "
                                  "all agreed.", code="denied", details={"waiting_for": waiting})
            return [Event("game.abandoned", {})]
        events = [Event("abandon.agreed", {"seat": ctx.player_seat})]
        if not still_to_agree(state, {*agreed, ctx.player_seat}):
            events.append(Event("game.abandoned", {}))
        return events

    @applies("abandon.agreed", shows={"seat": PUBLIC})
    def apply_abandon_agreed(self, state: GameState, event: Event) -> GameState:
        agreed = {*state.table.agreed_to_abandon, event.data["seat"]}
        return state.with_table(agreed_to_abandon=tuple(sorted(agreed)))

    @applies("abandon.withdrawn", shows={"seat": PUBLIC})
    def apply_abandon_withdrawn(self, state: GameState, event: Event) -> GameState:
        agreed = tuple(seat for seat in state.table.agreed_to_abandon if seat != event.data["seat"])
        return state.with_table(agreed_to_abandon=agreed)

    @applies("game.abandoned", shows={})
    def apply_game_abandoned(self, state: GameState, event: Event) -> GameState:
        """Over, with no winner: the turn in progress ends with it (as with a win); the agreements stay, showing
        who gave the game up."""
        return replace(state, status=ABANDONED, winners=()).with_table(turn=None)
