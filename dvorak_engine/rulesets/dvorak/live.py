"""Live tables for Dvorak (``dvorak_engine.ruleset``, "live tables"): whom a clock waits on, how the game goes on
without a seat whose time ran out, which events show a seat something it could not see, and how good the game looks
to a computer player. ``LiveTableRules`` is mixed into the ``dvorak`` ruleset.

- Awaited (``awaited``): while the game is played, the player whose turn it is, in every stage of it (they must
  draw, then end the turn or discard down to their hand limit); while a proposal made during play is open, the
  voters who have not voted; while a claim is open, the players who still have to accept or dispute it, then those
  who have not voted on it. Nobody is awaited for what may be done at any time (a card playable out of turn, a
  Thing's ability, ending one's own rule change, a win a card gives, abandoning, withdrawing, conceding), nor for a
  vote before the game starts or in the Aftermath: no clock runs then.
- Time out (``timed_out``): a seat whose time ran out is out of the game, as if it had conceded (the core's
  ``clock.expired``; its hand and its Things stay where they are, as a concession leaves them). A vote it held up is
  settled when the players left decide it (a proposal by the vote rule among the voters still in the game, a claim
  once every other player still in the game has accepted it); the turn it held passes to the next player still in
  the game (``turn.began``, as after a concession). When one side is left it wins (``game.won_on_time``, the core's
  event, written here so that in Team Dvorak the whole team wins, its players knocked out before too, as after a
  knock-out): a vote still open is first closed as its rule counts it with no more votes to come (what is not
  decided is rejected), so the game never ends with a vote hanging; the turn ends with the game.
- Reveals (``reveals``): a card drawn or dealt (from the hidden draw pile), a card turned up from a hand
  (``card.revealed``), dice thrown, and a card taken at random from another player's hand (``card.taken``). Not a
  card played, given, moved or discarded by its holder (it is shown by its own player's choice, as a play is: an
  agreed undo brings it back), nor a pile shuffled or refilled (its order is seen by nobody).
- Evaluation (``evaluate``): from the seat's own view, each side's strength is its Things in play (those played onto
  other Things too), its counters and, a little, the cards in its hand (up to the hand limit); the score is the
  seat's side's (the seat and its team-mates still in the game, on average) less its opponents' still in the game
  (on average).
"""

from __future__ import annotations

from typing import Any, ClassVar

from dvorak_core import vote_rules
from dvorak_engine import clock
from dvorak_engine.events import Event
from dvorak_engine.ruleset import CommandContext, Unfolding, applies
from dvorak_engine.rulesets.dvorak.claims import ACCEPTED, ANSWERING, OPEN, REJECTED, answering_seats
from dvorak_engine.rulesets.dvorak.creative import vote_rule_of, voting_seats
from dvorak_engine.rulesets.dvorak.parts import DvorakParts
from dvorak_engine.rulesets.dvorak.state import next_seat
from dvorak_engine.state import ACTIVE, PLAYING, VOTING, GameState, winning_seats

# The event types that show a seat a card (or a throw) it could not see before.
REVEALS = frozenset({"card.drawn", "cards.dealt", "card.revealed", "dice.rolled", "card.taken"})

# What each thing a side has is worth to a computer player: a Thing in play, a unit of a counter, a card in hand.
THING, COUNTER, CARD_IN_HAND = 1.0, 0.5, 0.1


