"""The legal moves of a seat in an ``article_ii`` game.

Only the seat that must act has moves (``acting``: the player naming the card their Voter ADHD removes, else
during a Great Debater's reply the debater, not the player whose turn it is, else the player whose turn it is).
They are:
- while a Voter ADHD waits for its card (``removal``): ``remove`` of one of the cards it may take;
- ``play`` of each card of its hand on each player still in the game it may be played on (in a reply, only the
  player who played on the debater). A card that removes a card from play (Voter ADHD) is listed twice where the
  target has cards in front of it: as it is (the server removes the only card there, or asks for ``remove``
  afterwards) and with ``remove`` to choose the card at once. For the Teflon Wonder each play is also listed with
  ``remove_before`` to choose a card played on it;
- ``pass`` and ``end_turn`` where a reply or an Insider's second card may be declined.

Whether a play is accepted depends on its effect (an Outsider may not lower another player's Affiliation), so
each candidate is tried against the rules themselves, on the state as it is, and only those accepted are listed.
"""

from __future__ import annotations

from typing import Any

from dvorak_core.errors import DomainError
from dvorak_engine.events import Actor
from dvorak_engine.rng import SeededRng
from dvorak_engine.ruleset import Ruleset, choose
from dvorak_engine.rulesets.article_ii.cards import Style, effect_of
from dvorak_engine.state import ACTIVE, ELIMINATED, GameState


def article_ii_moves(ruleset: Ruleset, state: GameState, seat: int, acting: int | None) -> list[dict[str, Any]]:
    if state.status != ACTIVE or acting != seat:
        return []
    table = state.table
    if table.removal is not None:
        return [{"type": "remove", "card": choose(1, table.removal["from"], as_list=False)}]
    person = state.seat(seat)
    actor = Actor(user_id=person.user_id, username=person.username)

    def accepted(command: dict[str, Any]) -> bool:
        try:
            ruleset.decide(state, command, actor=actor, rng=SeededRng(0))
        except DomainError:
            return False
        return True

    targets = [table.reply["to"]] if table.reply is not None else [s.seat for s in state.seats
                                                                    if s.status != ELIMINATED]
    own_in_play = table.player(seat).in_play
    teflon = bool(own_in_play) and any(
        effect_of(table.cards[c]).style is Style.TEFLON_WONDER for c in own_in_play)
    moves: list[dict[str, Any]] = []
    for card_id in table.player(seat).hand:
        removes = effect_of(table.cards[card_id]).removes
        for target in targets:
            play = {"type": "play", "card": card_id, "target": target}
            if accepted(play):
                moves.append(play)
                if teflon:
                    before = [c for c in own_in_play if accepted({**play, "remove_before": c})]
                    if before:
                        moves.append({**play, "remove_before": choose(1, before, as_list=False)})
            if removes:
                # Any card in front of the target, the card itself among them once it is played there.
                removable = [c for c in (*table.player(target).in_play, card_id)
                             if accepted({**play, "remove": c})]
                if removable:
                    moves.append({**play, "remove": choose(1, removable, as_list=False)})
    for declining in ({"type": "pass"}, {"type": "end_turn"}):
        if accepted(declining):
            moves.append(declining)
    return moves
