"""The ``article_ii`` ruleset: "Article II, updated", the election game, played automatically.

Read it beside the deck's own rules. The game has two phases, the Primary Election and the General Election;
in each, every player draws seven cards, a random player starts, and players take turns playing one card each
on any player (themselves included) until every hand is empty. The engine reads each card's effect from its
text (``cards``) and carries it out: Electability and Affiliation change, a Style replaces the
player's old one, "Draw two cards" and "Remove one card from play" happen. After the Primary the two highest
totals become Candidates and the rest Spoilers; after the General the President is elected and wins.

Commands: ``play`` {card, target: seat, remove?: a card in play in front of the target (Voter ADHD),
remove_before?: a card played on you (the Teflon Wonder)} and ``pass`` (decline the Great Debater's reply, or
an Insider's second card). The Basic Rules' draw, discard and effect moves do not exist here.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from dvorak_core.errors import DomainError
from games.engine.cards import (
    Card,
    card_json,
    cards_from_json,
    copy_deck_cards,
    deck_special_rules,
    hide_unseen_cards,
    published_deck,
)
from games.engine.events import Event
from games.engine.rng import Rng
from games.engine.ruleset import COUNT, PUBLIC, CommandContext, Ruleset, applies, command, redacts
from games.engine.rulesets.article_ii.cards import (
    Attributes,
    CardEffect,
    Style,
    choose_candidates,
    compute_attributes,
    elect_president,
    parse_effect,
    primary_totals,
)
from games.engine.rulesets.article_ii.moves import article_ii_moves
from games.engine.state import ACTIVE, FINISHED, GameState, teams

PRIMARY, GENERAL = "primary", "general"
CANDIDATE, SPOILER = "candidate", "spoiler"
MAX_PLAYERS = 4
ATTRIBUTE_COUNTERS = {"electability": 0, "affiliation": 0}
# The rule parameters a game shows (those of the Basic Rules, as Article II sets them): seven cards each, no
# draws and no hand limit, one card a turn.
RULES: dict[str, Any] = {"hand_limit": None, "starting_hand": 7, "draws_per_turn": 0, "things_per_turn": 1,
                         "actions_per_turn": 0, "vote_rule": "unanimity", "counters": dict(ATTRIBUTE_COUNTERS)}
# Every turn is spent playing: the one stage a turn shows.
PLAY = "play"


# --- the state ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Player:
    """What one seat has: a hand, the cards played on them (in front of them), Electability and Affiliation."""

    seat: int
    hand: tuple[str, ...] = ()
    in_play: tuple[str, ...] = ()
    counters: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Turn:
    seat: int
    # The cards played this turn (an Insider may play two).
    things_played: int = 0


@dataclass(frozen=True)
class ArticleIIState:
    """The election's table. ``reply``: a Great Debater's offered reply ({"seat", "to"}); ``roles``: each seat's
    ``candidate`` or ``spoiler`` once the Primary is over; ``results``: each phase's totals."""

    variant: str = "standard"
    creative: bool = False
    deck: dict[str, Any] = field(default_factory=dict)
    cards: dict[str, Card] = field(default_factory=dict)
    special_rules: tuple[dict[str, Any], ...] = ()
    base_rules: dict[str, Any] = field(default_factory=lambda: dict(RULES))
    blank_cards: int = 0
    players: tuple[Player, ...] = ()
    turn: Turn | None = None
    draw_pile: tuple[str, ...] = ()
    discard_pile: tuple[str, ...] = ()
    started: bool = False
    phase: str | None = None
    reply: dict[str, int] | None = None
    candidates: tuple[int, ...] = ()
    roles: tuple[str | None, ...] = ()
    results: dict[str, Any] = field(default_factory=dict)

    def player(self, seat: int) -> Player:
        return self.players[seat]


def with_player(state: GameState, player: Player) -> GameState:
    players = list(state.table.players)
    players[player.seat] = player
    return state.with_table(players=tuple(players))


