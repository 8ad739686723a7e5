"""The Creative Rules of Dvorak: the Blank Card Pile, proposals, votes, amendments, repeals and the aftermath.

Read it beside the rulebook's "The Creative Rules". ``CreativeRules`` is mixed into the ``dvorak`` ruleset; its
commands only work in a creative game (``GameState.creative``):

- ``propose`` (at any time, also out of turn, and before the game starts or after it is over): ``kind`` is
  ``card`` (``card``: {title, type, text}, or ``from_rejected``: a rejected card's id, proposed again verbatim),
  ``bundle`` (``cards``: several new cards under one vote), ``special_rule`` (``rule``: {title, text, params?}),
  ``amend`` (``card``, ``changes``: {title?, type?, text?, flavor?, corner_value?}), ``repeal`` (``card``),
  ``amend_rule`` (``rule``, ``changes``: {title?, text?, params?}) or ``repeal_rule`` (``rule``).
- ``vote`` {proposal, approve} by every player still in the game (or those the vote rule names), and
  ``withdraw`` {proposal} by its author. While a proposal is open the game stops (status ``voting``) and only
  these two commands are accepted.

Decisions where the rulebook leaves room:

- A new card takes a card from the Blank Card Pile when it is proposed (it is written on then); when the pile is
  empty no new card may be created. A rejected or withdrawn card is set aside in the ``rejected`` pile, visible
  to all, and may be proposed again without a new blank card.
- Only cards in play, in the discard pile or in the proposer's own hand may be amended or repealed (so that the
  proposal reveals no card's position); option ``amend_any_card`` allows any card of the deck, as on the MUSH,
  named by id or, since hidden cards' ids are known to no one, by ``"title"``.
  Proposing to amend or repeal a card makes its content public (everyone must read what they vote on); its id
  stays hidden from whoever cannot see the card, so it cannot be followed, and no other card is revealed.
- An accepted new card is shuffled into the draw pile at a random position, written in the event and never
  shown; an accepted amendment leaves the card where it is, with its new content; an accepted repeal removes
  the card from the game entirely (with what it set up). Special Rules take effect at once.
- Multi-Deck Dvorak: a new card goes into its creator's deck (shuffled into the proposer's own draw pile once
  accepted); a new card may name another player's deck instead (``"deck": <seat>``), so that a bundle can give
  "two Xenomorph Eggs to A and a Flamethrower to B" under one vote.
- CCG Dvorak: players may not propose new cards for their decks, nor amend (or repeal) cards: the Card Set is
  changed on the set itself, outside the game. Special Rules may still be proposed.
- A Special Rule whose ``params`` hold ``vote_rule`` changes how later proposals pass (``dvorak_core.vote_rules``).
- The Aftermath (``aftermath``): once the game is over, proposals stay open, and the whole table reviews the deck:
  players knocked out during the game propose and vote again, and every one of them is counted in the vote.
"""

from __future__ import annotations

from typing import Any

from dvorak_core import vote_rules
from dvorak_core.effects import checked_effect, read_special_rule, rule_params_with_effect, to_json
from dvorak_core.errors import DomainError
from dvorak_core.rule_params import checked_params, mentions
from dvorak_engine.bodies import whole as bodies_whole
from dvorak_engine.cards import card_content, cards_from_json
from dvorak_engine.events import Event
from dvorak_engine.ruleset import COUNT, PUBLIC, CommandContext, applies, command
from dvorak_engine.rulesets.dvorak import bodies
from dvorak_engine.rulesets.dvorak.aftermath import in_the_aftermath
from dvorak_engine.rulesets.dvorak.effects import TRUST, rule_params_of, unread_effects_option
from dvorak_engine.rulesets.dvorak.parts import DvorakParts
from dvorak_engine.rulesets.dvorak.piles import draw_pile_of, pile_seat, with_piles
from dvorak_engine.rulesets.dvorak.precedence import rule_value
from dvorak_engine.rulesets.dvorak.state import (
    CCG,
    READING,
    Proposal,
    SpecialRule,
    cards_in_the_deck,
    cards_visible_to,
)
from dvorak_engine.state import VOTING, GameState, seats_standing
from dvorak_engine.values import replace
from dvorak_engine.visibility import COUNT_EACH

