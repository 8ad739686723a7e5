"""The legal moves of a seat in a ``socialism`` game: every command it may send now, each accepted as listed.

- While a card is being played (the Sherman Act window), each other player who has not yet answered has
  ``pass``, and a ``play`` of each Sherman Act in their hand: moves of several seats at once, out of turn. The
  player whose card it is has none.
- While a Viral Post waits for its player to choose its new user (at the beginning of a turn), that player has
  ``move_viral_post``, the ``user`` to choose, and nobody else has a move.
- In the player's turn: ``draw``; then a ``play`` of each card with each selection it may make (a User at each
  open cell; an Action with what it selects, the last field left to ``choose``); then, in the Invitation phase,
  each invitation not yet sent (``auto``, ``spam``, ``personal`` for each Member and each number of Friends it
  may name), Jimmy Block's ``block``, and ``end_turn``; with ``options.invitations`` ``one``, once one is sent
  (or a ``block``), only ``end_turn``.
"""

from __future__ import annotations

from itertools import groupby
from typing import Any

from dvorak_engine.ruleset import choose
from dvorak_engine.rulesets.socialism.actions import selections
from dvorak_engine.rulesets.socialism.board import DRAW, INVITE, PLAY, network
from dvorak_engine.rulesets.socialism.cards import AUTO, PERSONAL, SHERMAN_ACT, SPAM
from dvorak_engine.rulesets.socialism.invitations import (
    auto_choices,
    block_choices,
    personal_pool,
    personal_sizes,
    spam_choices,
)
from dvorak_engine.rulesets.socialism.options import ONE, invitations
from dvorak_engine.state import ACTIVE, GameState, seats_standing
from dvorak_engine.visibility import Seen

# The last field of a selection that a listed move leaves to the client's choice.
CHOSEN_FIELDS = ("user", "friend", "target", "remove")


def _one_of(values: list[Any]) -> Any:
    """A field with one possible value is that value; with several, a choice left to the client."""
    return values[0] if len(values) == 1 else choose(1, values, as_list=False)


def waiting_for(state: GameState | Seen) -> list[int]:
    """The seats the game waits for: the player of a Viral Post waiting for its new user, those of the Sherman Act
    window, else the player whose turn it is (public fields only: a view calls it on the state as its viewer sees
    it)."""
    table = state.table
    if state.status != ACTIVE or table is None or table.turn is None:
        return []
    if table.viral_choice is not None:
        return [table.viral_choice.owner]
    if table.pending is not None:
        return list(table.pending.waiting)
    return [table.turn.seat]


def _plays(card: str, options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One move per selection, or, where selections differ only in their last field, one with that field to
    choose."""
    moves = []
    for _, grouped in groupby(options, key=lambda option: [(k, v) for k, v in option.items()][:-1]):
        group = list(grouped)
        last = list(group[0])[-1] if group[0] else None
        if len(group) > 1 and last in CHOSEN_FIELDS:
            moves.append(
                {
                    "type": "play",
                    "card": card,
                    **group[0],
                    last: choose(1, [option[last] for option in group], as_list=False),
                }
            )
        else:
            moves += [{"type": "play", "card": card, **option} for option in group]
    return moves


def socialism_moves(state: GameState, seat: int) -> list[dict[str, Any]]:
    if seat not in waiting_for(state):
        return []
    table = state.table
    if table.viral_choice is not None:
        return [{"type": "move_viral_post", "user": _one_of(list(table.viral_choice.choices))}]
    hand = table.player(seat).hand
    if table.pending is not None:
        shermans = [card for card in hand if table.cards[card].title == SHERMAN_ACT]
        return [{"type": "pass"}, *({"type": "play", "card": card} for card in shermans)]
    turn = table.turn
    if turn.stage == DRAW:
        return [{"type": "draw"}]
    seats = seats_standing(state)
    moves: list[dict[str, Any]] = []
    if turn.stage == PLAY:
        for card in hand:
            moves += _plays(card, selections(table, seat, card, seats))
        if not moves:  # a hand of Sherman Acts only: one is played, for nothing
            moves = [{"type": "play", "card": card} for card in hand]
        return moves
    if turn.stage != INVITE:
        return []
    if turn.invited and invitations(state) == ONE:
        return [{"type": "end_turn"}]
    for how, users in ((AUTO, auto_choices(table, seat)), (SPAM, spam_choices(table, seat))):
        if how not in turn.invited and users:
            moves.append({"type": "invite", "how": how, "user": _one_of(users)})
    if PERSONAL not in turn.invited:
        for member in network(table, seat):
            pool = personal_pool(table, seat, member) or []
            for size in personal_sizes(table, member, pool):
                moves.append(
                    {
                        "type": "invite",
                        "how": PERSONAL,
                        "member": member,
                        "friends": choose(size, pool, as_list=True),
                    }
                )
        blocks = block_choices(table, seat)
        for (member, friend), group in groupby(blocks, key=lambda choice: choice[:2]):
            moves.append(
                {
                    "type": "block",
                    "member": member,
                    "friend": friend,
                    "color": _one_of([color for *_, color in group]),
                }
            )
    moves.append({"type": "end_turn"})
    return moves
