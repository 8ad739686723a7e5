"""The legal moves of a seat in a ``dvorak`` game: the structural commands the rules accept from it now.

Listed (``start`` is the core's, for every ruleset): ``draw``; ``play`` of each card the seat may play now,
and of each Thing onto each Thing in play; ``use`` of each Thing with an "Action:" ability; in Team Dvorak
``give`` of a card to a team-mate in place of the Action; ``discard`` down to the hand limit (a choice of the
cards); ``end_turn``; ``end_rule_effect`` of each rule change the seat made with ``set_rule``; in a creative game
whose Blank Card Pile has run empty, ``top_up_blank_cards`` (a fresh pack); and while a
proposal is open, ``vote`` and (its author) ``withdraw`` (in the Aftermath, knocked-out players' too); while a
claim is open (``claims``), ``accept`` and ``dispute`` by the players who still have to answer it, then ``vote``
on it by those who have not voted; while the game is played, ``abandon`` by the players still in it who have not
agreed to abandon it, and its withdrawal by those who have (a game of the first reading lists them only once
somebody has agreed).

A ``play`` of an Action the server carries out whole (``carried``) is listed once per player it may be played at
(``target``: Espionage's opponent), with the cards it may choose (``targets``: ``{"choose": n, "from": [...]}``);
a ``use`` of an ability it carries out on a card (Vorpal Blade, Graverobber) once per ``target`` that fits.

A ``win`` is listed while the game is played once the server reads, in a Special Rule or in a Thing the seat
controls in play, a win that holds for the seat now ("The first player to control three Things wins the game."):
the same check as a ``win`` citing it passes (``effects.verdict``), in a game whose cards the server read.

Not listed: the other effect moves that carry out a card's text (``move``, ``destroy``, ``counter``, a ``win`` the
server cannot check, and the rest, and any other ``play`` with a ``target``), the Creative Rules' proposals, whose
content is the player's to write, and ``concede``, which is always open to a player still in the game.
"""

from __future__ import annotations

from typing import Any

from dvorak_core import vote_rules
from dvorak_engine.ruleset import choose
from dvorak_engine.rulesets.dvorak.abandon import abandon_moves
from dvorak_engine.rulesets.dvorak.carried import (
    ability_targets,
    action_choices,
    is_a,
    optional_draws,
    required_host,
)
from dvorak_engine.rulesets.dvorak.claims import claim_moves
from dvorak_engine.rulesets.dvorak.creative import fresh_packs, vote_rule_of, voting_seats
from dvorak_engine.rulesets.dvorak.effects import ALLOWED, effects_fixed, verdict
from dvorak_engine.rulesets.dvorak.parts import DvorakParts
from dvorak_engine.rulesets.dvorak.precedence import rule_value
from dvorak_engine.rulesets.dvorak.state import (
    DISCARD,
    DRAW,
    PLAY,
    has_action_ability,
    is_action,
    may_be_played_out_of_turn,
    visible_modifiers,
)
from dvorak_engine.state import ACTIVE, PLAYING, VOTING, GameState, team_mates