class LiveTableRules(DvorakParts):
    """The live-table hooks of the ``dvorak`` ruleset, mixed into it (which gives the claims' and proposals'
    resolutions, ``_resolve_claim`` and ``_resolution``)."""

    reveals: ClassVar[frozenset[str]] = REVEALS

    def awaited(self, state: GameState) -> tuple[int, ...]:
        """The seats the game waits on, read from the turn, the open proposal and the open claim."""
        if state.status not in (ACTIVE, VOTING) or state.table is None:
            return ()
        table = state.table
        if state.status == VOTING:
            claim = table.open_claim()
            if claim is not None:
                if claim.during != ACTIVE:
                    return ()
                if claim.stage == ANSWERING:
                    return tuple(answering_seats(state, claim))
                return tuple(seat for seat in voting_seats(state) if str(seat) not in claim.votes)
            proposal = table.open_proposal()
            if proposal is None or proposal.during != ACTIVE:
                return ()  # a vote before the game starts, or in its Aftermath: no clock runs
            return tuple(seat for seat in voting_seats(state, proposal) if str(seat) not in proposal.votes)
        turn = table.turn
        if turn is None or state.seat(turn.seat).status != PLAYING:
            return ()
        return (turn.seat,)

    def timed_out(self, state: GameState, seats: list[int], ctx: CommandContext) -> list[Event]:
        """The vote the seats held up settled if it can be now, then the turn passed on if it was theirs; with one
        side left the vote is closed and that side wins (``game.won_on_time``, so the core adds no other)."""
        unfolding = Unfolding(self, state, ctx.rng)
        sides = clock.sides_standing(state)
        self._settle_vote(unfolding, ctx, final=len(sides) <= 1)
        if unfolding.state.status not in (ACTIVE, VOTING):
            return unfolding.events
        if len(sides) <= 1:
            # The core's ending, but by Team Dvorak's rule: a team wins whole, its players knocked out before too.
            unfolding.add("game.won_on_time", winners=winning_seats(unfolding.state, sides[0] if sides else []))
            return unfolding.events
        turn = unfolding.table.turn
        if turn is not None and unfolding.state.seat(turn.seat).status != PLAYING:
            unfolding.add("turn.began", seat=next_seat(unfolding.state, turn.seat))
        return unfolding.events

    def _settle_vote(self, unfolding: Unfolding, ctx: CommandContext, *, final: bool) -> None:
        """The open claim, or the open proposal made during play, resolved if the players still in the game have
        decided it; ``final``: no more votes will come, so what they have not decided is rejected."""
        state = unfolding.state
        if state.status != VOTING:
            return
        claim = state.table.open_claim()
        if claim is not None:
            if state.seat(claim.seat).status != PLAYING:
                result = REJECTED  # its claimant is out of the game: their move is not carried out
            elif claim.stage == ANSWERING:
                result = ACCEPTED if not answering_seats(state, claim) else REJECTED if final else OPEN
            else:
                votes = {int(seat): vote for seat, vote in claim.votes.items()}
                result = vote_rules.outcome(vote_rule_of(state), votes, voting_seats(state), final=final)
            if result != OPEN:
                unfolding.extend(self._resolve_claim(state, result, ctx))
            return
        proposal = state.table.open_proposal()
        if proposal is None or proposal.during != ACTIVE:
            return
        votes = {int(seat): vote for seat, vote in proposal.votes.items()}
        result = vote_rules.outcome(vote_rule_of(state), votes, voting_seats(state, proposal), final=final)
        if result != OPEN:
            unfolding.extend(self._resolution(state, proposal.number, result, ctx))

    @applies("game.won_on_time")
    def apply_game_won_on_time(self, state: GameState, event: Event) -> GameState:
        """After the core's part (status finished, the winners): the turn in progress ends with the game, as with
        a win."""
        return state.with_table(turn=None)

    def evaluate(self, view: dict[str, Any], seat: int) -> float:
        """The seat's side's strength less its opponents' (each side's on average over its players still in the
        game), read from the seat's own view."""
        players = [player for player in view.get("players") or () if isinstance(player, dict)]
        me = next((player for player in players if player.get("seat") == seat), None)
        if me is None:
            return 0.0
        limit = (view.get("rules") or {}).get("hand_limit")
        team = me.get("team")
        ours: list[float] = []
        theirs: list[float] = []
        for player in players:
            if player.get("seat") != seat and player.get("status") != PLAYING:
                continue
            mine = player.get("seat") == seat or (team is not None and player.get("team") == team)
            (ours if mine else theirs).append(_strength(player, limit))
        return sum(ours) / len(ours) - (sum(theirs) / len(theirs) if theirs else 0.0)


def _strength(player: dict[str, Any], hand_limit: Any) -> float:
    """What one player has: Things in play, counters, and a little for the cards in hand that it may keep."""
    held = player.get("hand_count", 0)
    if isinstance(hand_limit, int) and not isinstance(hand_limit, bool):
        held = min(held, max(hand_limit, 0))
    counters = sum(value for value in (player.get("counters") or {}).values()
                   if isinstance(value, int | float) and not isinstance(value, bool))
    result: float = THING * _things(player.get("in_play") or ()) + COUNTER * counters + CARD_IN_HAND * held
    return result


def _things(in_play: Any) -> int:
    """How many Things a view's ``in_play`` shows, those played onto others counted too."""
    return sum(1 + _things(thing.get("attached") or ()) for thing in in_play if isinstance(thing, dict))
