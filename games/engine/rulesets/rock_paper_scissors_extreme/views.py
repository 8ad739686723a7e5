"""What a viewer sees of a Rock Paper Scissors Extreme board and of each event.

Everything on the table is face up: the center, the discard pile, each player's items ("in your opponent's
inventory" is in sight, say the Notes). Hidden: the order of the supply and its card ids (a viewer sees how many
cards it holds), and a pending throw or potion answer, which others see only as ``{"seat": n}`` until the event
that reveals them all. An event type this module does not name shows nothing, so a new secret cannot leak by
being forgotten here.
"""

from __future__ import annotations

import copy
from typing import Any

from games.engine.rulesets.rock_paper_scissors_extreme.board import Board, Drink, event_type_and_data
from games.engine.rulesets.rock_paper_scissors_extreme.rules import (
    CENTER_SIZE,
    MAX_ITEMS,
    TARGET_POINTS,
    active_seats,
)

# Events every viewer sees whole: they show cards already face up, or what the players did in the open.
PUBLIC_EVENTS = frozenset({
    "rpsx.dealt", "rpsx.challenge_started", "rpsx.revealed", "rpsx.window_opened", "rpsx.potions_revealed",
    "rpsx.tied", "rpsx.won", "rpsx.scored", "rpsx.broken", "rpsx.stolen", "rpsx.claimed", "rpsx.drew",
    "rpsx.discarded", "rpsx.finished",
})
# Simultaneous secret choices: the chooser sees theirs, everyone else only that the seat has chosen.
SECRET_CHOICE_EVENTS = frozenset({"rpsx.thrown", "rpsx.potion_chosen"})


def view(board: Board, viewer: int | None) -> dict[str, Any]:
    """The board as ``viewer`` (a seat, or None for a spectator) sees it."""

    def card(card_id: str) -> dict[str, Any]:
        return board.cards[card_id].to_json()

    def drink(d: Drink) -> dict[str, Any]:
        shown = {"seat": d.seat, "potion": card(d.potion) if d.potion else None}
        if d.simulate:
            shown["simulate"] = card(d.simulate)
        return shown

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
        "throws": [{"seat": t.seat, "sign": t.sign} if t.seat == viewer else {"seat": t.seat}
                   for t in board.throws],
        "revealed": [{"seat": t.seat, "sign": t.sign} for t in board.revealed],
        "window": board.window,
        "asked": list(board.asked),
        "answers": [drink(a) if a.seat == viewer else {"seat": a.seat} for a in board.answers],
        "drunk": [drink(d) for d in board.drunk],
        "nullified": board.nullified,
        "throw_winner": board.throw_winner,
        "claim": board.claim,
        "drawers": list(board.drawers),
        "just_drawn": [{"seat": seat, "card": card_id} for seat, card_id in board.gained],
        "waiting_for": active_seats(board),
        "winners": None if board.winners is None else list(board.winners),
    }


def view_event(event: Any, viewer: int | None) -> dict[str, Any]:
    """One event as ``viewer`` sees it: ``{"type", "data"}``."""
    event_type, data = event_type_and_data(event)
    if event_type in PUBLIC_EVENTS:
        shown = copy.deepcopy(data)
    elif event_type in SECRET_CHOICE_EVENTS:
        shown = copy.deepcopy(data) if data.get("seat") == viewer else {"seat": data.get("seat")}
    elif event_type == "rpsx.setup":
        shown = {"seats": list(data["seats"]), "cards": len(data["cards"]), "supply": {"count": len(data["supply"])}}
    elif event_type == "rpsx.reshuffled":
        shown = {"supply": {"count": len(data["supply"])}}
    else:
        shown = {}
    return {"type": event_type, "data": shown}