CARD = "card"
BUNDLE = "bundle"
SPECIAL_RULE = "special_rule"
AMEND, REPEAL = "amend", "repeal"
AMEND_RULE, REPEAL_RULE = "amend_rule", "repeal_rule"
PROPOSAL_KINDS = (CARD, BUNDLE, SPECIAL_RULE, AMEND, REPEAL, AMEND_RULE, REPEAL_RULE)
# CCG Dvorak: the cards of a player's deck come from the Card Set, and only the set itself changes them.
CARD_SET_KINDS = (CARD, BUNDLE, AMEND, REPEAL)
NEW_CARD_KINDS = (CARD, BUNDLE)
ACCEPTED, REJECTED, WITHDRAWN, OPEN_VOTE = "accepted", "rejected", "withdrawn", "open"

CARD_TYPES = ("Thing", "Action")
CARD_FIELDS = ("title", "type", "text", "flavor", "corner_value")
RULE_FIELDS = ("title", "text", "params")
# A proposed card or Special Rule (or an amendment's changes) may carry its effect in the effect language: the vote
# approves it with the text, and it enters the game, and the deck written back after it, as a confirmed effect.
EFFECT = "effect"
MAX_TITLE, MAX_TEXT, MAX_BUNDLE = 200, 4000, 20
DEFAULT_MIN_CARDS_PER_PLAYER = 5
# A creative game's Blank Card Pile unless its options say otherwise: a pack of record cards.
DEFAULT_BLANK_CARDS = 100
# Who may top up the Blank Card Pile (option ``blank_cards_top_up``): anyone once it is empty, or only a card.
WHEN_EMPTY, BY_CARD = "when_empty", "by_card"
TOP_UPS = (WHEN_EMPTY, BY_CARD)
# The most blank cards one top-up adds, and the most the pile may hold.
MAX_TOP_UP, MAX_BLANK_CARDS = 1000, 10_000


# --- reading proposals from commands ---------------------------------------------------------------------------


def _text(value: Any, name: str, *, required: bool, limit: int) -> str:
    if value is None and not required:
        return ""
    if not isinstance(value, str) or (required and not value.strip()) or len(value) > limit:
        need = "a non-empty text" if required else "a text"
        raise DomainError(f"\"{name}\" must be {need} of at most {limit} characters.", code="invalid", details={"field": name})
    return value.strip() if required else value


def _card_fields(value: Any, name: str, *, partial: bool) -> dict[str, str]:
    """A new card's content (``partial``: an amendment's changes, at least one of them)."""
    if not isinstance(value, dict) or (partial and not value):
        raise DomainError(f"\"{name}\" must be an object with a card's title, type and text.",
                          code="invalid", details={"field": name})
    unknown = set(value) - {*CARD_FIELDS, EFFECT}
    if unknown:
        raise DomainError(f"A card has no {', '.join(sorted(unknown))}.", code="invalid", details={"field": name})
    fields: dict[str, Any] = {}
    for key in CARD_FIELDS:
        if partial and key not in value:
            continue
        if key == "type":
            if value.get("type") not in CARD_TYPES:
                raise DomainError("A card's \"type\" is \"Thing\" or \"Action\".", code="invalid", details={"field": "type"})
            fields["type"] = value["type"]
        else:
            fields[key] = _text(value.get(key), key, required=key == "title", limit=MAX_TEXT)
    if "title" in fields and len(fields["title"]) > MAX_TITLE:
        raise DomainError(f"A title has at most {MAX_TITLE} characters.", code="invalid", details={"field": "title"})
    if value.get(EFFECT) is not None or (partial and EFFECT in value):
        fields[EFFECT] = checked_effect(value[EFFECT], field=f"{name}.{EFFECT}")
    return fields


def _rule_fields(value: Any, name: str, *, partial: bool) -> dict[str, Any]:
    if not isinstance(value, dict) or (partial and not value):
        raise DomainError(f"\"{name}\" must be an object with a Special Rule's title and text.",
                          code="invalid", details={"field": name})
    unknown = set(value) - {*RULE_FIELDS, EFFECT}
    if unknown:
        raise DomainError(f"A Special Rule has no {', '.join(sorted(unknown))}.", code="invalid", details={"field": name})
    fields: dict[str, Any] = {}
    if not partial or "title" in value:
        fields["title"] = _text(value.get("title"), "title", required=True, limit=MAX_TITLE)
    if not partial or "text" in value:
        fields["text"] = _text(value.get("text"), "text", required=False, limit=MAX_TEXT)
    if not partial or "params" in value:
        fields["params"] = checked_params(value.get("params"))
    if value.get(EFFECT) is not None or (partial and EFFECT in value):
        fields[EFFECT] = checked_effect(value[EFFECT], field=f"{name}.{EFFECT}")
        if not partial:  # what the effect sets (set_rule) goes into the rule's params (an amendment's: below)
            fields["params"] = rule_params_with_effect(fields["params"], fields[EFFECT], field=f"{name}.params")
    return fields


