"""Rock Paper Scissors Extreme on the ruleset contract (``dvorak_engine.ruleset``): the game as the server plays it.

The rules themselves are the package's pure functions (``rules``, ``board``, ``views``), which know nothing of
games, seats or users; this class plugs them into the core. The core keeps the seats, the status, the version
and the winners; the ruleset keeps, in ``RockPaperScissorsExtremeState``, the deck it was created with and, once
started, the ``Board``. Each command is handed to ``rules.decide`` and each event folded by ``board.evolve``.

The simultaneous secret steps (a throw, a potion window) are the game's own events (``rpsx.thrown``,
``rpsx.potion_chosen``, then one ``rpsx.revealed`` or ``rpsx.potions_revealed``), not the core's generic choices:
a potion window asks only the seats holding a potion they may drink, its answers are a drink or a pass, and a
closed window leads to more of the same command. They are hidden by the contract's own means: the board's fields
say who sees them (a pending throw's sign and a pending answer's potion are their seat's), and each event type
declares who sees each key of its data (``views.SHOWS``).

Live tables: a clock waits on the seats the board waits for (``rules.active_seats``: both throwers until each has
thrown, the seats asked in a potion window until each has answered, the claimant, the drawer, whoever must
discard). With two players, a seat out of time leaves the other to win (the core's ``game.won_on_time``, which
ends the board too); if neither threw, both are out and nobody wins. No undo goes back across a reveal: the throws
or the potion answers revealed, cards dealt from the hidden supply into the center.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from dvorak_core.errors import DomainError
from dvorak_engine.events import Event
from dvorak_engine.rng import Rng
from dvorak_engine.ruleset import COUNT, PUBLIC, CommandContext, Ruleset, applies, command
from dvorak_engine.rulesets.rock_paper_scissors_extreme import bodies as declared
from dvorak_engine.rulesets.rock_paper_scissors_extreme import rules
from dvorak_engine.rulesets.rock_paper_scissors_extreme.board import (
    Board,
    evolve,
)
from dvorak_engine.rulesets.rock_paper_scissors_extreme.cards import check_deck
from dvorak_engine.rulesets.rock_paper_scissors_extreme.views import SHOWS
from dvorak_engine.rulesets.rock_paper_scissors_extreme.views import view as board_view
from dvorak_engine.state import ACTIVE, FINISHED, GameState
from dvorak_engine.values import replace
from dvorak_engine.visibility import Seen, counted, public

NAME = "rock_paper_scissors_extreme"


@dataclass(frozen=True)
class RockPaperScissorsExtremeState:
    """The deck the game was created with (``{"slug", "title"}`` and its cards, dealt into the supply at the
    start), and the board once the game has started."""

    deck: dict[str, Any] = public(default_factory=dict)
    deck_cards: tuple[dict[str, Any], ...] = counted(())
    board: Board | None = public(None)


def _folds_into_the_board(event_type: str) -> Callable[..., Any]:
    """The applier of one of the board's events: the pure ``evolve``, its who-sees-what from ``views.SHOWS``."""

    @applies(event_type, shows=SHOWS[event_type])
    def apply(self: RockPaperScissorsExtremeRuleset, state: GameState, event: Event) -> GameState:
        return state.with_table(board=evolve(state.table.board, event))

    return apply