def cards_visible_to(state: GameState, viewer: int | None) -> set[str]:
    """The cards in front of every player, the discard pile, and the viewer's own hand."""
    table = state.table
    visible = set(table.discard_pile)
    for player in table.players:
        visible.update(player.in_play)
        if player.seat == viewer:
            visible.update(player.hand)
    return visible


def _text_field(command_body: dict, name: str) -> str:
    value = command_body.get(name)
    if not isinstance(value, str) or not value:
        raise DomainError(f"\"{name}\" must name a card.", code="invalid", details={"field": name})
    return value


def _seat_field(state: GameState, command_body: dict, name: str) -> int:
    seat = command_body.get(name)
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise DomainError(f"\"{name}\" must be a whole number.", code="invalid", details={"field": name})
    if not 0 <= seat < len(state.seats):
        raise DomainError(f"\"{name}\" must be a seat in this game.", code="invalid", details={"field": name})
    return seat


@lru_cache(maxsize=1024)
def _effect_of_text(title: str, card_type: str, text: str) -> CardEffect:
    return parse_effect({"title": title, "type": card_type, "text": text})


def effect_of(card: Card) -> CardEffect:
    return _effect_of_text(card.title, card.type, card.text)


# --- reading the state --------------------------------------------------------------------------------------


def style_card(state: GameState, seat: int) -> str | None:
    """The Style card in front of a player (Styles replace each other, so there is at most one)."""
    return next((c for c in state.table.player(seat).in_play if effect_of(state.table.cards[c]).style), None)


def style_of_seat(state: GameState, seat: int) -> Style | None:
    card_id = style_card(state, seat)
    return None if card_id is None else effect_of(state.table.cards[card_id]).style


def _styles(state: GameState) -> dict[int, Style | None]:
    return {p.seat: style_of_seat(state, p.seat) for p in state.table.players}


def attributes(state: GameState) -> dict[int, Attributes]:
    """Every player's Electability and Affiliation: the cards played on them, under everyone's Style."""
    bases = {}
    for player in state.table.players:
        effects = [effect_of(state.table.cards[c]) for c in player.in_play]
        bases[player.seat] = Attributes(sum(e.electability for e in effects), sum(e.affiliation for e in effects))
    return compute_attributes(bases, _styles(state))


def acting_seat(state: GameState) -> int | None:
    """Who must act now: a Great Debater offered a reply, else the player whose turn it is."""
    reply = state.table.reply
    if reply is not None:
        return reply["seat"]
    return None if state.table.turn is None else state.table.turn.seat


def cards_per_turn(state: GameState, seat: int) -> int:
    # "While an Insider ... you may play two cards each turn".
    return 2 if style_of_seat(state, seat) is Style.INSIDER else 1


def _first_holding_cards(state: GameState, start: int) -> int | None:
    count = len(state.seats)
    for step in range(count):
        seat = (start + step) % count
        if state.table.player(seat).hand:
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
        self.state = self.ruleset.fold(self.state, events)
        self.events.extend(events)

    def draw(self, seat: int, count: int = 1) -> None:
        for _ in range(count):
            self.extend(self.ruleset._draw_one(self.state, seat, self.rng))