def _proposal_number(state: GameState, command_body: dict[str, Any]) -> Proposal:
    number = command_body.get("proposal")
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= len(state.table.proposals):
        raise DomainError("There is no proposal with that number.", code="not_found", details={"field": "proposal"})
    proposal: Proposal = state.table.proposals[number - 1]
    if proposal.status != OPEN_VOTE:
        raise DomainError(f"Proposal {number} is no longer open.", code="denied", details={"proposal": number})
    return proposal


def vote_rule_of(state: GameState) -> Any:
    return rule_value(state, "vote_rule", None) or vote_rules.DEFAULT_VOTE_RULE


def voting_seats(state: GameState, proposal: Proposal | None = None) -> list[int]:
    """Who votes (as the vote rule narrows them): the players still in the game; in the Aftermath the whole table,
    knocked-out players too. On a ``proposal``, not its author, unless ``proposer_votes``: a new card "is
    presented to the other players for their immediate judgment". An author who is the only one the vote rule
    leaves (a dictator, or a creator alone at the table before anyone joins) judges their own proposal, or
    nothing could ever be created."""
    players = [seat.seat for seat in state.seats] if in_the_aftermath(state) else seats_standing(state)
    voters = vote_rules.voters(vote_rule_of(state), players)
    if proposal is None or proposer_votes(state):
        return voters
    others = [seat for seat in voters if seat != proposal.author]
    return others or voters


def proposer_votes(state: GameState) -> bool:
    """Option ``proposer_votes``: whether a proposal's author votes on it. By default not (the rulebook presents
    a card to the other players); a game created before the server read it so (reading 1) keeps its author's
    vote."""
    value = state.options.get("proposer_votes")
    if value is None:
        result: bool = state.table.reading < READING
        return result
    return bool(value)


def min_cards_to_start(state: GameState) -> int:
    per_player: int = state.options.get("min_cards_per_player", DEFAULT_MIN_CARDS_PER_PLAYER)
    return per_player * len(state.seats)


