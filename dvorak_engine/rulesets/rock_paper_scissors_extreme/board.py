"""The board of Rock Paper Scissors Extreme and ``evolve``, which folds one event into it.

The board is a frozen value: the supply (top first), the discard pile, the three face-up cards in the center,
each player's items and points, and where the current challenge stands. ``evolve`` is pure and dispatched on the
event's stable type string; it trusts the event (``decide`` checked the rules before emitting it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from dvorak_engine.rulesets.rock_paper_scissors_extreme.cards import BLACK, Card
from dvorak_engine.values import replace
from dvorak_engine.visibility import counted, lookup, owner, public

# Phases. A challenge runs THROW -> (POTIONS) -> CLAIM -> DRAW -> DISCARD, then the center is refilled and the
# next challenge starts; a tie goes back to THROW. RESOLVING only ever lasts inside one command.
SETUP, THROW, POTIONS, RESOLVING, CLAIM, DRAW, DISCARD, FINISHED = (
    "setup", "throw", "potions", "resolving", "claim", "draw", "discard", "finished")
# The two moments a potion may be drunk after a throw: when both threw the same sign, and after a win.
TIE_WINDOW, WIN_WINDOW = "tie", "win"
TAKE, SCORE = "take", "score"


@dataclass(frozen=True)
class Player:
    seat: int = public()
    # "in your opponent's inventory" is in sight, say the Notes: a player's items are face up.
    items: tuple[str, ...] = public(())
    points: int = public(0)


@dataclass(frozen=True)
class Throw:
    """A throw: until both are in, only its seat sees the sign."""

    seat: int = public()
    sign: str = owner()


@dataclass(frozen=True)
class Revealed:
    """A throw both players revealed: seen by all."""

    seat: int = public()
    sign: str = public()


@dataclass(frozen=True)
class Answer:
    """A seat's secret answer in an open potion window: the potion it drinks (None: it drinks nothing) and, for a
    rainbow potion, the item it simulates. Only its seat sees them until every seat asked has answered."""

    seat: int = public()
    potion: str | None = owner(None)
    simulate: str | None = owner(None)


@dataclass(frozen=True)
class Drink:
    """A potion drunk after the current throw, once revealed: seen by all."""

    seat: int = public()
    potion: str = public()
    simulate: str | None = public(None)


@dataclass(frozen=True)
class Board:
    """Who may see what is said field by field (``dvorak_engine.visibility``); a field said by none is the
    server's alone."""

    # Every card of the game by its id, the supply's too: read by an id the viewer was shown, never listed.
    cards: dict[str, Card] = lookup()
    players: tuple[Player, ...] = public()
    # The supply's order is hidden: everyone may count it.
    supply: tuple[str, ...] = counted(())
    discard_pile: tuple[str, ...] = public(())
    center: tuple[str, ...] = public(())
    phase: str = public(SETUP)
    challenge: int = public(0)
    throw: int = public(0)
    # Secret until both are in: the throws of the current throw, then the potion answers of an open window.
    throws: tuple[Throw, ...] = public(())
    answers: tuple[Answer, ...] = public(())
    # The last throw both players revealed.
    revealed: tuple[Revealed, ...] = public(())
    window: str | None = public(None)
    asked: tuple[int, ...] = public(())
    # The potions drunk after the current throw (one a player at most).
    drunk: tuple[Drink, ...] = public(())
    # A black potion was drunk this challenge: items have no effect until it ends.
    nullified: bool = public(False)
    throw_winner: int | None = public(None)
    claim: str | None = public(None)
    # Who still draws from the center this challenge, first drawer first.
    drawers: tuple[int, ...] = public(())
    # The card each player just drew (or stole): never the one discarded down to three.
    gained: tuple[tuple[int, str], ...] = public(())
    winners: tuple[int, ...] | None = public(None)

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple(player.seat for player in self.players)

    def player(self, seat: int) -> Player:
        return next(player for player in self.players if player.seat == seat)

    def opponent(self, seat: int) -> int:
        return next(player.seat for player in self.players if player.seat != seat)

    def sign_of(self, seat: int) -> str:
        return next(throw.sign for throw in self.revealed if throw.seat == seat)

    def gained_by(self, seat: int) -> str | None:
        return dict(self.gained).get(seat)

    def with_player(self, seat: int, **changes: Any) -> Board:
        players = tuple(replace(p, **changes) if p.seat == seat else p for p in self.players)
        return replace(self, players=players)


