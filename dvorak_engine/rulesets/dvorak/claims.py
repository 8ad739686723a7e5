"""Claims: a move citing a card the server does not understand, put to the table (game option
``unread_effects``: ``claim`` or ``vote``; see ``effects``).

- ``claim.opened``: the move is held, not carried out; the cited card's content is shown to everyone (its id
  only to those who could see it). The game waits (status ``voting``) until the claim is settled: only
  ``accept``, ``dispute`` and ``vote`` are taken meanwhile.
- ``claim``: each other player still in the game sends ``accept`` or ``dispute`` (``{"claim": n}``). Once all
  accept, the move is carried out. A dispute puts the claim to a vote under the game's vote rule, the claimant
  counted in favour and the disputer against.
- ``vote``: the claim goes to that vote at once, the claimant counted in favour.
- ``vote`` ``{"claim": n, "approve"}``: as on a proposal (``vote_rules.outcome``); no veto is paid on a claim.
  Passed: ``claim.resolved`` ``accepted`` and the move's events follow; failed: ``rejected``, nothing happens.
  A passed move the game no longer allows (a card since gone) is ``lapsed``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dvorak_core import vote_rules
from dvorak_core.errors import DomainError
from dvorak_engine.cards import card_content
from dvorak_engine.events import Event
from dvorak_engine.ruleset import PUBLIC, CommandContext, applies, command
from dvorak_engine.rulesets.dvorak import bodies
from dvorak_engine.rulesets.dvorak.creative import vote_rule_of, voting_seats
from dvorak_engine.rulesets.dvorak.effects import CLAIM, VOTE
from dvorak_engine.rulesets.dvorak.parts import DvorakParts
from dvorak_engine.rulesets.dvorak.state import Claim
from dvorak_engine.state import VOTING, GameState, seats_standing
from dvorak_engine.values import replace

ACCEPTED, REJECTED, LAPSED, OPEN = "accepted", "rejected", "lapsed", "open"
ANSWERING, VOTING_STAGE = "claim", "vote"


@dataclass(frozen=True)
class GrantedContext(CommandContext):
    """A claim's move carried out once accepted: its cited card is not checked again."""


def _claim_number(state: GameState, command_body: dict[str, Any]) -> Claim:
    claim: Claim | None = state.table.open_claim()
    number = command_body.get("claim")
    if claim is None or isinstance(number, bool) or number != claim.number:
        raise DomainError("There is no open claim with that number.", code="not_found", details={"field": "claim"})
    return claim


def cited(state: GameState, cause: str) -> dict[str, Any]:
    """The cited card's content (no id), or a Special Rule's title and text, shown to everyone with the claim."""
    rule = next((r for r in state.table.special_rules if r.id == cause), None)
    if rule is not None:
        return {"title": rule.title, "text": rule.text}
    return card_content(state.table.cards[cause])


