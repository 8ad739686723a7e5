"""The legal moves of a seat in an ``article_ii`` game.

Only the seat that must act has moves (``acting``: during a Great Debater's reply, the debater, not the player
whose turn it is). They are ``play`` of each card of its hand on each player it may be played on (in a reply,
only the player who played on the debater), with ``remove`` to choose where a card removes a card from play
(Voter ADHD: one of the cards in front of the target), and ``pass`` where a reply or an Insider's second card may
be declined. The Teflon Wonder's optional ``remove_before`` is left to the client.

Whether a play is accepted depends on its effect (an Outsider may not lower another player's Affiliation, a
removal must name a card in front of the target once the card is played), so each candidate is tried against
the rules themselves, on the state as it is, and only those accepted are listed.
"""

from __future__ import annotations

from typing import Any

from dvorak_core.errors import DomainError
from games.engine.events import Actor
from games.engine.rng import SeededRng
from games.engine.ruleset import Ruleset, choose
from games.engine.state import ACTIVE, GameState


def article_ii_moves(ruleset: Ruleset, state: GameState, seat: int, acting: int | None) -> list[dict[str, Any]]:
    if state.status != ACTIVE or acting != seat:
        return []
    table = state.table
    person = state.seat(seat)
    actor = Actor(user_id=person.user_id, username=person.username)

    def accepted(command: dict[str, Any]) -> bool:
        try:
            ruleset.decide(state, command, actor=actor, rng=SeededRng(0))
        except DomainError:
            return False
        return True

    targets = [table.reply["to"]] if table.reply is not None else [s.seat for s in state.seats]
    moves: list[dict[str, Any]] = []
    for card_id in table.player(seat).hand:
        for target in targets:
            play = {"type": "play", "card": card_id, "target": target}
            if accepted(play):
                moves.append(play)
                continue
            # A card that removes a card from play names it: any card in front of the target, the card itself
            # among them once it is played there.
            removable = [c for c in (*table.player(target).in_play, card_id)
                         if accepted({**play, "remove": c})]
            if removable:
                moves.append({**play, "remove": choose(1, removable, as_list=False)})
    if accepted({"type": "pass"}):
        moves.append({"type": "pass"})
    return moves
