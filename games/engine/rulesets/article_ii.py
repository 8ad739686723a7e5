"""The ``article_ii`` ruleset: "Article II, updated", the election game, played automatically.

Read it beside the deck's own rules. The game has two phases, the Primary Election and the General Election;
in each, every player draws seven cards, a random player starts, and players take turns playing one card each
on any player (themselves included) until every hand is empty. The engine reads each card's effect from its
text (``article_ii_cards``) and carries it out: Electability and Affiliation change, a Style replaces the
player's old one, "Draw two cards" and "Remove one card from play" happen. After the Primary the two highest
totals become Candidates and the rest Spoilers; after the General the President is elected and wins.

Commands: ``play`` {card, target: seat, remove?: a card in play in front of the target (Voter ADHD),
remove_before?: a card played on you (the Teflon Wonder)} and ``pass`` (decline the Great Debater's reply, or
an Insider's second card). The Basic Rules' draw, discard and effect moves do not exist here.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Any

from dvorak_core.errors import DomainError
from games.engine.events import Event
from games.engine.rulesets.article_ii_cards import (
    Attributes,
    CardEffect,
    Style,
    choose_candidates,
    compute_attributes,
    elect_president,
    parse_effect,
    primary_totals,
)
from games.engine.rulesets.base import CommandContext, Ruleset, applies, command
from games.engine.rulesets.dvorak import DvorakRuleset, _seat_field, _text_field
from games.engine.state import BASIC_RULES, FINISHED, PLAY, Card, GameState, Turn

PRIMARY, GENERAL = "primary", "general"
CANDIDATE, SPOILER = "candidate", "spoiler"
MAX_PLAYERS = 4
ATTRIBUTE_COUNTERS = {"electability": 0, "affiliation": 0}


@lru_cache(maxsize=1024)
def _effect_of_text(title: str, card_type: str, text: str) -> CardEffect:
    return parse_effect({"title": title, "type": card_type, "text": text})


def effect_of(card: Card) -> CardEffect:
    return _effect_of_text(card.title, card.type, card.text)


# --- reading the state --------------------------------------------------------------------------------------


def style_card(state: GameState, seat: int) -> str | None:
    """The Style card in front of a player (Styles replace each other, so there is at most one)."""
    return next((c for c in state.player(seat).in_play if effect_of(state.cards[c]).style), None)


def style_of_seat(state: GameState, seat: int) -> Style | None:
    card_id = style_card(state, seat)
    return None if card_id is None else effect_of(state.cards[card_id]).style


def _styles(state: GameState) -> dict[int, Style | None]:
    return {p.seat: style_of_seat(state, p.seat) for p in state.players}


def attributes(state: GameState) -> dict[int, Attributes]:
    """Every player's Electability and Affiliation: the cards played on them, under everyone's Style."""
    bases = {}
    for player in state.players:
        effects = [effect_of(state.cards[c]) for c in player.in_play]
        bases[player.seat] = Attributes(sum(e.electability for e in effects), sum(e.affiliation for e in effects))
    return compute_attributes(bases, _styles(state))


def acting_seat(state: GameState) -> int | None:
    """Who must act now: a Great Debater offered a reply, else the player whose turn it is."""
    reply = state.data.get("reply")
    if reply is not None:
        return reply["seat"]
    return None if state.turn is None else state.turn.seat


def cards_per_turn(state: GameState, seat: int) -> int:
    # "While an Insider ... you may play two cards each turn".
    return 2 if style_of_seat(state, seat) is Style.INSIDER else 1


def _first_holding_cards(state: GameState, start: int) -> int | None:
    count = len(state.players)
    for step in range(count):
        seat = (start + step) % count
        if state.player(seat).hand:
            return seat
    return None


# --- deciding, one event at a time ---------------------------------------------------------------------------


class _Unfolding:
    """The events a command produces, each folded into a working state so the next step sees its result."""

    def __init__(self, ruleset: ArticleIIRuleset, state: GameState, rng) -> None:
        self.ruleset, self.state, self.rng = ruleset, state, rng
        self.events: list[Event] = []

    def add(self, event_type: str, data: dict[str, Any]) -> None:
        self.extend([Event(event_type, data)])

    def extend(self, events: list[Event]) -> None:
        self.state = self.ruleset._fold(self.state, events)
        self.events.extend(events)

    def draw(self, seat: int, count: int = 1) -> None:
        for _ in range(count):
            self.extend(self.ruleset._draw_one(self.state, seat, self.rng))


class ArticleIIRuleset(Ruleset):
    name = "article_ii"
    default_rules = {**BASIC_RULES, "starting_hand": 7, "hand_limit": None, "draws_per_turn": 0,
                     "things_per_turn": 1, "actions_per_turn": 0, "counters": dict(ATTRIBUTE_COUNTERS)}

    # Article II's procedure replaces the Basic Rules, so it takes over none of their commands (no draw,
    # discard or effect moves); it shares only how a card is drawn and how the game's deck is hidden.
    _fold = DvorakRuleset._fold
    _draw_one = DvorakRuleset._draw_one
    _require_in_hand = DvorakRuleset._require_in_hand
    apply_card_drawn = DvorakRuleset.apply_card_drawn
    apply_draw_pile_refilled = DvorakRuleset.apply_draw_pile_refilled
    view_game_created = DvorakRuleset.view_game_created

    def create(self, *, max_players: int, **game) -> list[Event]:
        if max_players > MAX_PLAYERS:
            raise DomainError(f"Article II is for two to {MAX_PLAYERS} players.",
                              code="invalid", details={"field": "max_players", "max_players": MAX_PLAYERS})
        return super().create(max_players=max_players, **game)

    # --- Play order -----------------------------------------------------------------------------------------

    def setup(self, state: GameState, rng) -> list[Event]:
        draw_pile = list(state.cards)
        rng.shuffle(draw_pile)
        unfolding = _Unfolding(self, state, rng)
        unfolding.add("game.started", {"draw_pile": draw_pile, "counters": dict(ATTRIBUTE_COUNTERS)})
        self._start_phase(unfolding, PRIMARY)
        return unfolding.events

    def _start_phase(self, unfolding: _Unfolding, phase: str) -> None:
        """"In each phase, each player draws seven cards. Randomly determine a starting player." """
        unfolding.add("phase.began", {"phase": phase})
        hand_size = int(unfolding.state.base_rules.get("starting_hand") or 0)
        for _ in range(hand_size):
            for player in unfolding.state.players:
                unfolding.draw(player.seat)
        self._next_turn(unfolding, start=unfolding.rng.randbelow(len(unfolding.state.players)))

    def _next_turn(self, unfolding: _Unfolding, start: int) -> None:
        """The next player still holding cards takes a turn; when every hand is exhausted, the phase ends."""
        seat = _first_holding_cards(unfolding.state, start)
        if seat is None:
            self._end_phase(unfolding)
        else:
            unfolding.add("turn.began", {"seat": seat})

    def _continue_turn(self, unfolding: _Unfolding) -> None:
        state = unfolding.state
        seat = state.turn.seat
        if state.turn.things_played < cards_per_turn(state, seat) and state.player(seat).hand:
            return
        self._next_turn(unfolding, start=seat + 1)

    # --- Phases ---------------------------------------------------------------------------------------------

    def _end_phase(self, unfolding: _Unfolding) -> None:
        state = unfolding.state
        current = attributes(state)
        if state.data["phase"] == PRIMARY:
            # Only equal totals need it: the order that decides who of them becomes a Candidate.
            tiebreak = [p.seat for p in state.players]
            unfolding.rng.shuffle(tiebreak)
            candidates = choose_candidates(current, tiebreak)
            totals = primary_totals(current)
            unfolding.add("phase.ended", {
                "phase": PRIMARY,
                "totals": [{"seat": seat, "total": total} for seat, total in sorted(totals.items())],
                "candidates": candidates,
                "spoilers": [seat for seat in sorted(current) if seat not in candidates],
                "tiebreak": tiebreak,
            })
            self._start_phase(unfolding, GENERAL)
            return
        election = elect_president(current, _styles(state), state.data["candidates"])
        unfolding.add("phase.ended", {
            "phase": GENERAL,
            "totals": [{"seat": seat, "total": total} for seat, total in sorted(election.totals.items())],
            "decided_by": election.decided_by,
        })
        unfolding.add("game.finished", {"winners": election.winners, "decided_by": election.decided_by})

    # --- Playing a card -------------------------------------------------------------------------------------

    def _require_acting(self, state: GameState, seat: int) -> None:
        if acting_seat(state) != seat:
            raise DomainError("It is not your turn.", code="not_your_turn")

    @command("play")
    def play(self, state: GameState, command_body: dict, ctx: CommandContext) -> list[Event]:
        """One card from your hand, played on any player (yourself included), its effect carried out."""
        seat = ctx.seat
        self._require_acting(state, seat)
        card_id = _text_field(command_body, "card")
        self._require_in_hand(state, seat, card_id)
        target = _seat_field(state, command_body, "target")
        reply = state.data.get("reply")
        if reply is not None and target != reply["to"]:
            raise DomainError("A Great Debater replies with a card on the player who played on them.",
                              code="denied", details={"target": reply["to"]})
        unfolding = _Unfolding(self, state, ctx.rng)
        if "remove_before" in command_body:
            self._teflon_removal(unfolding, command_body, seat)
        effect = effect_of(state.cards[card_id])
        unfolding.add("card.played", {"seat": seat, "card": card_id, "target": target,
                                      "to": "in_play" if effect.lasts else "discard_pile",
                                      "reply": reply is not None})
        self._carry_out(unfolding, effect, command_body, card_id, target)
        self._check_outsider(state, unfolding.state, seat, target)
        self._record_attributes(unfolding)
        # The Great Debater's reply and the Insider's second card are each followed by a draw.
        if reply is not None or unfolding.state.turn.things_played == 2:
            unfolding.draw(seat)
        if target != seat and style_of_seat(unfolding.state, target) is Style.GREAT_DEBATER \
                and unfolding.state.player(target).hand:
            unfolding.add("reply.offered", {"seat": target, "to": seat})
        else:
            self._continue_turn(unfolding)
        return unfolding.events

    def _teflon_removal(self, unfolding: _Unfolding, command_body: dict, seat: int) -> None:
        """The Teflon Wonder: "Before playing a card, you may remove a card that's been played on you"."""
        state = unfolding.state
        if style_of_seat(state, seat) is not Style.TEFLON_WONDER:
            raise DomainError("Only the Teflon Wonder removes a card before playing.",
                              code="denied", details={"field": "remove_before"})
        removed = _text_field(command_body, "remove_before")
        if removed not in state.player(seat).in_play:
            raise DomainError("\"remove_before\" must name a card played on you.",
                              code="invalid", details={"field": "remove_before"})
        unfolding.add("card.removed", {"card": removed, "seat": seat, "cause": style_card(state, seat)})

    def _carry_out(self, unfolding: _Unfolding, effect: CardEffect, command_body: dict, card_id: str,
                   target: int) -> None:
        if effect.style is not None:
            # A Style replaces any existing Style.
            for old in unfolding.state.player(target).in_play:
                if old != card_id and effect_of(unfolding.state.cards[old]).style is not None:
                    unfolding.add("card.removed", {"card": old, "seat": target, "cause": card_id})
        if effect.removes:
            self._remove_from_play(unfolding, command_body, card_id, target)
        elif "remove" in command_body:
            raise DomainError("This card removes nothing from play.", code="invalid", details={"field": "remove"})
        unfolding.draw(target, effect.draws)

    def _remove_from_play(self, unfolding: _Unfolding, command_body: dict, card_id: str, target: int) -> None:
        """Voter ADHD: "Remove one card from play", a card in front of the player it is played on."""
        in_front = unfolding.state.player(target).in_play
        if not in_front:
            if "remove" in command_body:
                raise DomainError("No card is in play in front of that player.", code="invalid", details={"field": "remove"})
            return
        removed = command_body.get("remove")
        if removed not in in_front:
            raise DomainError("\"remove\" must name a card in play in front of the target.",
                              code="invalid", details={"field": "remove"})
        unfolding.add("card.removed", {"card": removed, "seat": target, "cause": card_id})

    def _check_outsider(self, before: GameState, after: GameState, seat: int, target: int) -> None:
        """An Outsider "may not play cards on other players that would decrease their Affiliation"."""
        if target == seat or style_of_seat(before, seat) is not Style.OUTSIDER:
            return
        if attributes(after)[target].affiliation < attributes(before)[target].affiliation:
            raise DomainError("An Outsider may not decrease another player's Affiliation.",
                              code="denied", details={"target": target})

    def _record_attributes(self, unfolding: _Unfolding) -> None:
        """Electability and Affiliation are changed by the engine: one event per player whose values moved."""
        for seat, values in attributes(unfolding.state).items():
            counters = {"electability": values.electability, "affiliation": values.affiliation}
            player = unfolding.state.player(seat)
            if any(player.counters.get(name) != value for name, value in counters.items()):
                unfolding.add("attributes.changed", {"seat": seat, **counters})

    @command("pass")
    def pass_(self, state: GameState, command_body: dict, ctx: CommandContext) -> list[Event]:
        """Decline a Great Debater's reply, or an Insider's second card."""
        self._require_acting(state, ctx.seat)
        unfolding = _Unfolding(self, state, ctx.rng)
        if state.data.get("reply") is not None:
            unfolding.add("reply.passed", {"seat": ctx.seat})
            self._continue_turn(unfolding)
        elif state.turn.things_played == 0:
            raise DomainError("Play a card: only a second card or a reply may be passed.", code="wrong_stage")
        else:
            self._next_turn(unfolding, start=ctx.seat + 1)
        return unfolding.events

    # --- How the events change the state --------------------------------------------------------------------

    @applies("game.started")
    def apply_game_started(self, state: GameState, event: Event) -> GameState:
        state = DvorakRuleset.apply_game_started(self, state, event)
        roles: list[str | None] = [None] * len(state.players)
        return replace(state, data={"phase": None, "reply": None, "candidates": [], "roles": roles, "results": {}})

    @applies("phase.began")
    def apply_phase_began(self, state: GameState, event: Event) -> GameState:
        return replace(state, data={**state.data, "phase": event.data["phase"]}, turn=None)

    @applies("turn.began")
    def apply_turn_began(self, state: GameState, event: Event) -> GameState:
        return replace(state, turn=Turn(seat=event.data["seat"], stage=PLAY))

    @applies("card.played")
    def apply_card_played(self, state: GameState, event: Event) -> GameState:
        data = event.data
        player = state.player(data["seat"])
        state = state.with_player(replace(player, hand=tuple(c for c in player.hand if c != data["card"])))
        if data["to"] == "in_play":
            target = state.player(data["target"])
            state = state.with_player(replace(target, in_play=(*target.in_play, data["card"])))
        else:
            state = replace(state, discard_pile=(*state.discard_pile, data["card"]))
        if data["reply"]:
            return replace(state, data={**state.data, "reply": None})
        # "things_played" counts the turn's cards: Article II has neither Things nor Actions.
        return replace(state, turn=replace(state.turn, things_played=state.turn.things_played + 1))

    @applies("card.removed")
    def apply_card_removed(self, state: GameState, event: Event) -> GameState:
        player = state.player(event.data["seat"])
        state = state.with_player(replace(player, in_play=tuple(c for c in player.in_play
                                                                if c != event.data["card"])))
        return replace(state, discard_pile=(*state.discard_pile, event.data["card"]))

    @applies("attributes.changed")
    def apply_attributes_changed(self, state: GameState, event: Event) -> GameState:
        data = event.data
        player = state.player(data["seat"])
        counters = {**player.counters, "electability": data["electability"], "affiliation": data["affiliation"]}
        return state.with_player(replace(player, counters=counters))

    @applies("reply.offered")
    def apply_reply_offered(self, state: GameState, event: Event) -> GameState:
        return replace(state, data={**state.data, "reply": {"seat": event.data["seat"], "to": event.data["to"]}})

    @applies("reply.passed")
    def apply_reply_passed(self, state: GameState, event: Event) -> GameState:
        return replace(state, data={**state.data, "reply": None})

    @applies("phase.ended")
    def apply_phase_ended(self, state: GameState, event: Event) -> GameState:
        data = event.data
        result = {key: value for key, value in data.items() if key != "phase"}
        results = {**state.data["results"], data["phase"]: result}
        new_data = {**state.data, "results": results}
        if data["phase"] == PRIMARY:
            candidates = data["candidates"]
            new_data["candidates"] = list(candidates)
            new_data["roles"] = [CANDIDATE if p.seat in candidates else SPOILER for p in state.players]
        return replace(state, data=new_data, turn=None)

    @applies("game.finished")
    def apply_game_finished(self, state: GameState, event: Event) -> GameState:
        return replace(state, status=FINISHED, winners=tuple(event.data["winners"]), turn=None)

    # --- What each viewer sees ------------------------------------------------------------------------------

    def view_state(self, state: GameState, viewer: int | None) -> dict:
        view = super().view_state(state, viewer)
        if not state.data:
            return view
        for player_view in view["players"]:
            seat = player_view["seat"]
            card_id = style_card(state, seat)
            player_view["style"] = None if card_id is None else {
                "card": card_id, "title": state.cards[card_id].title,
                "name": effect_of(state.cards[card_id]).style.value}
            player_view["role"] = state.data["roles"][seat]
        view["phase"] = state.data["phase"]
        view["reply"] = state.data["reply"]
        view["acting"] = acting_seat(state)
        view["results"] = state.data["results"]
        return view


RULESET = ArticleIIRuleset()