# --- evolve --------------------------------------------------------------------------------------------------


def event_type_and_data(event: Any) -> tuple[str, dict[str, Any]]:
    """An event given as ``{"type", "data"}`` or as an object with ``type`` and ``data``."""
    if isinstance(event, dict):
        return event["type"], event.get("data") or {}
    return event.type, event.data


def _setup(board: Board | None, data: dict[str, Any]) -> Board:
    cards = {card["id"]: Card.from_json(card) for card in data["cards"]}
    return Board(cards=cards, players=tuple(Player(seat=seat) for seat in data["seats"]),
                 supply=tuple(data["supply"]))


def _dealt(board: Board, data: dict[str, Any]) -> Board:
    dealt = tuple(data["cards"])
    return replace(board, supply=board.supply[len(dealt):], center=board.center + dealt)


def _reshuffled(board: Board, data: dict[str, Any]) -> Board:
    return replace(board, supply=tuple(data["supply"]), discard_pile=())


def _challenge_started(board: Board, data: dict[str, Any]) -> Board:
    return replace(board, phase=THROW, challenge=data["challenge"], throw=1, throws=(), answers=(), window=None,
                   asked=(), drunk=(), nullified=False, throw_winner=None, claim=None, drawers=(), gained=())


def _thrown(board: Board, data: dict[str, Any]) -> Board:
    return replace(board, throws=board.throws + (Throw(data["seat"], data["sign"]),))


def _revealed(board: Board, data: dict[str, Any]) -> Board:
    revealed = tuple(Revealed(t["seat"], t["sign"]) for t in data["throws"])
    return replace(board, throws=(), revealed=revealed, phase=RESOLVING)


def _window_opened(board: Board, data: dict[str, Any]) -> Board:
    return replace(board, phase=POTIONS, window=data["window"], asked=tuple(data["seats"]), answers=())


def _potion_chosen(board: Board, data: dict[str, Any]) -> Board:
    return replace(board, answers=board.answers + (Answer(data["seat"], data.get("potion"), data.get("simulate")),))


def _potions_revealed(board: Board, data: dict[str, Any]) -> Board:
    drinks = tuple(Drink(d["seat"], d["potion"], d.get("simulate")) for d in data["drunk"])
    for drink in drinks:
        items = board.player(drink.seat).items
        board = board.with_player(drink.seat, items=tuple(c for c in items if c != drink.potion))
    # "Broken" items and "drunk" potions both go to the same discard pile.
    black = any(board.cards[drink.potion].family == BLACK for drink in drinks)
    return replace(board, discard_pile=board.discard_pile + tuple(d.potion for d in drinks),
                   drunk=board.drunk + drinks, nullified=board.nullified or black, answers=(), asked=(),
                   phase=CLAIM if board.window == WIN_WINDOW else RESOLVING, window=None)


def _tied(board: Board, data: dict[str, Any]) -> Board:
    return replace(board, phase=THROW, throw=board.throw + 1, drunk=())


def _won(board: Board, data: dict[str, Any]) -> Board:
    return replace(board, phase=CLAIM, throw_winner=data["seat"])


def _scored(board: Board, data: dict[str, Any]) -> Board:
    seat = data["seat"]
    return board.with_player(seat, points=board.player(seat).points + data["points"])


def _broken(board: Board, data: dict[str, Any]) -> Board:
    broken = tuple(data["cards"])
    items = tuple(c for c in board.player(data["seat"]).items if c not in broken)
    return replace(board.with_player(data["seat"], items=items), discard_pile=board.discard_pile + broken)


def _stolen(board: Board, data: dict[str, Any]) -> Board:
    thief, victim, card = data["seat"], data["from"], data["card"]
    board = board.with_player(victim, items=tuple(c for c in board.player(victim).items if c != card))
    board = board.with_player(thief, items=board.player(thief).items + (card,))
    return replace(board, gained=board.gained + ((thief, card),))


def _claimed(board: Board, data: dict[str, Any]) -> Board:
    order = tuple(data["draw_order"])
    return replace(board, claim=data["choice"], drawers=order, phase=DRAW if order else DISCARD)