class ArticleIIRuleset(Ruleset):
    """Article II's procedure replaces the Basic Rules: none of their commands (no draw, discard or effect
    moves), only ``play`` and ``pass``."""

    name = "article_ii"
    max_players = MAX_PLAYERS
    phases = (PRIMARY, GENERAL)
    State = ArticleIIState

    # --- Preparing the game ---------------------------------------------------------------------------------

    def created(self, *, deck: dict, variant: str, creative: bool, options: dict, rng: Rng) -> dict[str, Any]:
        """The deck copied in (the same record as a ``dvorak`` game's, which an Article II game once was)."""
        rules = {param: options.get(param, value) for param, value in RULES.items()}
        blank_cards = options.get("blank_cards", 100 if creative else 0)
        if not isinstance(blank_cards, int) or isinstance(blank_cards, bool) or blank_cards < 0:
            raise DomainError("\"options.blank_cards\" must be a whole number, 0 or more.", code="invalid",
                              details={"field": "options.blank_cards"})
        return {"options": {key: value for key, value in options.items() if key != "player_deck"},
                "deck": {"slug": deck.get("slug", ""), "title": deck.get("title", "")},
                "cards": copy_deck_cards(deck, rng), "deck_cards": [], "special_rules": deck_special_rules(deck),
                "rules": rules, "blank_cards": blank_cards}

    # --- Drawing ---------------------------------------------------------------------------------------------

    def _draw_one(self, state: GameState, seat: int, rng) -> list[Event]:
        """One card off the top of the draw pile; an empty draw pile is first refilled by shuffling the discard
        pile; if both are empty, no card is drawn."""
        table = state.table
        if table.draw_pile:
            return [Event("card.drawn", {"seat": seat, "card": table.draw_pile[-1]})]
        if not table.discard_pile:
            return []
        new_pile = list(table.discard_pile)
        rng.shuffle(new_pile)
        return [Event("draw_pile.refilled", {"draw_pile": new_pile}),
                Event("card.drawn", {"seat": seat, "card": new_pile[-1]})]

    def _require_in_hand(self, state: GameState, seat: int, card_id: str) -> None:
        if card_id not in state.table.player(seat).hand:
            # Says nothing of where the card really is.
            raise DomainError("That card is not in your hand.", code="card_not_in_hand", details={"card": card_id})

    # --- Play order -----------------------------------------------------------------------------------------

    def setup(self, state: GameState, rng) -> list[Event]:
        draw_pile = list(state.table.cards)
        rng.shuffle(draw_pile)
        unfolding = _Unfolding(self, state, rng)
        unfolding.add("game.started", {"draw_pile": draw_pile, "counters": dict(ATTRIBUTE_COUNTERS)})
        self._start_phase(unfolding, PRIMARY)
        return unfolding.events

    def _start_phase(self, unfolding: _Unfolding, phase: str) -> None:
        """"In each phase, each player draws seven cards. Randomly determine a starting player." """
        unfolding.add("phase.began", {"phase": phase})
        hand_size = int(unfolding.state.table.base_rules.get("starting_hand") or 0)
        for _ in range(hand_size):
            for player in unfolding.state.table.players:
                unfolding.draw(player.seat)
        self._next_turn(unfolding, start=unfolding.rng.randbelow(len(unfolding.state.seats)))

    def _next_turn(self, unfolding: _Unfolding, start: int) -> None:
        """The next player still holding cards takes a turn; when every hand is exhausted, the phase ends."""
        seat = _first_holding_cards(unfolding.state, start)
        if seat is None:
            self._end_phase(unfolding)
        else:
            unfolding.add("turn.began", {"seat": seat})

    def _continue_turn(self, unfolding: _Unfolding) -> None:
        state = unfolding.state
        seat = state.table.turn.seat
        if state.table.turn.things_played < cards_per_turn(state, seat) and state.table.player(seat).hand:
            return
        self._next_turn(unfolding, start=seat + 1)

    # --- Phases ---------------------------------------------------------------------------------------------

    def _end_phase(self, unfolding: _Unfolding) -> None:
        state = unfolding.state
        current = attributes(state)
        if state.table.phase == PRIMARY:
            # Only equal totals need it: the order that decides who of them becomes a Candidate.
            tiebreak = [p.seat for p in state.table.players]
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
        election = elect_president(current, _styles(state), state.table.candidates)
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
        reply = state.table.reply
        if reply is not None and target != reply["to"]:
            raise DomainError("A Great Debater replies with a card on the player who played on them.",
                              code="denied", details={"target": reply["to"]})
        unfolding = _Unfolding(self, state, ctx.rng)
        if "remove_before" in command_body:
            self._teflon_removal(unfolding, command_body, seat)
        effect = effect_of(state.table.cards[card_id])
        unfolding.add("card.played", {"seat": seat, "card": card_id, "target": target,
                                      "to": "in_play" if effect.lasts else "discard_pile",
                                      "reply": reply is not None})
        self._carry_out(unfolding, effect, command_body, card_id, target)
        self._check_outsider(state, unfolding.state, seat, target)
        self._record_attributes(unfolding)
        # The Great Debater's reply and the Insider's second card are each followed by a draw.
        if reply is not None or unfolding.state.table.turn.things_played == 2:
            unfolding.draw(seat)
        if target != seat and style_of_seat(unfolding.state, target) is Style.GREAT_DEBATER \
                and unfolding.state.table.player(target).hand:
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
        if removed not in state.table.player(seat).in_play:
            raise DomainError("\"remove_before\" must name a card played on you.",
                              code="invalid", details={"field": "remove_before"})
        unfolding.add("card.removed", {"card": removed, "seat": seat, "cause": style_card(state, seat)})

    def _carry_out(self, unfolding: _Unfolding, effect: CardEffect, command_body: dict, card_id: str,
                   target: int) -> None:
        if effect.style is not None:
            # A Style replaces any existing Style.
            for old in unfolding.state.table.player(target).in_play:
                if old != card_id and effect_of(unfolding.state.table.cards[old]).style is not None:
                    unfolding.add("card.removed", {"card": old, "seat": target, "cause": card_id})
        if effect.removes:
            self._remove_from_play(unfolding, command_body, card_id, target)
        elif "remove" in command_body:
            raise DomainError("This card removes nothing from play.", code="invalid", details={"field": "remove"})
        unfolding.draw(target, effect.draws)

    def _remove_from_play(self, unfolding: _Unfolding, command_body: dict, card_id: str, target: int) -> None:
        """Voter ADHD: "Remove one card from play", a card in front of the player it is played on."""
        in_front = unfolding.state.table.player(target).in_play
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
            player = unfolding.state.table.player(seat)
            if any(player.counters.get(name) != value for name, value in counters.items()):
                unfolding.add("attributes.changed", {"seat": seat, **counters})

    @command("pass")
    def pass_(self, state: GameState, command_body: dict, ctx: CommandContext) -> list[Event]:
        """Decline a Great Debater's reply, or an Insider's second card."""
        self._require_acting(state, ctx.seat)
        unfolding = _Unfolding(self, state, ctx.rng)
        if state.table.reply is not None:
            unfolding.add("reply.passed", {"seat": ctx.seat})
            self._continue_turn(unfolding)
        elif state.table.turn.things_played == 0:
            raise DomainError("Play a card: only a second card or a reply may be passed.", code="wrong_stage")
        else:
            self._next_turn(unfolding, start=ctx.seat + 1)
        return unfolding.events

    # --- How the events change the state --------------------------------------------------------------------

    @applies("game.created", shows={"deck": PUBLIC, "cards": COUNT, "deck_cards": COUNT, "special_rules": PUBLIC,
                                    "rules": PUBLIC, "blank_cards": PUBLIC})
    def apply_game_created(self, state: GameState, event: Event) -> GameState:
        data = event.data
        return replace(state, table=ArticleIIState(
            variant=data["variant"], creative=data["creative"], deck=data["deck"],
            cards=cards_from_json(data["cards"]), special_rules=tuple(data["special_rules"]),
            base_rules=data["rules"], blank_cards=data.get("blank_cards", 0)))

    @applies("player.joined")
    def apply_player_joined(self, state: GameState, event: Event) -> GameState:
        player = Player(seat=event.data["seat"], counters=dict(state.table.base_rules.get("counters") or {}))
        return state.with_table(players=(*state.table.players, player))

    @applies("game.started", shows={"draw_pile": COUNT, "counters": PUBLIC})
    def apply_game_started(self, state: GameState, event: Event) -> GameState:
        counters = event.data["counters"]
        players = tuple(replace(p, counters={**counters, **p.counters}) for p in state.table.players)
        return replace(state, status=ACTIVE).with_table(
            draw_pile=tuple(event.data["draw_pile"]), players=players, started=True,
            roles=(None,) * len(state.seats))

    @applies("draw_pile.refilled", shows={"draw_pile": COUNT})
    def apply_draw_pile_refilled(self, state: GameState, event: Event) -> GameState:
        return state.with_table(draw_pile=tuple(event.data["draw_pile"]), discard_pile=())

    @applies("card.drawn", shows={"seat": PUBLIC, "card": PUBLIC})
    def apply_card_drawn(self, state: GameState, event: Event) -> GameState:
        card_id = event.data["card"]
        state = state.with_table(draw_pile=tuple(c for c in state.table.draw_pile if c != card_id),
                                 discard_pile=tuple(c for c in state.table.discard_pile if c != card_id))
        player = state.table.player(event.data["seat"])
        return with_player(state, replace(player, hand=(*player.hand, card_id)))

    @applies("phase.began", shows={"phase": PUBLIC})
    def apply_phase_began(self, state: GameState, event: Event) -> GameState:
        return state.with_table(phase=event.data["phase"], turn=None)

    @applies("turn.began", shows={"seat": PUBLIC})
    def apply_turn_began(self, state: GameState, event: Event) -> GameState:
        return state.with_table(turn=Turn(seat=event.data["seat"]))

    @applies("card.played", shows=dict.fromkeys(("seat", "card", "target", "to", "reply"), PUBLIC))
    def apply_card_played(self, state: GameState, event: Event) -> GameState:
        data = event.data
        player = state.table.player(data["seat"])
        state = with_player(state, replace(player, hand=tuple(c for c in player.hand if c != data["card"])))
        if data["to"] == "in_play":
            target = state.table.player(data["target"])
            state = with_player(state, replace(target, in_play=(*target.in_play, data["card"])))
        else:
            state = state.with_table(discard_pile=(*state.table.discard_pile, data["card"]))
        if data["reply"]:
            return state.with_table(reply=None)
        return state.with_table(turn=replace(state.table.turn, things_played=state.table.turn.things_played + 1))

    @applies("card.removed", shows={"card": PUBLIC, "seat": PUBLIC, "cause": PUBLIC})
    def apply_card_removed(self, state: GameState, event: Event) -> GameState:
        player = state.table.player(event.data["seat"])
        state = with_player(state, replace(player, in_play=tuple(c for c in player.in_play
                                                                 if c != event.data["card"])))
        return state.with_table(discard_pile=(*state.table.discard_pile, event.data["card"]))

    @applies("attributes.changed", shows={"seat": PUBLIC, "electability": PUBLIC, "affiliation": PUBLIC})
    def apply_attributes_changed(self, state: GameState, event: Event) -> GameState:
        data = event.data
        player = state.table.player(data["seat"])
        counters = {**player.counters, "electability": data["electability"], "affiliation": data["affiliation"]}
        return with_player(state, replace(player, counters=counters))

    @applies("reply.offered", shows={"seat": PUBLIC, "to": PUBLIC})
    def apply_reply_offered(self, state: GameState, event: Event) -> GameState:
        return state.with_table(reply={"seat": event.data["seat"], "to": event.data["to"]})

    @applies("reply.passed", shows={"seat": PUBLIC})
    def apply_reply_passed(self, state: GameState, event: Event) -> GameState:
        return state.with_table(reply=None)

    @applies("phase.ended", shows=dict.fromkeys(
        ("phase", "totals", "candidates", "spoilers", "tiebreak", "decided_by"), PUBLIC))
    def apply_phase_ended(self, state: GameState, event: Event) -> GameState:
        data = event.data
        result = {key: value for key, value in data.items() if key != "phase"}
        state = state.with_table(results={**state.table.results, data["phase"]: result}, turn=None)
        if data["phase"] == PRIMARY:
            candidates = data["candidates"]
            state = state.with_table(candidates=tuple(candidates), roles=tuple(
                CANDIDATE if seat.seat in candidates else SPOILER for seat in state.seats))
        return state

    @applies("game.finished", shows={"winners": PUBLIC, "decided_by": PUBLIC})
    def apply_game_finished(self, state: GameState, event: Event) -> GameState:
        return replace(state, status=FINISHED, winners=tuple(event.data["winners"])).with_table(turn=None)

    def legal_moves(self, state: GameState, seat: int) -> list[dict[str, Any]]:
        return article_ii_moves(self, state, seat, acting_seat(state) if state.status == ACTIVE else None)

    def deck_after_game(self, state: GameState) -> dict:
        """Article II's cards are not changed in play: the deck as it was copied in."""
        table = state.table
        return published_deck(state, [(card, None) for card in table.cards.values()],
                              [(rule["title"], rule["text"]) for rule in table.special_rules])

    # --- What each viewer sees ------------------------------------------------------------------------------

    def view(self, state: GameState, viewer: int | None) -> dict[str, Any]:
        """The same JSON as a ``dvorak`` game's (a client reads both alike), and the election: each player's
        Style and role, the phase, an offered reply, who must act, and each phase's results."""
        table = state.table
        turn = table.turn
        view: dict[str, Any] = {
            "variant": table.variant,
            "creative": table.creative,
            "deck": dict(table.deck),
            "turn": None if turn is None else {"seat": turn.seat, "stage": PLAY,
                                               "things_played": turn.things_played, "actions_played": 0},
            "players": [self._player_view(state, seat.seat, viewer) for seat in state.seats],
            "teams": teams(state),
            "draw_pile": {"count": len(table.draw_pile)},
            "discard_pile": [card_json(table.cards[card_id]) for card_id in table.discard_pile],
            "blank_cards": table.blank_cards,
            "rules": dict(table.base_rules),
            "modifiers": [],
            "special_rules": [{"id": r["id"], "title": r["title"], "text": r["text"]} for r in table.special_rules],
            "proposals": [],
            "rejected": [],
        }
        if table.started:
            view.update({"phase": table.phase, "reply": table.reply, "acting": acting_seat(state),
                         "results": table.results})
        return view

    def _player_view(self, state: GameState, seat: int, viewer: int | None) -> dict[str, Any]:
        table, person = state.table, state.seat(seat)
        player = table.player(seat)
        view: dict[str, Any] = {
            "seat": seat, "username": person.username, "team": person.team, "hand_count": len(player.hand),
            "in_play": [{**card_json(table.cards[c]), "attached": []} for c in player.in_play],
            "counters": dict(player.counters), "status": person.status,
        }
        if seat == viewer:
            view["hand"] = [card_json(table.cards[card_id]) for card_id in player.hand]
        if table.started:
            card_id = style_card(state, seat)
            view["style"] = None if card_id is None else {
                "card": card_id, "title": table.cards[card_id].title,
                "name": effect_of(table.cards[card_id]).style.value}
            view["role"] = table.roles[seat]
        return view

    def redact_event(self, event: Event, shown: dict, viewer: int | None, before: GameState | None,
                     after: GameState) -> dict:
        visible = cards_visible_to(after, viewer)
        if before is not None and before.table is not None:
            visible |= cards_visible_to(before, viewer)
        return hide_unseen_cards(shown, after.table.cards, visible)

    @redacts("game.created")
    def view_game_created(self, event: Event, shown: dict, viewer: int | None, before: GameState | None,
                          after: GameState) -> dict:
        return shown