class CreativeRules(DvorakParts):
    """The Creative Rules' commands, events and views, mixed into a ``Ruleset`` that provides ``evolve``,
    ``remove_card`` (take a card out of its zone) and ``special_rule_modifier_events``."""

    def takes_part(self, state: GameState, seat: int) -> bool:
        """In the Aftermath the whole table reviews the deck: knocked-out players propose and vote too."""
        return super().takes_part(state, seat) or in_the_aftermath(state)

    # --- Starting the Creative Game ------------------------------------------------------------------------

    def require_enough_cards(self, state: GameState) -> None:
        """Players create cards until the draw pile holds five (``min_cards_per_player``) per player."""
        if not state.table.creative:
            return
        if state.table.has_own_decks:
            self._require_enough_cards_in_each_deck(state)
            return
        needed, present = min_cards_to_start(state), len(cards_in_the_deck(state))
        if present < needed:
            raise DomainError(f"Create more cards first: the deck has {present} of the "
                                                  f"{needed} it needs to start.",
                              code="not_enough_cards", details={"cards": present, "needed": needed})

    def _require_enough_cards_in_each_deck(self, state: GameState) -> None:
        """Multi-Deck Dvorak: each player's own deck needs its five (``min_cards_per_player``) cards."""
        needed = state.options.get("min_cards_per_player", DEFAULT_MIN_CARDS_PER_PLAYER)
        deck = cards_in_the_deck(state)
        for player in state.table.players:
            present = sum(state.table.owners.get(card_id) == player.seat for card_id in deck)
            if present < needed:
                raise DomainError(f"Create more cards first: {state.seat(player.seat).username}'s deck has "
                                                      f"{present} of the {needed} it needs to start.",
                                  code="not_enough_cards", details={"seat": player.seat, "cards": present, "needed": needed})

    # --- Creating a Card, Amending and Repealing ------------------------------------------------------------

    @command("propose", body=bodies.PROPOSE, active=False)
    def propose(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        if not state.table.creative:
            raise DomainError("Only a creative game takes proposals.", code="denied")
        kind = command_body.get("kind")
        if kind not in PROPOSAL_KINDS:
            raise DomainError(f"\"kind\" must be one of {', '.join(PROPOSAL_KINDS)}.",
                              code="invalid", details={"field": "kind"})
        if state.table.variant == CCG and kind in CARD_SET_KINDS:
            raise DomainError("In a CCG game the cards come from the Card Set: propose changes to the set "
                                        "itself, not in the game.", code="denied", details={"field": "kind"})
        content = getattr(self, f"_propose_{kind}")(state, command_body, ctx)
        return [Event("proposal.opened", {"number": len(state.table.proposals) + 1, "kind": kind, "author": ctx.seat,
                                          "during": state.status, **content})]

    def _propose_card(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> dict[str, Any]:
        if "from_rejected" in command_body:
            card_id = command_body["from_rejected"]
            if card_id not in state.table.rejected:
                raise DomainError("No rejected card has that id.", code="not_found", details={"field": "from_rejected"})
            return {"cards": [], "from_rejected": card_id}
        return self._new_cards(state, [command_body.get("card")], ctx, field="card")

    def _propose_bundle(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> dict[str, Any]:
        cards = command_body.get("cards")
        if not isinstance(cards, list) or not 1 <= len(cards) <= MAX_BUNDLE:
            raise DomainError(f"\"cards\" must list 1 to {MAX_BUNDLE} new cards.", code="invalid", details={"field": "cards"})
        return self._new_cards(state, cards, ctx, field="cards")

    def _new_cards(self, state: GameState, contents: list[Any], ctx: CommandContext, *, field: str) -> dict[str, Any]:
        """The proposal's new cards, written on blank cards; in a Multi-Deck game also whose deck each goes into
        (``decks``, in the same order)."""
        if state.table.blank_cards < len(contents):
            raise DomainError("The Blank Card Pile has run out: no new cards may be created.",
                              code="limit_reached", details={"blank_cards": state.table.blank_cards})
        cards, decks, taken = [], [], set(state.table.cards)
        for content in contents:
            card_id = ctx.rng.token_hex(8)
            while card_id in taken:
                card_id = ctx.rng.token_hex(8)
            taken.add(card_id)
            if state.table.has_own_decks and isinstance(content, dict):
                decks.append(_deck_seat(state, content.get("deck", ctx.seat), field))
                content = {key: value for key, value in content.items() if key != "deck"}
            fields = _card_fields(content, field, partial=False)
            cards.append({"id": card_id, **fields, "creator": ctx.actor.username, "stats": {}})
        return {"cards": cards, "decks": decks} if state.table.has_own_decks else {"cards": cards}

    def _propose_special_rule(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> dict[str, Any]:
        fields = _rule_fields(command_body.get("rule"), "rule", partial=False)
        if fields.get(EFFECT) is None and state.table.reading >= READING:
            # "Special Rules are created in the same way as cards, and start taking effect immediately, if they are
            # accepted": what the server reads of its words it sets ("Hand size is seven"), the proposer's own
            # params over it; everyone votes on both.
            fields["params"] = {**self._read_params(fields["title"], fields["text"]), **fields["params"]}
        rule_id = ctx.rng.token_hex(8)
        while any(rule.id == rule_id for rule in state.table.special_rules):
            rule_id = ctx.rng.token_hex(8)
        return {"rule": {"id": rule_id, **fields}}

    def _propose_amend(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> dict[str, Any]:
        card_id = self._amendable_card(state, command_body, ctx.player_seat)
        return {"target": card_id, "original": card_content(state.table.cards[card_id]),
                "changes": _card_fields(command_body.get("changes"), "changes", partial=True)}

    def _propose_repeal(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> dict[str, Any]:
        card_id = self._amendable_card(state, command_body, ctx.player_seat)
        return {"target": card_id, "original": card_content(state.table.cards[card_id])}

    def _amendable_card(self, state: GameState, command_body: dict[str, Any], seat: int) -> str:
        """A card of the deck the proposer may name: in play, in the discard pile or in their own hand (any card
        of the deck with ``amend_any_card``)."""
        card_id: str | None = command_body.get("card")
        in_deck = set(cards_in_the_deck(state))
        may_name = in_deck
        if not state.options.get("amend_any_card"):
            may_name = in_deck & cards_visible_to(state, seat)
        elif card_id is None and isinstance(command_body.get("title"), str):
            # A card nobody can see has no id anyone knows: name it by its title, which the deck's list shows
            # anyway (the first copy in the game's own shuffled order, so it says nothing of where any copy is).
            card_id = next((c for c in state.table.cards if c in in_deck and state.table.cards[c].title == command_body["title"]),
                           None)
        if card_id not in may_name:
            # The same answer whether the card is hidden elsewhere or does not exist: it reveals nothing.
            raise DomainError("No card you may amend or repeal has that id.", code="not_found", details={"field": "card"})
        assert card_id is not None  # None is in no set of cards
        return card_id

    def _propose_amend_rule(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> dict[str, Any]:
        rule = self._special_rule_field(state, command_body)
        changes = _rule_fields(command_body.get("changes"), "changes", partial=True)
        if changes.get(EFFECT) is not None:
            changes["params"] = rule_params_with_effect(changes.get("params", rule.params), changes[EFFECT],
                                                        field="changes.params")
        elif "text" in changes and state.table.reading >= READING:
            # New words set what they say; what the old words set goes with them (a rule parameter the Basic Rules
            # have), and the rest of its params stays unless the amendment gives them.
            kept = {key: value for key, value in rule.params.items() if key not in self.default_rules}
            changes["params"] = {**kept, **self._read_params(changes.get("title", rule.title), changes["text"]),
                                 **changes.get("params", {})}
        elif "params" in changes and "text" not in changes and EFFECT not in changes:
            # The words stay, so what they set stays too (a hand limit of seven), under the parameters amended.
            said = rule.effect
            if said is None and state.table.effects is not None and (
                    unread_effects_option(state.options) != TRUST or state.table.reading >= READING):
                said = state.table.effects.get("special_rules", {}).get(rule.id)
            changes["params"] = {**rule_params_of(said, set(self.default_rules)), **changes["params"]}
        return {"target": rule.id, "original": _rule_json(rule), "changes": changes}

    def _propose_repeal_rule(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> dict[str, Any]:
        rule = self._special_rule_field(state, command_body)
        return {"target": rule.id, "original": _rule_json(rule)}

    def _read_params(self, title: str, text: str) -> dict[str, Any]:
        """The rule parameters a Special Rule's words set, as the server reads them (none if it cannot)."""
        reading = read_special_rule(title, text)
        return rule_params_of(to_json(reading.effects), set(self.default_rules)) if reading.understood else {}

    def _special_rule_field(self, state: GameState, command_body: dict[str, Any]) -> SpecialRule:
        rule_id = command_body.get("rule")
        rule: SpecialRule | None = next((r for r in state.table.special_rules if r.id == rule_id), None)
        if rule is None:
            raise DomainError("There is no Special Rule with that id.", code="not_found", details={"field": "rule"})
        return rule

    # --- Voting ---------------------------------------------------------------------------------------------

    @command("vote", body=bodies.VOTE, active=False, voting=True)
    def vote(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        if "claim" in command_body:  # a vote on an open claim (``claims``)
            return self.vote_on_claim(state, command_body, ctx)
        proposal = _proposal_number(state, command_body)
        approve = command_body.get("approve")
        if not isinstance(approve, bool):
            raise DomainError("\"approve\" must be true or false.", code="invalid", details={"field": "approve"})
        rule = vote_rule_of(state)
        voters = voting_seats(state, proposal)
        if ctx.seat not in voters:
            if ctx.seat == proposal.author and ctx.seat in voting_seats(state):
                raise DomainError("Your proposal is presented to the other players for their judgment: its "
                                  "author does not vote on it (option proposer_votes).", code="denied",
                                  details={"proposal": proposal.number})
            raise DomainError("The vote rule gives you no vote.", code="denied")
        if str(ctx.seat) in proposal.votes:
            raise DomainError("You have already voted on this proposal.", code="denied", details={"proposal": proposal.number})
        events = self._veto_payment(state, rule, ctx.seat) if not approve else []
        events.append(Event("proposal.voted", {"number": proposal.number, "seat": ctx.seat, "approve": approve}))
        votes = {int(seat): vote for seat, vote in proposal.votes.items()} | {ctx.seat: approve}
        result = vote_rules.outcome(rule, votes, voters)
        if result != OPEN_VOTE:
            events += self._resolution(self.fold(state, events), proposal.number, result, ctx)
        return events

    def _veto_payment(self, state: GameState, rule: Any, seat: int) -> list[Event]:
        cost = vote_rules.veto_cost(rule)
        if cost is None:
            return []
        held = state.table.player(seat).counters.get(cost.counter, 0)
        if held < cost.amount:
            raise DomainError(f"A vote against costs {cost.amount} {cost.counter}; you have "
                                               f"{held}.", code="limit_reached", details={"counter": cost.counter, "cost": cost.amount})
        return [Event("counter.changed", {"seat": seat, "name": cost.counter, "delta": -cost.amount,
                                          "value": held - cost.amount, "by": seat, "cause": None})]

    def _resolution(self, state: GameState, number: int, result: str, ctx: CommandContext) -> list[Event]:
        """The vote is over: accepted cards are shuffled into the draw pile at random positions, and an accepted
        Special Rule takes effect at once."""
        proposal = state.table.proposals[number - 1]
        data: dict[str, Any] = {"number": number, "status": result}
        if result == ACCEPTED and proposal.cards:
            draw_piles: dict[int | None, list[str]] = {}
            for card_id in proposal.cards:
                # Into its deck's draw pile: the shared one, or in Multi-Deck Dvorak its player's own.
                seat = pile_seat(state, state.table.owners.get(card_id))
                draw_pile = draw_piles.setdefault(seat, list(draw_pile_of(state, seat)))
                draw_pile.insert(ctx.rng.randbelow(len(draw_pile) + 1), card_id)
            if state.table.has_own_decks:
                data["draw_piles"] = {str(seat): pile for seat, pile in draw_piles.items()}
            else:
                data["draw_pile"] = draw_piles[None]
        events = [Event("proposal.resolved", data)]
        if result == ACCEPTED and proposal.kind in (SPECIAL_RULE, AMEND_RULE):
            after = self.fold(state, events)
            rule = next(r for r in after.table.special_rules if r.id == (proposal.target or proposal.rule["id"]))
            events += self.special_rule_modifier_events(after, [rule])
            events += self._counter_events(after, rule)
        return events

    def _counter_events(self, state: GameState, rule: SpecialRule) -> list[Event]:
        """A new counter ("Each player has an amount of Gold") starts for every player who has none yet."""
        return [
            Event("counter.changed", {"seat": player.seat, "name": name, "delta": start, "value": start,
                                      "by": None, "cause": rule.id})
            for name, start in (rule.params.get("counters") or {}).items()
            for player in state.table.players
            if name not in player.counters
        ]

    # --- The Blank Card Pile ----------------------------------------------------------------------------------

    @command("top_up_blank_cards", body=bodies.TOP_UP_BLANK_CARDS, active=False)
    def top_up_blank_cards(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        """"If the Blank Card Pile ever runs empty, it can be topped up with a fresh pack of blank cards": by any
        player once it is empty (option ``blank_cards_top_up``: ``when_empty``), a pack as large as the game's
        first; or at any time by a card or Special Rule that says so (``cause``: its text speaks of blank
        cards), as many as it says (``count``)."""
        if not state.table.creative:
            raise DomainError("Only a creative game has a Blank Card Pile.", code="denied")
        if "cause" in command_body:
            count = bodies_whole(command_body, "count")
            cause = self._blank_cause(state, command_body, ctx.player_seat)
        else:
            if "count" in command_body:
                raise DomainError("A fresh pack holds as many cards as the game began with: \"count\" is for a "
                                  "card or Special Rule that says how many (with \"cause\").", code="invalid",
                                  details={"field": "count"})
            if not fresh_packs(state):
                raise DomainError("In this game only a card or Special Rule that says so tops up the Blank Card "
                                  "Pile (name it in \"cause\").", code="denied",
                                  details={"blank_cards_top_up": BY_CARD})
            if state.table.blank_cards > 0:
                raise DomainError("The Blank Card Pile is topped up once it runs empty.", code="denied",
                                  details={"blank_cards": state.table.blank_cards})
            cause, count = None, pack_size(state)
        if state.table.blank_cards + count > MAX_BLANK_CARDS:
            raise DomainError(f"The Blank Card Pile holds at most {MAX_BLANK_CARDS} cards.", code="limit_reached",
                              details={"blank_cards": state.table.blank_cards, "maximum": MAX_BLANK_CARDS})
        return [Event("blank_cards.topped_up", {"count": count, "by": ctx.player_seat, "cause": cause})]

    def _blank_cause(self, state: GameState, command_body: dict[str, Any], seat: int) -> str:
        """A card the player can see or a Special Rule, whose text speaks of blank cards."""
        cause = command_body.get("cause")
        rule = next((r for r in state.table.special_rules if r.id == cause), None)
        if rule is not None:
            text, cause = rule.text, rule.id
        elif isinstance(cause, str) and cause in cards_visible_to(state, seat):
            text = state.table.cards[cause].text
        else:
            raise DomainError("\"cause\" must name a card you can see or a Special Rule.", code="invalid",
                              details={"field": "cause"})
        if not mentions(text, "blank_cards"):
            raise DomainError("That card's text says nothing of blank cards.", code="denied",
                              details={"field": "cause"})
        return cause

    @applies("blank_cards.topped_up", shows=dict.fromkeys(("count", "by", "cause"), PUBLIC))
    def apply_blank_cards_topped_up(self, state: GameState, event: Event) -> GameState:
        return state.with_table(blank_cards=state.table.blank_cards + event.data["count"])

    @command("withdraw", body=bodies.WITHDRAW, active=False, voting=True)
    def withdraw(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        proposal = _proposal_number(state, command_body)
        if proposal.author != ctx.seat:
            raise DomainError("Only its author can withdraw a proposal.", code="forbidden", details={"proposal": proposal.number})
        return [Event("proposal.withdrawn", {"number": proposal.number})]

    # --- How proposals change the game ----------------------------------------------------------------------

    @applies("proposal.opened", shows=dict.fromkeys(
        ("number", "kind", "author", "during", "cards", "from_rejected", "decks", "target", "original", "changes",
         "rule"), PUBLIC))
    def apply_proposal_opened(self, state: GameState, event: Event) -> GameState:
        data = event.data
        new_cards = cards_from_json(data.get("cards", []))
        card_ids = list(new_cards)
        rejected = state.table.rejected
        if "from_rejected" in data:
            card_ids.append(data["from_rejected"])
            rejected = tuple(c for c in rejected if c != data["from_rejected"])
        proposal = Proposal(number=data["number"], kind=data["kind"], author=data["author"], during=data["during"],
                            cards=tuple(card_ids), target=data.get("target"), original=data.get("original", {}),
                            changes=data.get("changes", {}), rule=data.get("rule", {}))
        owners = {**state.table.owners, **dict(zip(new_cards, data.get("decks", []), strict=False))}
        return replace(state, status=VOTING).with_table(
            proposals=(*state.table.proposals, proposal), rejected=rejected, cards={**state.table.cards, **new_cards},
            blank_cards=state.table.blank_cards - len(new_cards), owners=owners)

    @applies("proposal.voted", shows={"number": PUBLIC, "seat": PUBLIC, "approve": PUBLIC})
    def apply_proposal_voted(self, state: GameState, event: Event) -> GameState:
        proposal = state.table.proposals[event.data["number"] - 1]
        votes = {**proposal.votes, str(event.data["seat"]): event.data["approve"]}
        return _with_proposal(state, replace(proposal, votes=votes))

    @applies("proposal.withdrawn", shows={"number": PUBLIC})
    def apply_proposal_withdrawn(self, state: GameState, event: Event) -> GameState:
        proposal = state.table.proposals[event.data["number"] - 1]
        state = replace(state, status=proposal.during).with_table(rejected=(*state.table.rejected, *proposal.cards))
        return _with_proposal(state, replace(proposal, status=WITHDRAWN))

    @applies("proposal.resolved", shows={"number": PUBLIC, "status": PUBLIC, "draw_pile": COUNT,
                                         "draw_piles": COUNT_EACH})
    def apply_proposal_resolved(self, state: GameState, event: Event) -> GameState:
        proposal = state.table.proposals[event.data["number"] - 1]
        state = _with_proposal(replace(state, status=proposal.during), replace(proposal, status=event.data["status"]))
        if event.data["status"] != ACCEPTED:
            return state.with_table(rejected=(*state.table.rejected, *proposal.cards))
        if proposal.kind in NEW_CARD_KINDS:
            for seat, draw_pile in event.data.get("draw_piles", {}).items():
                state = with_piles(state, int(seat), draw_pile=tuple(draw_pile))
            if "draw_pile" in event.data:
                state = state.with_table(draw_pile=tuple(event.data["draw_pile"]))
            return state
        if proposal.kind == AMEND:
            card = state.table.cards[proposal.target]
            changes = _without_stale_effect(proposal.changes)
            return state.with_table(cards={**state.table.cards, card.id: replace(card, **changes)})
        if proposal.kind == REPEAL:
            return self._repeal_card(state, proposal.target)
        if proposal.kind == SPECIAL_RULE:
            return state.with_table(special_rules=(*state.table.special_rules, SpecialRule(**proposal.rule)))
        # An amended Special Rule sets up its parameters afresh (rule.set events follow); a repealed one is gone.
        state = _without_modifiers_from(state, proposal.target)
        if proposal.kind == REPEAL_RULE:
            return state.with_table(
                special_rules=tuple(r for r in state.table.special_rules if r.id != proposal.target))
        changes = _without_stale_effect(proposal.changes)
        if "text" in proposal.changes and state.table.effects is not None:
            # What the game read of the rule's old text at creation is not the new text's effect.
            fixed = {**state.table.effects, "special_rules": {
                rule_id: effect for rule_id, effect in state.table.effects.get("special_rules", {}).items()
                if rule_id != proposal.target}}
            state = state.with_table(effects=fixed)
        return state.with_table(special_rules=tuple(
            replace(r, **changes) if r.id == proposal.target else r for r in state.table.special_rules))

    def _repeal_card(self, state: GameState, card_id: str) -> GameState:
        """Removed from the deck entirely: out of every zone, and out of the game's cards."""
        state = _without_modifiers_from(self.remove_card(state, card_id), card_id)
        state = state.with_table(modifiers=tuple(m for m in state.table.modifiers if m.card != card_id))
        return state.with_table(cards={c: card for c, card in state.table.cards.items() if c != card_id})


def _deck_seat(state: GameState, seat: Any, field: str) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(state.seats):
        raise DomainError("A new card's \"deck\" names the seat whose deck it goes into.",
                          code="invalid", details={"field": f"{field}.deck"})
    return seat


def _rule_json(rule: SpecialRule) -> dict[str, Any]:
    shown = {"id": rule.id, "title": rule.title, "text": rule.text, "params": dict(rule.params)}
    return shown if rule.effect is None else {**shown, EFFECT: rule.effect}


def _with_proposal(state: GameState, proposal: Proposal) -> GameState:
    proposals = list(state.table.proposals)
    proposals[proposal.number - 1] = proposal
    return state.with_table(proposals=tuple(proposals))


def _without_modifiers_from(state: GameState, source: str) -> GameState:
    return state.with_table(modifiers=tuple(m for m in state.table.modifiers if m.source != source))


def blank_top_up_option(options: dict[str, Any]) -> str:
    """Option ``blank_cards_top_up`` (a reading: the rulebook says a pile run empty "can be topped up with a fresh
    pack of blank cards", and that when "your immediate environment runs out of blank cards ... no new cards may
    be created"): ``when_empty`` (the default), any player tops up an empty pile with a fresh pack, as many cards
    as the game began with; ``by_card``, only a card or Special Rule that says so tops it up. A card or Special
    Rule that says so tops it up in either."""
    value: str = options.get("blank_cards_top_up", WHEN_EMPTY)
    if value not in TOP_UPS:
        raise DomainError(f"\"options.blank_cards_top_up\" is one of: {', '.join(TOP_UPS)}.", code="invalid",
                          details={"field": "options.blank_cards_top_up"})
    return value


def fresh_packs(state: GameState) -> bool:
    """Whether a player may top up an empty Blank Card Pile without a card saying so (never in a game of the first
    reading, which had no fresh packs)."""
    return state.table.reading >= READING and blank_top_up_option(state.options) == WHEN_EMPTY


def pack_size(state: GameState) -> int:
    """A fresh pack: as many blank cards as the game began with (option ``blank_cards``)."""
    return count_option(state.options, "blank_cards", DEFAULT_BLANK_CARDS) or DEFAULT_BLANK_CARDS


def count_option(options: dict[str, Any], name: str, default: int) -> int:
    value = options.get(name, default)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise DomainError(f"\"options.{name}\" must be a whole number, 0 or more.", code="invalid",
                          details={"field": f"options.{name}"})
    return value


def _without_stale_effect(changes: dict[str, Any]) -> dict[str, Any]:
    """An amendment that rewrites a card's or rule's words without giving their effect leaves it with none: the
    old effect was the old text's."""
    if EFFECT not in changes and {"title", "type", "text"} & changes.keys():
        return {**changes, EFFECT: None}
    return changes
