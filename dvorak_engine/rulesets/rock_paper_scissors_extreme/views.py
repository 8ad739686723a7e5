"""What a viewer sees of a Rock Paper Scissors Extreme board and of each event.

Everything on the table is face up: the center, the discard pile, each player's items ("in your opponent's
inventory" is in sight, say the Notes). Hidden: the order of the supply and its card ids (a viewer sees how many
cards it holds), and a pending throw or potion answer, which others see only as ``{"seat": n}`` until the event
that reveals them all.

Both are said once, in the terms of the ruleset contract (``dvorak_engine.visibility``): the board's fields carry
who may see them (``board``), and ``SHOWS`` declares, for each event type, who sees each key of its data. A key
or an event type not declared there shows nothing, so a new secret cannot leak by being forgotten here.
"""

from __future__ import annotations

from typing import Any

from dvorak_engine import visibility
from dvorak_engine.rulesets.rock_paper_scissors_extreme.board import Board, event_type_and_data
from dvorak_engine.rulesets.rock_paper_scissors_extreme.cards import CENTER_SIZE, card_json
from dvorak_engine.rulesets.rock_paper_scissors_extreme.rules import (
    MAX_ITEMS,
    TARGET_POINTS,
    active_seats,
)
from dvorak_engine.visibility import COUNT, OWNER, PUBLIC


def _public(*keys: str) -> dict[str, str]:
    return dict.fromkeys(keys, PUBLIC)


# Who sees which key of each event's data. Simultaneous secret choices (a throw, a potion answer): the chooser
# sees theirs, everyone else only that the seat has chosen (``OWNER`` is the seat named by the event's "seat").
# The deck's cards as dealt and each new supply: counted, never listed (their order is the supply's).
SHOWS: dict[str, dict[str, Any]] = {
    "rpsx.setup": {"seats": PUBLIC, "cards": len, "supply": COUNT},
    "rpsx.dealt": _public("cards"),
    "rpsx.reshuffled": {"supply": COUNT},
    "rpsx.challenge_started": _public("challenge"),
    "rpsx.thrown": {"seat": PUBLIC, "sign": OWNER},
    "rpsx.revealed": _public("throws"),
    "rpsx.window_opened": _public("window", "seats"),
    "rpsx.potion_chosen": {"seat": PUBLIC, "potion": OWNER, "simulate": OWNER},
    "rpsx.potions_revealed": _public("window", "drunk"),
    "rpsx.tied": _public("sign"),
    "rpsx.won": _public("seat", "sign"),
    "rpsx.scored": _public("seat", "points", "cause"),
    "rpsx.broken": _public("seat", "cards", "cause"),
    "rpsx.stolen": _public("seat", "from", "card", "cause"),
    "rpsx.claimed": _public("seat", "choice", "draw_order"),
    "rpsx.drew": _public("seat", "card"),
    "rpsx.discarded": _public("seat", "card"),
    "rpsx.finished": _public("winners"),
}


def view(board: Board | visibility.Seen, viewer: int | None) -> dict[str, Any]:
    """The board as ``viewer`` (a seat, or None for a spectator) sees it: each card in sight as a whole card.

    Made from the board as the viewer may see it (``visibility.seen``; a Board given is read so): a field its
    declarations do not show this viewer cannot be read here."""
    if not isinstance(board, visibility.Seen):
        board = visibility.seen(board, viewer)
    cards = board.cards  # a lookup: a card is found by an id the viewer was shown

    def card(card_id: str | None) -> dict[str, Any] | None:
        return None if card_id is None else card_json(cards[card_id])

    def cards_of(shown: dict[str, Any]) -> dict[str, Any]:
        """A drink or an answer as the visibility rules show it, its card ids made whole cards."""
        return {key: card(value) if key in ("potion", "simulate") else value for key, value in shown.items()
                if key != "simulate" or value is not None}

    return {
        "phase": board.phase,
        "challenge": board.challenge,
        "throw": board.throw,
        "target_points": TARGET_POINTS,
        "max_items": MAX_ITEMS,
        "center_size": CENTER_SIZE,
        "center": [card(c) for c in board.center],
        "supply": {"count": len(board.supply)},
        "discard_pile": [card(c) for c in board.discard_pile],
        "players": [{"seat": p.seat, "points": p.points, "items": [card(c) for c in p.items]}
                    for p in board.players],
        "throws": visibility.state_view(board.throws, viewer),
        "revealed": visibility.state_view(board.revealed, viewer),
        "window": board.window,
        "asked": list(board.asked),
        "answers": [cards_of(shown) for shown in visibility.state_view(board.answers, viewer)],
        "drunk": [cards_of(shown) for shown in visibility.state_view(board.drunk, viewer)],
        "nullified": board.nullified,
        "throw_winner": board.throw_winner,
        "claim": board.claim,
        "drawers": list(board.drawers),
        "just_drawn": [{"seat": seat, "card": card_id} for seat, card_id in board.gained],
        "waiting_for": active_seats(board),
        "winners": None if board.winners is None else list(board.winners),
    }


def view_event(event: Any, viewer: int | None) -> dict[str, Any]:
    """One event as ``viewer`` sees it: ``{"type", "data"}``, its data cut down as ``SHOWS`` declares."""
    event_type, data = event_type_and_data(event)
    return {"type": event_type, "data": visibility.event_view(data, SHOWS.get(event_type, {}), viewer)}
