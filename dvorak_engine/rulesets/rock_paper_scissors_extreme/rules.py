"""The rules of Rock Paper Scissors Extreme: ``setup``, ``decide``, ``legal_moves``, ``winners``.

Read it beside the deck's Special Rules and Notes (the package docstring lists the readings taken where they are
silent). ``decide`` checks a command against the board and returns the events it causes, each folded into a
working board as it is emitted so the next step sees its result; a refused command raises ``DomainError`` and
returns nothing. Randomness (card ids, the shuffle, each reshuffle) comes from the ``rng`` passed in and is
written into the events, so replaying them needs no randomness.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, cast

from dvorak_core.errors import DomainError
from dvorak_engine.rng import Rng
from dvorak_engine.ruleset import choose
from dvorak_engine.rulesets.rock_paper_scissors_extreme.board import (
    CLAIM,
    DISCARD,
    DRAW,
    POTIONS,
    SCORE,
    TAKE,
    THROW,
    TIE_WINDOW,
    WIN_WINDOW,
    Board,
    evolve,
)
from dvorak_engine.rulesets.rock_paper_scissors_extreme.bodies import BODIES
from dvorak_engine.rulesets.rock_paper_scissors_extreme.cards import (
    BEATS,
    BLACK,
    BLUE,
    CENTER_SIZE,
    DIAMOND,
    GOLDEN,
    GREEN,
    ONYX,
    PURPLE,
    RAINBOW,
    RED,
    RUBY,
    SIGNS,
    SILVER,
    SPARKLY,
    Card,
    deal_deck,
)
from dvorak_engine.visibility import Seen

PLAYERS = 2
# "... until one player wins by scoring 21 (or more) points."
TARGET_POINTS = 21
# "Players begin with no cards and can have a maximum of three."
MAX_ITEMS = 3


class _GameOver(Exception):
    """Raised once ``rpsx.finished`` is emitted: nothing more happens in the command."""


class _Run:
    """The events one command produces, each folded into ``board`` as it is emitted."""

    def __init__(self, board: Board | None, rng: Rng) -> None:
        self._board, self.rng = board, rng
        self.events: list[dict[str, Any]] = []

    @property
    def board(self) -> Board:
        """The board as the events so far left it: there is one from ``rpsx.setup`` on."""
        if self._board is None:
            raise RuntimeError("no board before rpsx.setup")
        return self._board

    def emit(self, name: str, **data: Any) -> None:
        event = {"type": f"rpsx.{name}", "data": data}
        self._board = evolve(self._board, event)
        self.events.append(event)


# --- setup ---------------------------------------------------------------------------------------------------


def setup(cards: list[dict[str, Any]], seats: list[int], rng: Rng) -> list[dict[str, Any]]:
    """The events that start a game: the deck's cards, shuffled into the supply; three face up in the center;
    the first challenge. "Players begin with no cards"."""
    seats = list(seats)
    if len(set(seats)) != len(seats):
        raise DomainError("Each player needs a seat of their own.", code="invalid", details={"field": "seats"})
    if len(seats) < PLAYERS:
        raise DomainError("Rock Paper Scissors Extreme needs two players.", code="not_enough_players",
                          details={"min_players": PLAYERS})
    if len(seats) > PLAYERS:
        raise DomainError("Rock Paper Scissors Extreme is for two players.", code="limit_reached",
                          details={"max_players": PLAYERS})
    deck = deal_deck(cards, rng)
    supply = [card.id for card in deck]
    rng.shuffle(supply)
    run = _Run(None, rng)
    run.emit("setup", seats=seats, cards=[card.to_json() for card in deck], supply=supply)
    _refill_center(run)
    run.emit("challenge_started", challenge=1)
    return run.events


# --- reading the board ---------------------------------------------------------------------------------------


def working_items(board: Board, seat: int) -> list[Card]:
    """The totems, scrolls and athames that work for a seat now: its own and the one its rainbow potion
    simulates this throw; none at all while a black potion works ("Drinking a black potion does nullify the
    effect of a rainbow potion")."""
    if board.nullified:
        return []
    own = [board.cards[c] for c in board.player(seat).items if not board.cards[c].is_potion]
    simulated = [board.cards[d.simulate] for d in board.drunk if d.seat == seat and d.simulate]
    return own + simulated


def working_item(board: Board, seat: int, family: str, sign: str) -> Card | None:
    return next((card for card in working_items(board, seat) if card.family == family and card.sign == sign), None)


def drunk_potion(board: Board, seat: int, family: str) -> Card | None:
    """The potion of ``family`` a seat drank after the current throw."""
    return next((board.cards[d.potion] for d in board.drunk
                 if d.seat == seat and board.cards[d.potion].family == family), None)


def simulation_targets(board: Board, seat: int) -> list[str]:
    """"A rainbow potion can simulate any totem, scroll, or athame which is in your opponent's inventory or
    face-up in the center. You cannot simulate an item you already have in order to double its effects.\""""
    held = {board.cards[c].title for c in board.player(seat).items}
    in_sight = board.player(board.opponent(seat)).items + board.center
    return [c for c in in_sight if not board.cards[c].is_potion and board.cards[c].title not in held]


def drinkable(board: Board, seat: int, window: str | None) -> list[Card]:
    """The potions a seat may drink in a window: one a throw at most ("a player may discard a potion (if
    appropriate) for a one-time effect")."""
    if any(drink.seat == seat for drink in board.drunk):
        return []
    potions = []
    for card in (board.cards[c] for c in board.player(seat).items):
        if not card.is_potion:
            continue
        if card.family == BLACK:
            potions.append(card)
        elif card.family == RAINBOW:
            if simulation_targets(board, seat):
                potions.append(card)
        elif card.family == SPARKLY:
            # "Drink when you and your opponent throw the same sign".
            if window == TIE_WINDOW:
                potions.append(card)
        elif window == WIN_WINDOW and seat == board.throw_winner and card.sign == board.sign_of(seat):
            # "Drink after you win with Rock ..."
            potions.append(card)
    return potions


def active_seats(board: Board | Seen) -> list[int]:
    """The seats the game waits for now (two at once while throwing, answering a potion window or discarding).

    Read from the board's public fields only, so a view asks it of the board as its viewer sees it."""
    if board.winners is not None:
        return []
    if board.phase == THROW:
        thrown = {t.seat for t in board.throws}
        return [player.seat for player in board.players if player.seat not in thrown]
    if board.phase == POTIONS:
        answered = {a.seat for a in board.answers}
        return [seat for seat in board.asked if seat not in answered]
    if board.phase == CLAIM:
        return [cast(int, board.throw_winner)]  # as before the type check: [None] between a tie and its rethrow
    if board.phase == DRAW:
        return [board.drawers[0]]
    if board.phase == DISCARD:
        return [player.seat for player in board.players if len(player.items) > MAX_ITEMS]
    return []


def _throw_winner(board: Board) -> int:
    """The seat that won the throw being claimed: set from the reveal of a won throw to the challenge's end."""
    return cast(int, board.throw_winner)


def winners(board: Board) -> list[int] | None:
    """The winning seats once the game is over, else None."""
    return None if board.winners is None else list(board.winners)


@dataclass(frozen=True)
class ClaimOptions:
    """What the winner of a challenge may choose: take or score, and which of the loser's items to break (an
    onyx item) or steal (a green potion)."""

    choices: tuple[str, ...]
    breakable: tuple[str, ...]
    stealable: tuple[str, ...]


def claim_options(board: Board) -> ClaimOptions:
    winner = _throw_winner(board)
    sign = board.sign_of(winner)
    victim_items = board.player(board.opponent(winner)).items
    green = drunk_potion(board, winner, GREEN)
    # "Drinking a green potion preempts onyx and ruby items."
    stealable = victim_items if green else ()
    breakable = victim_items if not green and working_item(board, winner, ONYX, sign) else ()
    if drunk_potion(board, winner, PURPLE) or stealable:
        choices: tuple[str, ...] = (SCORE,)
    else:
        choices = (TAKE, SCORE) if board.center else (SCORE,)
    return ClaimOptions(choices=choices, breakable=tuple(breakable), stealable=tuple(stealable))


# --- legal moves ---------------------------------------------------------------------------------------------


def _choose(values: Iterable[Any]) -> dict[str, Any]:
    return choose(1, values, as_list=False)


def legal_moves(board: Board, seat: int) -> list[dict[str, Any]]:
    """Every command ``seat`` may send now, as complete bodies; a field to pick is ``{"choose", "from",
    "list"}``. Empty when nothing is the seat's to do."""
    if seat not in active_seats(board):
        return []
    if board.phase == THROW:
        return [{"type": "throw", "sign": _choose(SIGNS)}]
    if board.phase == POTIONS:
        moves: list[dict[str, Any]] = [{"type": "pass"}]
        for potion in drinkable(board, seat, board.window):
            move: dict[str, Any] = {"type": "drink", "potion": potion.id}
            if potion.family == RAINBOW:
                move["simulate"] = _choose(simulation_targets(board, seat))
            moves.append(move)
        return moves
    if board.phase == CLAIM:
        options = claim_options(board)
        claim: dict[str, Any] = {
            "type": "claim", "choice": options.choices[0] if len(options.choices) == 1 else _choose(options.choices)}
        if options.breakable:
            claim["break"] = _choose(options.breakable)
        if options.stealable:
            claim["steal"] = _choose(options.stealable)
        return [claim]
    if board.phase == DRAW:
        return [{"type": "draw", "card": _choose(board.center)}]
    if board.phase == DISCARD:
        protected = board.gained_by(seat)
        return [{"type": "discard", "cards": choose(1, (c for c in board.player(seat).items if c != protected))}]
    return []


# --- decide --------------------------------------------------------------------------------------------------


def decide(board: Board, seat: int, command: dict[str, Any], rng: Rng) -> list[dict[str, Any]]:
    """The events ``command`` from ``seat`` causes, or ``DomainError`` if the rules refuse it. The body is checked
    by its command's declaration (``bodies``) before the board is: a field of the wrong shape is ``invalid``
    whatever the stage."""
    if not isinstance(command, dict) or not isinstance(command.get("type"), str):
        raise DomainError("A command is an object with a \"type\".", code="invalid", details={"field": "type"})
    if board.winners is not None:
        raise DomainError("The game is over.", code="game_not_active")
    if seat not in board.seats:
        raise DomainError("Only the two players act in this game.", code="forbidden")
    handler = COMMANDS.get(command["type"])
    if handler is None:
        raise DomainError(f"Rock Paper Scissors Extreme has no command {command['type']!r}.",
                          code="unknown_command", details={"known": sorted(COMMANDS)})
    BODIES[command["type"]].checked(command)
    run = _Run(board, rng)
    try:
        handler(run, seat, command)
        _keep_supply(run)
    except _GameOver:
        pass
    return run.events


def _expect(board: Board, phase: str, seat: int) -> None:
    if board.phase != phase:
        raise DomainError(f"That is not possible now: {_waiting_for(board)}.", code="wrong_stage",
                          details={"phase": board.phase})
    if seat not in active_seats(board):
        raise DomainError(f"It is not yours to do: {_waiting_for(board)}.", code="not_your_turn")


def _waiting_for(board: Board) -> str:
    seats = ", ".join(str(seat) for seat in active_seats(board))
    doing = {THROW: "to throw", POTIONS: "to drink a potion or pass", CLAIM: "to take an item or score",
             DRAW: "to draw from the center", DISCARD: "to discard down to three items"}
    return f"the game waits for seat {seats} {doing.get(board.phase, '')}".strip()


def _invalid(message: str, field: str) -> DomainError:
    return DomainError(message, code="invalid", details={"field": field})


# Each handler reads a body its declaration (``bodies.BODIES``) has passed.


def _throw(run: _Run, seat: int, command: dict[str, Any]) -> None:
    sign = command["sign"]
    _expect(run.board, THROW, seat)
    run.emit("thrown", seat=seat, sign=sign)
    if len(run.board.throws) == len(run.board.seats):
        throws = sorted(run.board.throws, key=lambda t: t.seat)
        run.emit("revealed", throws=[{"seat": t.seat, "sign": t.sign} for t in throws])
        _after_reveal(run)


def _drink(run: _Run, seat: int, command: dict[str, Any]) -> None:
    potion_id, simulate = command["potion"], command.get("simulate")
    board = run.board
    _expect(board, POTIONS, seat)
    if potion_id not in board.player(seat).items or not board.cards[potion_id].is_potion:
        raise DomainError("You hold no such potion.", code="card_not_in_hand", details={"field": "potion"})
    potion = board.cards[potion_id]
    if potion not in drinkable(board, seat, board.window):
        raise DomainError(f"The {potion.title} cannot be drunk now: \"{potion.text}\"", code="denied",
                          details={"field": "potion"})
    if potion.family == RAINBOW:
        if simulate not in simulation_targets(board, seat):
            raise _invalid("Name a totem, scroll or athame of your opponent's or in the center, not one you "
                           "already have.", "simulate")
    elif simulate is not None:
        raise _invalid("Only a rainbow potion simulates an item.", "simulate")
    run.emit("potion_chosen", seat=seat, potion=potion_id, simulate=simulate)
    _close_window_when_answered(run)


def _pass(run: _Run, seat: int, command: dict[str, Any]) -> None:
    _expect(run.board, POTIONS, seat)
    run.emit("potion_chosen", seat=seat, potion=None, simulate=None)
    _close_window_when_answered(run)


def _claim(run: _Run, seat: int, command: dict[str, Any]) -> None:
    choice = command["choice"]
    picked = {field: command.get(field) for field in ("break", "steal")}
    board = run.board
    _expect(board, CLAIM, seat)
    options = claim_options(board)
    if choice not in options.choices:
        raise _invalid(f"Choose {' or '.join(repr(c) for c in options.choices)}.", "choice")
    picks = {}
    for field, allowed in (("break", options.breakable), ("steal", options.stealable)):
        value = picked[field]
        if allowed and value not in allowed:
            raise _invalid(f"Name one of your opponent's items to {field}.", field)
        if not allowed and value is not None:
            raise _invalid(f"There is nothing to {field} now.", field)
        picks[field] = value
    winner, loser = seat, board.opponent(seat)
    sign = board.sign_of(winner)
    purple = drunk_potion(board, winner, PURPLE)
    green = drunk_potion(board, winner, GREEN)
    ruby = None if green else working_item(board, winner, RUBY, sign)
    if purple or choice == TAKE:
        # "Drink after you win with Rock to score 2 points and draw first."
        order = [winner, loser]
    elif picks["steal"]:
        # "... to steal an item from your opponent instead of drawing normally."
        order = [loser]
    elif ruby:
        # "If you win with Rock, you draw first even when you choose to score."
        order = [winner, loser]
    else:
        # "... or scores 1 point and allows the opponent first choice."
        order = [loser, winner]
    run.emit("claimed", seat=winner, choice=choice, draw_order=order[:len(board.center)])
    # "Breaking and stealing items happens _before_ drawing cards from the center."
    if picks["break"]:
        onyx = working_item(board, winner, ONYX, sign)
        assert onyx is not None, "an item to break is offered only with a working onyx item (claim_options)"
        run.emit("broken", seat=loser, cards=[picks["break"]], cause=onyx.id)
    if picks["steal"]:
        assert green is not None, "an item to steal is offered only after a green potion (claim_options)"
        run.emit("stolen", seat=winner, card=picks["steal"], cause=green.id, **{"from": loser})
    if choice == SCORE:
        golden = working_item(board, winner, GOLDEN, sign)
        bonus = purple or golden
        run.emit("scored", seat=winner, points=2 if bonus else 1, cause=bonus.id if bonus else None)
        _check_end(run)
    _after_drawing(run)


def _draw(run: _Run, seat: int, command: dict[str, Any]) -> None:
    card = command["card"]
    _expect(run.board, DRAW, seat)
    if card not in run.board.center:
        raise _invalid("Draw one of the face-up cards in the center.", "card")
    run.emit("drew", seat=seat, card=card)
    _after_drawing(run)


def _discard(run: _Run, seat: int, command: dict[str, Any]) -> None:
    [card] = command["cards"]
    board = run.board
    _expect(board, DISCARD, seat)
    if card not in board.player(seat).items:
        raise DomainError("Discard one of your own items.", code="card_not_in_hand", details={"field": "cards"})
    if card == board.gained_by(seat):
        raise DomainError("You must discard one, but not the card you just drew.", code="denied",
                          details={"field": "cards"})
    run.emit("discarded", seat=seat, card=card)
    _after_drawing(run)


COMMANDS: dict[str, Callable[[_Run, int, dict[str, Any]], None]] = {
    "throw": _throw, "drink": _drink, "pass": _pass, "claim": _claim, "draw": _draw, "discard": _discard,
}


# --- the steps of a challenge that need no one's choice ------------------------------------------------------


def _after_reveal(run: _Run) -> None:
    first, second = run.board.revealed
    if first.sign == second.sign:
        if not _open_window(run, TIE_WINDOW):
            _settle_same_sign(run)
        return
    # "Rock breaks Scissors, Scissors cut Paper, Paper covers Rock."
    winner = first if BEATS[first.sign] == second.sign else second
    run.emit("won", seat=winner.seat, sign=winner.sign)
    _after_win(run)


def _open_window(run: _Run, window: str) -> bool:
    """Ask the seats that hold a potion they may drink now; False when there is none to ask."""
    seats = [seat for seat in run.board.seats if drinkable(run.board, seat, window)]
    if seats:
        run.emit("window_opened", window=window, seats=seats)
    return bool(seats)


def _close_window_when_answered(run: _Run) -> None:
    board = run.board
    if {answer.seat for answer in board.answers} != set(board.asked):
        return
    window = board.window
    drinks = [{"seat": a.seat, "potion": a.potion, "simulate": a.simulate} for a in board.answers if a.potion]
    run.emit("potions_revealed", window=window, drunk=drinks)
    if window == TIE_WINDOW:
        _settle_same_sign(run)
    else:
        _win_effects(run)


def _claims_the_tie(board: Board, seat: int, sign: str) -> bool:
    # "If you and your opponent both throw Rock, it is a win for you." / "Drink when you and your opponent throw
    # the same sign to count it as a win for you."
    return working_item(board, seat, DIAMOND, sign) is not None or drunk_potion(board, seat, SPARKLY) is not None


def _settle_same_sign(run: _Run) -> None:
    board = run.board
    sign = board.revealed[0].sign
    claimants = [seat for seat in board.seats if _claims_the_tie(board, seat, sign)]
    # "If both players throw the same sign and both try to claim a win ... then it is treated as a tie."
    if len(claimants) == 1:
        run.emit("won", seat=claimants[0], sign=sign)
        _after_win(run)
        return
    # "If you throw Rock and win or tie, you get 1 free point."
    for seat in board.seats:
        silver = working_item(board, seat, SILVER, sign)
        if silver:
            run.emit("scored", seat=seat, points=1, cause=silver.id)
    _check_end(run)
    run.emit("tied", sign=sign)


def _after_win(run: _Run) -> None:
    if not _open_window(run, WIN_WINDOW):
        _win_effects(run)


def _win_effects(run: _Run) -> None:
    """"The effects of onyx items, silver items, blue potions, and red potions happen in addition to the normal
    choices": all but the onyx break (the winner picks the item in the claim) happen at once."""
    board = run.board
    winner = _throw_winner(board)
    loser = board.opponent(winner)
    for seat in (winner, loser):
        # "If you throw Rock and win ..., you get 1 free point. If you throw Rock and lose, your opponent gets 1
        # free point."
        silver = working_item(board, seat, SILVER, board.sign_of(seat))
        if silver:
            run.emit("scored", seat=winner, points=1, cause=silver.id)
    _check_end(run)
    red = drunk_potion(board, winner, RED)
    if red and run.board.player(loser).points > 0:
        # "A red potion cannot decrease anyone's score below zero."
        run.emit("scored", seat=loser, points=-1, cause=red.id)
    blue = drunk_potion(board, winner, BLUE)
    if blue and run.board.player(loser).items:
        run.emit("broken", seat=loser, cards=list(run.board.player(loser).items), cause=blue.id)


def _after_drawing(run: _Run) -> None:
    """Once the draws are done and nobody holds more than three items, the center is refilled and the next
    challenge starts."""
    board = run.board
    if board.phase != DISCARD or active_seats(board):
        return
    _refill_center(run)
    run.emit("challenge_started", challenge=board.challenge + 1)


def _refill_center(run: _Run) -> None:
    # "Deal cards from the supply so that there are once again three face up cards in the center."
    while len(run.board.center) < CENTER_SIZE:
        _keep_supply(run)
        dealt = run.board.supply[:CENTER_SIZE - len(run.board.center)]
        if not dealt:
            return
        run.emit("dealt", cards=list(dealt))


def _keep_supply(run: _Run) -> None:
    # "If at any moment the supply is empty, reshuffle the discard pile into a new supply."
    board = run.board
    if not board.supply and board.discard_pile:
        supply = list(board.discard_pile)
        run.rng.shuffle(supply)
        run.emit("reshuffled", supply=supply)


def _check_end(run: _Run) -> None:
    """"... until one player wins by scoring 21 (or more) points": checked after each scoring step, so two
    players reaching it on the same tie share the win unless one has more."""
    best = max(player.points for player in run.board.players)
    if best >= TARGET_POINTS:
        run.emit("finished", winners=[p.seat for p in run.board.players if p.points == best])
        raise _GameOver