class DvorakMoves(DvorakParts):
    """The legal moves of the ``dvorak`` ruleset, mixed into it (which gives the turn's limits and ``setup``)."""

    def legal_moves(self, state: GameState, seat: int) -> list[dict[str, Any]]:
        if not self.takes_part(state, seat):
            return []
        if state.status == VOTING:
            if state.table.open_claim() is not None:
                return claim_moves(state, seat)
            return _vote_moves(state, seat)
        if state.status != ACTIVE:
            return _blank_moves(state)
        return [*self._turn_moves(state, seat), *self._plays(state, seat), *_rule_effects_to_end(state, seat),
                *_blank_moves(state), *abandon_moves(state, seat), *_wins(state, seat)]

    def _turn_moves(self, state: GameState, seat: int) -> list[dict[str, Any]]:
        turn = state.table.turn
        if turn is None or turn.seat != seat:
            return []
        if turn.stage == DRAW:
            return [{"type": "draw"}]
        hand = state.table.player(seat).hand
        limit = rule_value(state, "hand_limit", seat)
        if "hand_limit" in state.table.unenforced():
            # The players keep the hand size their Special Rule gives: the turn may end, or cards be discarded.
            moves: list[dict[str, Any]] = [{"type": "end_turn"},
                                           *([{"type": "discard", "cards": choose(1, hand)}] if hand else [])]
        elif limit is not None and len(hand) > limit:
            over = len(hand) - max(limit, 0)
            moves = [{"type": "discard", "cards": choose(over, hand)}]
        else:
            moves = [{"type": "end_turn"}]
        if turn.stage == DISCARD or not self._within_turn_limit(state, seat, action=True):
            return moves
        in_play = state.table.player(seat).in_play
        for card_id in in_play:
            if not has_action_ability(state, card_id) or rule_value(state, "use_actions", seat, card_id) is False:
                continue
            targets = ability_targets(state, card_id)
            moves += ([{"type": "use", "card": card_id}] if targets is None
                      else [{"type": "use", "card": card_id, "target": target} for target in targets])
        if hand and state.seat(seat).team is not None:
            moves += [{"type": "give", "card": choose(1, hand, as_list=False), "to": mate}
                      for mate in team_mates(state, seat) if state.seat(mate).status == PLAYING]
        return moves

    def _plays(self, state: GameState, seat: int) -> list[dict[str, Any]]:
        """Each card of the hand that may be played now: in the play stage of one's own turn, and at any time a
        card that says so, but in one's own turn always within the turn's limits; a Thing also onto each Thing
        in play."""
        turn = state.table.turn
        own_turn = turn is not None and turn.seat == seat
        hosts = [card_id for player in state.table.players for card_id in player.in_play]
        moves: list[dict[str, Any]] = []
        for card_id in state.table.player(seat).hand:
            action = is_action(state, card_id)
            may_play = may_be_played_out_of_turn(state, card_id) or own_turn and turn.stage == PLAY
            counted = own_turn and not self.free_in_own_turn(state, card_id)
            if not may_play or counted and not self._within_turn_limit(state, seat, action):
                continue
            choices = action_choices(state, seat, card_id) if action else None
            needs_host, kind = (False, None) if action else required_host(state, card_id)
            if choices is not None:
                moves += _carried_plays(card_id, *choices)
            elif not needs_host:
                moves.append({"type": "play", "card": card_id})
            if not action and not needs_host and optional_draws(state, card_id):
                moves.append({"type": "play", "card": card_id, "draw": True})
            if not action:
                moves += [{"type": "play", "card": card_id, "onto": host} for host in hosts
                          if not needs_host or is_a(state, host, kind)]
        return moves


def _carried_plays(card_id: str, players: list[int] | None, count: int, pool: list[str]) -> list[dict[str, Any]]:
    """The plays of an Action the server carries out: one per player it may be played at (``target``), each with
    the cards it may choose (``targets``) when it chooses some."""
    move: dict[str, Any] = {"type": "play", "card": card_id}
    if count:
        move["targets"] = choose(count, pool)
    if not players:
        return [move]
    return [{**move, "target": target} for target in players]


def _blank_moves(state: GameState) -> list[dict[str, Any]]:
    """A fresh pack of blank cards, once the Blank Card Pile of a creative game has run empty."""
    if state.table.creative and state.table.blank_cards == 0 and fresh_packs(state):
        return [{"type": "top_up_blank_cards"}]
    return []


def _rule_effects_to_end(state: GameState, seat: int) -> list[dict[str, Any]]:
    """The rule changes this seat made, which it may end at any time (others' need a card: not listed)."""
    return [{"type": "end_rule_effect", "effect": m.order} for m in visible_modifiers(state, seat) if m.by == seat]


def _wins(state: GameState, seat: int) -> list[dict[str, Any]]:
    """``win`` citing the first Special Rule, or Thing the seat controls in play, whose win the server reads and
    finds holding for the seat now."""
    if not effects_fixed(state):
        return []
    for cause in (*(rule.id for rule in state.table.special_rules), *state.table.player(seat).in_play):
        if verdict(state, seat, "win", {}, cause)[0] == ALLOWED:
            return [{"type": "win", "cause": cause}]
    return []


def _vote_moves(state: GameState, seat: int) -> list[dict[str, Any]]:
    proposal = state.table.open_proposal()
    rule = vote_rule_of(state)
    moves: list[dict[str, Any]] = []
    if seat in voting_seats(state, proposal) and str(seat) not in proposal.votes:
        moves.append({"type": "vote", "proposal": proposal.number, "approve": True})
        cost = vote_rules.veto_cost(rule)
        if cost is None or state.table.player(seat).counters.get(cost.counter, 0) >= cost.amount:
            moves.append({"type": "vote", "proposal": proposal.number, "approve": False})
    if proposal.author == seat:
        moves.append({"type": "withdraw", "proposal": proposal.number})
    return moves