def _drew(board: Board, data: dict[str, Any]) -> Board:
    seat, card = data["seat"], data["card"]
    board = board.with_player(seat, items=board.player(seat).items + (card,))
    drawers = board.drawers[1:]
    return replace(board, center=tuple(c for c in board.center if c != card), drawers=drawers,
                   gained=board.gained + ((seat, card),), phase=DRAW if drawers else DISCARD)


def _discarded(board: Board, data: dict[str, Any]) -> Board:
    seat, card = data["seat"], data["card"]
    board = board.with_player(seat, items=tuple(c for c in board.player(seat).items if c != card))
    return replace(board, discard_pile=board.discard_pile + (card,))


def _finished(board: Board, data: dict[str, Any]) -> Board:
    return replace(board, phase=FINISHED, winners=tuple(data["winners"]), throws=(), answers=())


EVOLVERS: dict[str, Callable[[Any, dict[str, Any]], Board]] = {
    "rpsx.setup": _setup,
    "rpsx.dealt": _dealt,
    "rpsx.reshuffled": _reshuffled,
    "rpsx.challenge_started": _challenge_started,
    "rpsx.thrown": _thrown,
    "rpsx.revealed": _revealed,
    "rpsx.window_opened": _window_opened,
    "rpsx.potion_chosen": _potion_chosen,
    "rpsx.potions_revealed": _potions_revealed,
    "rpsx.tied": _tied,
    "rpsx.won": _won,
    "rpsx.scored": _scored,
    "rpsx.broken": _broken,
    "rpsx.stolen": _stolen,
    "rpsx.claimed": _claimed,
    "rpsx.drew": _drew,
    "rpsx.discarded": _discarded,
    "rpsx.finished": _finished,
}
EVENT_TYPES = tuple(EVOLVERS)


def evolve(board: Board | None, event: Any) -> Board:
    """The board after one event (``board`` is None before ``rpsx.setup``)."""
    event_type, data = event_type_and_data(event)
    return EVOLVERS[event_type](board, data)


# --- snapshots -----------------------------------------------------------------------------------------------


def board_to_json(board: Board) -> dict[str, Any]:
    return {
        "cards": [card.to_json() for card in board.cards.values()],
        "players": [{"seat": p.seat, "items": list(p.items), "points": p.points} for p in board.players],
        "supply": list(board.supply), "discard_pile": list(board.discard_pile), "center": list(board.center),
        "phase": board.phase, "challenge": board.challenge, "throw": board.throw,
        "throws": [{"seat": t.seat, "sign": t.sign} for t in board.throws],
        "answers": [_drink_json(a) for a in board.answers],
        "revealed": [{"seat": t.seat, "sign": t.sign} for t in board.revealed],
        "window": board.window, "asked": list(board.asked),
        "drunk": [_drink_json(d) for d in board.drunk],
        "nullified": board.nullified, "throw_winner": board.throw_winner, "claim": board.claim,
        "drawers": list(board.drawers), "gained": [[seat, card] for seat, card in board.gained],
        "winners": None if board.winners is None else list(board.winners),
    }


def board_from_json(data: dict[str, Any]) -> Board:
    return Board(
        cards={card["id"]: Card.from_json(card) for card in data["cards"]},
        players=tuple(Player(p["seat"], tuple(p["items"]), p["points"]) for p in data["players"]),
        supply=tuple(data["supply"]), discard_pile=tuple(data["discard_pile"]), center=tuple(data["center"]),
        phase=data["phase"], challenge=data["challenge"], throw=data["throw"],
        throws=tuple(Throw(t["seat"], t["sign"]) for t in data["throws"]),
        answers=tuple(Answer(**a) for a in data["answers"]),
        revealed=tuple(Revealed(t["seat"], t["sign"]) for t in data["revealed"]),
        window=data["window"], asked=tuple(data["asked"]),
        drunk=tuple(Drink(**d) for d in data["drunk"]),
        nullified=data["nullified"], throw_winner=data["throw_winner"], claim=data["claim"],
        drawers=tuple(data["drawers"]), gained=tuple((seat, card) for seat, card in data["gained"]),
        winners=None if data["winners"] is None else tuple(data["winners"]),
    )


def _drink_json(drink: Drink | Answer) -> dict[str, Any]:
    return {"seat": drink.seat, "potion": drink.potion, "simulate": drink.simulate}