class ClaimRules(DvorakParts):
    """The claim commands, mixed into the ``dvorak`` ruleset (which gives ``fold`` and the move handlers)."""

    def open_claim(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext, cause: str,
                   mode: str) -> list[Event]:
        stage = ANSWERING if mode == CLAIM else VOTING_STAGE
        events = [Event("claim.opened", {
            "number": len(state.table.claims) + 1, "seat": ctx.player_seat, "move": dict(command_body), "cause": cause,
            "card": cited(state, cause), "stage": stage, "during": state.status})]
        if mode == VOTE:
            events += self._claim_vote_events(self.fold(state, events), ctx.player_seat, True, ctx)
        return events

    @command("accept", body=bodies.ACCEPT, active=False, voting=True)
    def accept(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        return self._answer(state, command_body, ctx, accept=True)

    @command("dispute", body=bodies.DISPUTE, active=False, voting=True)
    def dispute(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        return self._answer(state, command_body, ctx, accept=False)

    def _answer(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext, *, accept: bool) -> list[Event]:
        claim = _claim_number(state, command_body)
        if claim.stage != ANSWERING:
            raise DomainError("This claim is already put to a vote: vote on it.", code="denied",
                              details={"claim": claim.number})
        if ctx.seat not in answering_seats(state, claim):
            raise DomainError("Only the other players still in the game answer a claim, once each.", code="denied",
                              details={"claim": claim.number})
        events = [Event("claim.answered", {"number": claim.number, "seat": ctx.seat, "accept": accept})]
        after = self.fold(state, events)
        if not accept:
            # The claimant is counted in favour, the disputer against; the vote may be over at once.
            return events + self._claim_vote_events(after, claim.seat, True, ctx, also={ctx.seat: False})
        if not answering_seats(after, after.table.open_claim()):
            events += self._resolve_claim(after, ACCEPTED, ctx)
        return events

    def vote_on_claim(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        claim = _claim_number(state, command_body)
        approve = command_body.get("approve")
        if not isinstance(approve, bool):
            raise DomainError("\"approve\" must be true or false.", code="invalid", details={"field": "approve"})
        if claim.stage != VOTING_STAGE:
            raise DomainError("This claim is not put to a vote: accept or dispute it.", code="denied",
                              details={"claim": claim.number})
        if ctx.seat not in voting_seats(state):
            raise DomainError("The vote rule gives you no vote.", code="denied")
        if str(ctx.seat) in claim.votes:
            raise DomainError("You have already voted on this claim.", code="denied", details={"claim": claim.number})
        return self._claim_vote_events(state, ctx.seat, approve, ctx)

    def _claim_vote_events(self, state: GameState, seat: int, approve: bool, ctx: CommandContext,
                           also: dict[int, bool] | None = None) -> list[Event]:
        claim = state.table.open_claim()
        events = [Event("claim.voted", {"number": claim.number, "seat": seat, "approve": approve})]
        for other, vote in (also or {}).items():
            events.append(Event("claim.voted", {"number": claim.number, "seat": other, "approve": vote}))
        after = self.fold(state, events)
        votes = {int(s): v for s, v in after.table.open_claim().votes.items()}
        result = vote_rules.outcome(vote_rule_of(after), votes, voting_seats(after))
        if result != OPEN:
            events += self._resolve_claim(after, result, ctx)
        return events

    def _resolve_claim(self, state: GameState, result: str, ctx: CommandContext) -> list[Event]:
        """The claim is settled; an accepted one's move is carried out now, as its claimant sent it."""
        claim = state.table.open_claim()
        resolved = Event("claim.resolved", {"number": claim.number, "status": result})
        if result != ACCEPTED:
            return [resolved]
        after = self.fold(state, [resolved])
        attribute = self.commands[claim.move["type"]][0]
        try:
            move = getattr(self, attribute)(after, dict(claim.move), GrantedContext(ctx.actor, claim.seat, ctx.rng))
        except DomainError:
            return [Event("claim.resolved", {"number": claim.number, "status": LAPSED})]
        return [resolved, *move]

    # --- How claims change the game -----------------------------------------------------------------------

    @applies("claim.opened", shows=dict.fromkeys(("number", "seat", "move", "cause", "card", "stage", "during"),
                                                PUBLIC))
    def apply_claim_opened(self, state: GameState, event: Event) -> GameState:
        data = event.data
        claim = Claim(number=data["number"], seat=data["seat"], move=dict(data["move"]), cause=data["cause"],
                      card=dict(data["card"]), stage=data["stage"], during=data["during"])
        return replace(state, status=VOTING).with_table(claims=(*state.table.claims, claim))

    @applies("claim.answered", shows=dict.fromkeys(("number", "seat", "accept"), PUBLIC))
    def apply_claim_answered(self, state: GameState, event: Event) -> GameState:
        claim = state.table.claims[event.data["number"] - 1]
        answers = {**claim.answers, str(event.data["seat"]): event.data["accept"]}
        stage = claim.stage if event.data["accept"] else VOTING_STAGE
        return _with_claim(state, replace(claim, answers=answers, stage=stage))

    @applies("claim.voted", shows=dict.fromkeys(("number", "seat", "approve"), PUBLIC))
    def apply_claim_voted(self, state: GameState, event: Event) -> GameState:
        claim = state.table.claims[event.data["number"] - 1]
        votes = {**claim.votes, str(event.data["seat"]): event.data["approve"]}
        return _with_claim(state, replace(claim, votes=votes))

    @applies("claim.resolved", shows=dict.fromkeys(("number", "status"), PUBLIC))
    def apply_claim_resolved(self, state: GameState, event: Event) -> GameState:
        claim = state.table.claims[event.data["number"] - 1]
        state = replace(state, status=claim.during)
        return _with_claim(state, replace(claim, status=event.data["status"]))


def answering_seats(state: GameState, claim: Claim) -> list[int]:
    """Who still has to accept or dispute a claim: the other players still in the game who have not answered."""
    return [seat for seat in seats_standing(state) if seat != claim.seat and str(seat) not in claim.answers]


def claim_moves(state: GameState, seat: int) -> list[dict[str, Any]]:
    """The legal moves while a claim is open."""
    claim = state.table.open_claim()
    if claim.stage == ANSWERING:
        if seat in answering_seats(state, claim):
            return [{"type": "accept", "claim": claim.number}, {"type": "dispute", "claim": claim.number}]
        return []
    if seat in voting_seats(state) and str(seat) not in claim.votes:
        return [{"type": "vote", "claim": claim.number, "approve": True},
                {"type": "vote", "claim": claim.number, "approve": False}]
    return []


def _with_claim(state: GameState, claim: Claim) -> GameState:
    claims = list(state.table.claims)
    claims[claim.number - 1] = claim
    return state.with_table(claims=tuple(claims))