class RockPaperScissorsExtremeRuleset(Ruleset):
    name = NAME
    deck_title_phrases = ("rock paper scissors extreme",)
    board_title = "The centre and the items"
    # The deck's Special Rules this module carries out (by their opening words): see Ruleset.
    special_rules_carried = (
        'Shuffle the cards and place three face up in the center.',
        'If both players throw the same sign and both try to claim a win',
    )
    min_players = max_players = rules.PLAYERS
    State = RockPaperScissorsExtremeState

    # --- setup ------------------------------------------------------------------------------------------

    def created(self, *, deck: dict[str, Any], variant: str, creative: bool, options: dict[str, Any], rng: Rng) -> dict[str, Any]:
        """The deck's cards copied in, once the rules can read every one of them (else 409, listed)."""
        if creative:
            raise DomainError("Rock Paper Scissors Extreme has no creative play.", code="invalid",
                              details={"field": "creative"})
        cards = [card for card in deck.get("cards", []) if isinstance(card, dict)]
        check_deck(cards)
        return {"deck": {"slug": deck.get("slug", ""), "title": deck.get("title", "")},
                "cards": [{"title": card.get("title", ""), "text": card.get("text") or "",
                           "copies": card.get("copies", 1)} for card in cards]}

    def setup(self, state: GameState, rng: Rng) -> list[Event]:
        """"Shuffle the cards and place three face up in the center. Players begin with no cards"."""
        seats = [seat.seat for seat in state.seats]
        return _events(rules.setup(list(state.table.deck_cards), seats, rng))

    # --- commands: each body declared in ``bodies``, checked before ``rules.decide`` reads it ------------

    def _rules_decide(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        return _events(rules.decide(state.table.board, ctx.player_seat, command_body, ctx.rng))

    @command("throw", body=declared.THROW)
    def throw(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        return self._rules_decide(state, command_body, ctx)

    @command("drink", body=declared.DRINK)
    def drink(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        return self._rules_decide(state, command_body, ctx)

    @command("pass", body=declared.PASS)
    def pass_(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        return self._rules_decide(state, command_body, ctx)

    @command("claim", body=declared.CLAIM)
    def claim(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        return self._rules_decide(state, command_body, ctx)

    @command("draw", body=declared.DRAW)
    def draw(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        return self._rules_decide(state, command_body, ctx)

    @command("discard", body=declared.DISCARD)
    def discard(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        return self._rules_decide(state, command_body, ctx)

    # --- events -----------------------------------------------------------------------------------------

    @applies("game.created", shows={"deck": PUBLIC, "cards": COUNT})
    def apply_game_created(self, state: GameState, event: Event) -> GameState:
        data = event.data
        return replace(state, table=RockPaperScissorsExtremeState(deck=dict(data["deck"]),
                                                                  deck_cards=tuple(data["cards"])))

    @applies("rpsx.setup", shows=SHOWS["rpsx.setup"])
    def apply_setup(self, state: GameState, event: Event) -> GameState:
        return replace(state, status=ACTIVE).with_table(board=evolve(None, event))

    @applies("rpsx.finished", shows=SHOWS["rpsx.finished"])
    def apply_finished(self, state: GameState, event: Event) -> GameState:
        state = state.with_table(board=evolve(state.table.board, event))
        return replace(state, status=FINISHED, winners=tuple(event.data["winners"]))

    @applies("game.won_on_time")
    def apply_won_on_time(self, state: GameState, event: Event) -> GameState:
        """The board ends as the core ended the game: its winners set, nothing more awaited of anyone."""
        if state.table.board is None:
            return state
        finished = {"type": "rpsx.finished", "data": {"winners": list(event.data["winners"])}}
        return state.with_table(board=evolve(state.table.board, finished))

    apply_dealt = _folds_into_the_board("rpsx.dealt")
    apply_reshuffled = _folds_into_the_board("rpsx.reshuffled")
    apply_challenge_started = _folds_into_the_board("rpsx.challenge_started")
    apply_thrown = _folds_into_the_board("rpsx.thrown")
    apply_revealed = _folds_into_the_board("rpsx.revealed")
    apply_window_opened = _folds_into_the_board("rpsx.window_opened")
    apply_potion_chosen = _folds_into_the_board("rpsx.potion_chosen")
    apply_potions_revealed = _folds_into_the_board("rpsx.potions_revealed")
    apply_tied = _folds_into_the_board("rpsx.tied")
    apply_won = _folds_into_the_board("rpsx.won")
    apply_scored = _folds_into_the_board("rpsx.scored")
    apply_broken = _folds_into_the_board("rpsx.broken")
    apply_stolen = _folds_into_the_board("rpsx.stolen")
    apply_claimed = _folds_into_the_board("rpsx.claimed")
    apply_drew = _folds_into_the_board("rpsx.drew")
    apply_discarded = _folds_into_the_board("rpsx.discarded")

    # --- views ------------------------------------------------------------------------------------------

    def shown(self, state: Seen, viewer: int | None) -> dict[str, Any]:
        """The envelope's players (each one's points as the counter ``points``), the deck, and the ``board``
        (``views.view``; null until the game starts)."""
        board = state.table.board
        points = {player.seat: player.points for player in board.players} if board is not None else {}
        players = [{"seat": s.seat, "username": s.username, "team": s.team, "status": s.status,
                    "counters": {"points": points.get(s.seat, 0)}} for s in state.seats]
        return {"deck": dict(state.table.deck), "players": players,
                "board": None if board is None else board_view(board, viewer)}

    # --- live tables ------------------------------------------------------------------------------------

    # The throws revealed, the potion answers revealed, and cards dealt face up from the hidden supply.
    reveals = frozenset({"rpsx.revealed", "rpsx.potions_revealed", "rpsx.dealt"})

    def awaited(self, state: GameState) -> tuple[int, ...]:
        """The seats the board waits for (``rules.active_seats``): a throw waits on each seat not yet thrown."""
        if state.status != ACTIVE or state.table.board is None:
            return ()
        return tuple(seat for seat in rules.active_seats(state.table.board) if self.takes_part(state, seat))

    def timed_out(self, state: GameState, seats: list[int], ctx: CommandContext) -> list[Event]:
        """Nothing of the game's own: with two players, a seat out of time leaves one side, or none, and the core
        ends the game."""
        return []

    def evaluate(self, view: dict[str, Any], seat: int) -> float:
        """The seat's points less the other's, and a third of a point for each item held more than the other (an
        item is worth a point at most when it works; three are the most one holds)."""
        board = view.get("board")
        if not board:
            return 0.0
        score = 0.0
        for player in board["players"]:
            worth = player["points"] + min(len(player["items"]), rules.MAX_ITEMS) / 3
            score += worth if player["seat"] == seat else -worth
        return score

    # --- legal moves ------------------------------------------------------------------------------------

    def legal_moves(self, state: GameState, seat: int) -> list[dict[str, Any]]:
        if state.status != ACTIVE:
            return []
        return rules.legal_moves(state.table.board, seat)


def _events(produced: list[dict[str, Any]]) -> list[Event]:
    return [Event(event["type"], event["data"]) for event in produced]


__all__ = ["NAME", "RockPaperScissorsExtremeRuleset", "RockPaperScissorsExtremeState"]
