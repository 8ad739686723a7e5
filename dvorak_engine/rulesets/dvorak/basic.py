"""The ``dvorak`` ruleset: the Basic Rules of Dvorak (2000-2007).

Read it beside the rulebook's "The Basic Rules" and "Conflicts and Precedence". Card texts are free prose: the
engine enforces what the rules fix (the draw pile and the discard pile, Things in play, the turn's stages, the
hand limit, who may see what) and players carry out a card's text with effect moves that name the card
(``cause``) and are shown to everyone.
"""

from __future__ import annotations

import re
from typing import Any

from dvorak_core.effects import language as L  # noqa: N812
from dvorak_core.errors import DomainError
from dvorak_core.rule_params import PARAM_NAME, checked_params, checked_rule_value
from dvorak_engine import bodies
from dvorak_engine.cards import cards_from_json, copy_deck_cards, deck_card_content, deck_special_rules
from dvorak_engine.events import Event
from dvorak_engine.player_decks import player_deck_summary, read_player_deck
from dvorak_engine.rng import Rng
from dvorak_engine.ruleset import COUNT, PUBLIC, CommandContext, Ruleset, applies, command
from dvorak_engine.rulesets.dvorak import aftermath
from dvorak_engine.rulesets.dvorak import bodies as declared
from dvorak_engine.rulesets.dvorak.abandon import AbandonRules
from dvorak_engine.rulesets.dvorak.carried import (
    ability_events,
    action_events,
    arrival_events,
    carried_action,
    cascade_events,
    check_action_choices,
    extra_turn,
    into_play_events,
    optional_draws,
    require_host,
)
from dvorak_engine.rulesets.dvorak.claims import ClaimRules, GrantedContext
from dvorak_engine.rulesets.dvorak.creative import (
    DEFAULT_BLANK_CARDS,
    CreativeRules,
    blank_top_up_option,
    count_option,
)
from dvorak_engine.rulesets.dvorak.effects import (
    ALLOWED,
    NOT_NOW,
    REFUSED,
    TRUST,
    effect_of,
    effects_fixed,
    effects_summary,
    fixed_effects,
    rule_params_of,
    unread_effects_option,
    verdict,
)
from dvorak_engine.rulesets.dvorak.live import LiveTableRules
from dvorak_engine.rulesets.dvorak.moves import DvorakMoves
from dvorak_engine.rulesets.dvorak.piles import (
    TableDraft,
    discard_pile_of,
    draw_pile_of,
    pile_seat,
    with_piles,
    without,
)
from dvorak_engine.rulesets.dvorak.precedence import rule_value
from dvorak_engine.rulesets.dvorak.state import (
    ACTION_ABILITY,
    BASIC_RULES,
    CCG,
    DISCARD,
    DRAW,
    DURATIONS,
    END_OF_TURN,
    ENDED,
    FIRST_READING,
    LEAVES_PLAY,
    MULTI_DECK,
    OWN_DECK_VARIANTS,
    PLAY,
    READING,
    VARIANTS,
    DvorakState,
    Modifier,
    Player,
    SpecialRule,
    Turn,
    attached_in,
    attached_things,
    cards_in_the_deck,
    cards_visible_to,
    citation_refusal,
    is_action,
    locate,
    located,
    may_be_played_out_of_turn,
    next_seat,
    visible_modifiers,
)
from dvorak_engine.rulesets.dvorak.variants import require_ready_to_start, require_team
from dvorak_engine.rulesets.dvorak.views import DvorakViews
from dvorak_engine.state import (
    ACTIVE,
    ELIMINATED,
    FINISHED,
    PLAYING,
    GameState,
    opponents,
    seats_standing,
    team_mates,
    winning_seats,
)
from dvorak_engine.values import replace
from dvorak_engine.visibility import COUNT_EACH


def _copies_count(deck_cards: list[dict[str, Any]]) -> dict[str, int]:
    """A Multi-Deck game's deck, as everyone sees it in ``game.created``: how many cards each player gets."""
    return {"count": sum(card["copies"] for card in deck_cards)}


DICE = re.compile(r"^(\d{1,2})d(\d{1,4})$")
# The most turns a rule change may last for ("until": "end_of_turn", "turns": n).
MAX_TURNS = 100
DESTINATIONS = ("hand", "discard", "in_play", "draw_top", "draw_bottom")


# --- small readers of commands and state ---------------------------------------------------------------------




# The most a counter may hold either way: 2**53 - 1, the largest whole number every JSON reader (a JavaScript
# client's among them) keeps exactly.
COUNTER_LIMIT = 2**53 - 1








def _limit_allows(limit: Any, used: int) -> bool:
    """A limit of None means no limit at all ("Any number of Actions may be played each turn")."""
    return limit is None or used < limit


def _hand_limit(state: GameState, seat: int) -> int | None:
    result: int | None = rule_value(state, "hand_limit", seat)
    return result


class DvorakRuleset(LiveTableRules, CreativeRules, ClaimRules, AbandonRules, DvorakViews, DvorakMoves, Ruleset):
    """The Basic Rules, with the Creative Rules (``creative``) for creative games, in every Variant of Dvorak
    (``variants``; the shared or own piles: ``piles``); what each viewer sees: ``views``; clocks, undo and computer
    players: ``live``."""

    name = "dvorak"
    variants = VARIANTS
    # The stages of a turn; the game stops for a vote (status ``voting``) while a proposal is open.
    State = DvorakState
    default_rules = BASIC_RULES

    # --- Preparing the Game -----------------------------------------------------------------------------------

    def created(self, *, deck: dict[str, Any], variant: str, creative: bool, options: dict[str, Any], rng: Rng) -> dict[str, Any]:
        """The deck copied into the game (in Multi-Deck and CCG games, each player's deck comes when they join:
        in Multi-Deck a copy of this one), its Special Rules, the rules the game starts from, the Blank Cards."""
        own_decks = variant in OWN_DECK_VARIANTS
        unread_effects_option(options)  # checked now: the game's first event keeps it
        for name in ("proposer_votes", "any_time_actions_count"):
            if not isinstance(options.get(name, False), bool):
                raise DomainError(f"\"options.{name}\" is true or false.", code="invalid",
                                  details={"field": f"options.{name}"})
        blank_top_up_option(options)
        special_rules = deck_special_rules(deck)
        # What the server understands of each card and Special Rule, fixed now for the game's whole life.
        effects = fixed_effects(list(deck.get("cards", [])), list(deck.get("special_rules", [])),
                                [rule["id"] for rule in special_rules])
        # A Special Rule the deck gives no parameters, whose understood effect sets rule parameters ("Hand size
        # is seven instead of five."), sets them as its parameters: Special Rules "are in effect throughout the
        # game", in every mode (the first reading did so only when checking cards' effects).
        special_rules = [{**rule, "params": rule["params"] or rule_params_of(effects["special_rules"][rule["id"]],
                                                                             set(self.default_rules))}
                         for rule in special_rules]
        return {
            # A CCG creator's player deck is their join, not an option of the game.
            "options": {key: value for key, value in options.items() if key != "player_deck"},
            "deck": {"slug": deck.get("slug", ""), "title": deck.get("title", "")},
            "cards": [] if own_decks else copy_deck_cards(deck, rng),
            "deck_cards": [deck_card_content(card) for card in deck.get("cards", [])] if variant == MULTI_DECK else [],
            "special_rules": [
                {**rule, "params": checked_params(rule["params"], field=f"special_rules.{rule['id']}.params")}
                for rule in special_rules
            ],
            "effects": effects,
            "rules": self.initial_rules(options),
            "blank_cards": count_option(options, "blank_cards", DEFAULT_BLANK_CARDS if creative else 0),
            "reading": READING,
        }

    def initial_rules(self, options: dict[str, Any]) -> dict[str, Any]:
        """The rule parameters a game starts from: the ruleset's defaults, changed by the game's options."""
        rules = dict(self.default_rules)
        for param in rules:
            if param in options:
                rules[param] = checked_rule_value(param, options[param], field=f"options.{param}")
        return rules

    def creator_join(self, options: dict[str, Any]) -> dict[str, Any]:
        return {"team": options.get("team"), "player_deck": options.get("player_deck")}

    def joined(self, state: GameState, *, seat: int, team: str | None, body: dict[str, Any], rng: Rng) -> dict[str, Any]:
        """A player sits down: with their team, and in a Multi-Deck game their copy of their side's deck (in a
        game of the first reading, of the game's deck), in a CCG game the player deck they bring (``variants``)."""
        table = state.table
        require_team(team, variant=table.variant)
        if table.variant == MULTI_DECK and table.reading >= READING:
            return self._side_joined(table, body, rng)
        if body.get("side_deck") is not None:
            raise DomainError("A deck of your own (\"deck\") joins only a Multi-Deck game, created since each side "
                              "brings its own deck.", code="invalid", details={"field": "deck"})
        if table.variant == CCG:
            player_deck = read_player_deck(body.get("player_deck"), card_set=str(table.deck.get("slug", "")))
            return {"player_deck": player_deck_summary(player_deck),
                    "cards": copy_deck_cards(player_deck, rng, set(table.cards))}
        if table.variant == MULTI_DECK:
            return {"cards": copy_deck_cards({"cards": list(table.deck_cards)}, rng, set(table.cards))}
        return {}

    def _side_joined(self, table: DvorakState, body: dict[str, Any], rng: Rng) -> dict[str, Any]:
        """Multi-Deck Dvorak, "separate decks, each deck focusing solely on that side": the joiner's copy of the
        archive deck the join endpoint found for them (``side_deck``: slug, title, cards), by default the game's
        own, named on their seat (``deck``: slug and title). Its cards the game has not read are read now, as
        the game's own were when it was created. Its Special Rules stay out of the game (a reading: the game is
        played by the Special Rules of the deck it was created with)."""
        side = body.get("side_deck")
        if side is None:
            side = {**table.deck, "cards": list(table.deck_cards)}
        elif not (isinstance(side, dict) and isinstance(side.get("slug"), str) and side["slug"]
                  and isinstance(side.get("cards"), list) and all(isinstance(card, dict) for card in side["cards"])):
            raise DomainError("\"side_deck\" is the archive deck the join endpoint found.", code="invalid",
                              details={"field": "side_deck"})
        joined: dict[str, Any] = {"deck": {"slug": side["slug"], "title": str(side.get("title", ""))},
                                  "cards": copy_deck_cards(side, rng, set(table.cards))}
        if table.effects is not None:
            known = {(entry["title"], entry["type"], entry["text"]) for entry in table.effects.get("cards", [])}
            read = [entry for entry in fixed_effects(list(side["cards"]), [], [])["cards"]
                    if (entry["title"], entry["type"], entry["text"]) not in known]
            if read:
                joined["effects"] = read
        return joined

    # --- Starting the Game ----------------------------------------------------------------------------------

    def setup(self, state: GameState, rng: Rng) -> list[Event]:
        """Special Rules take effect; the cards are shuffled into a draw pile; each player draws their starting
        hand; the game begins with a randomly-determined player. A team game needs its teams, a creative game
        enough cards."""
        require_ready_to_start(state)
        self.require_enough_cards(state)
        # Special Rules accepted before the start already took effect when they were accepted.
        events = self.special_rule_modifier_events(
            state, [r for r in state.table.special_rules if not any(m.source == r.id for m in state.table.modifiers)])
        scratch = self.fold(state, events)
        draw_piles = self._shuffled_decks(scratch, rng)
        counters = dict(scratch.table.base_rules.get("counters") or {})
        for rule in scratch.table.special_rules:
            counters.update(rule.params.get("counters") or {})
        started: dict[str, Any] = {"draw_pile": draw_piles.get(None, []), "counters": counters}
        if scratch.table.has_own_decks:
            started["draw_piles"] = {str(seat): pile for seat, pile in draw_piles.items()}
        events.append(Event("game.started", started))
        for player in scratch.table.players:
            # Tops of piles are last: the starting hand comes off the end of the draw pile.
            draw_pile = draw_piles[pile_seat(scratch, player.seat)]
            count = min(max(int(rule_value(scratch, "starting_hand", player.seat) or 0), 0), len(draw_pile))
            hand = draw_pile[len(draw_pile) - count:][::-1]
            del draw_pile[len(draw_pile) - count:]
            events.append(Event("cards.dealt", {"seat": player.seat, "cards": hand, "count": count}))
        events.append(Event("turn.began", {"seat": rng.randbelow(len(scratch.seats))}))
        return events

    def _shuffled_decks(self, state: GameState, rng: Rng) -> dict[int | None, list[str]]:
        """The deck shuffled into the draw pile (key None); in a Multi-Deck game each player's own deck shuffled
        into their own draw pile (key: their seat)."""
        deck = cards_in_the_deck(state)
        if not state.table.has_own_decks:
            rng.shuffle(deck)
            return {None: deck}
        piles: dict[int | None, list[str]] = {}
        for player in state.table.players:
            piles[player.seat] = [c for c in deck if state.table.owners.get(c) == player.seat]
            rng.shuffle(piles[player.seat])
        return piles

    def special_rule_modifier_events(self, state: GameState, special_rules: list[SpecialRule]) -> list[Event]:
        """A Special Rule's parameters take effect as modifiers of everyone's rules (its counters are set up
        separately, as each player's own)."""
        return [
            Event("rule.set", {"source": rule.id, "param": param, "value": value, "seat": None, "card": None,
                               "deny": False, "by": None, "until": ENDED})
            for rule in special_rules
            for param, value in rule.params.items()
            if param != "counters"
        ]

    # --- Turn Structure: Draw ---------------------------------------------------------------------------------

    def _require_turn(self, state: GameState, seat: int, *stages: str) -> None:
        if state.table.turn is None or state.table.turn.seat != seat:
            raise DomainError("It is not your turn.", code="not_your_turn")
        if state.table.turn.stage not in stages:
            raise DomainError(f"You cannot do that in the {state.table.turn.stage} stage.",
                              code="wrong_stage", details={"stage": state.table.turn.stage})

    @command("draw", body=declared.DRAW)
    def draw(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        self._require_turn(state, ctx.player_seat, DRAW)
        events: list[Event] = []
        scratch = state
        count = max(int(rule_value(state, "draws_per_turn", ctx.player_seat) or 0), 0)
        if "count" in command_body:
            if "draws_per_turn" not in state.table.unenforced():
                raise DomainError("\"count\" is for a game whose Special Rule about drawing the server does not "
                                  "read (\"unenforced\" lists draws_per_turn): here the rules say how many.",
                                  code="invalid", details={"field": "count"})
            count = bodies.whole(command_body, "count")  # within draws_per_turn's bounds: the body says so
        for _ in range(count):
            drawn = self._draw_one(scratch, ctx.player_seat, ctx.rng)
            events.extend(drawn)
            scratch = self.fold(scratch, drawn)
        events.append(Event("turn.stage_changed", {"seat": ctx.player_seat, "stage": PLAY}))
        return events

    def _draw_one(self, state: GameState, seat: int, rng: Rng) -> list[Event]:
        """One card off the top of the draw pile (in a Multi-Deck game, the player's own); an empty draw pile is
        first refilled by shuffling the discard pile (the player's own); if both are empty, no card is drawn."""
        events = []
        piles = pile_seat(state, seat)
        draw_pile, discard_pile = draw_pile_of(state, piles), discard_pile_of(state, piles)
        if not draw_pile:
            if not discard_pile:
                return []
            new_pile = list(discard_pile)
            rng.shuffle(new_pile)
            refilled: dict[str, Any] = {"draw_pile": new_pile}
            if piles is not None:
                refilled["seat"] = piles
            events.append(Event("draw_pile.refilled", refilled))
            top = new_pile[-1]
        else:
            top = draw_pile[-1]
        events.append(Event("card.drawn", {"seat": seat, "card": top}))
        return events

    # --- Turn Structure: Play ---------------------------------------------------------------------------------

    def _require_in_hand(self, state: GameState, seat: int, card_id: str) -> None:
        if card_id not in state.table.player(seat).hand:
            # Says nothing of where the card really is.
            raise DomainError("That card is not in your hand.", code="card_not_in_hand", details={"card": card_id})

    @command("play", body=declared.PLAY)
    def play(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        """A card from the hand: in the play stage of your turn, or at any time when its text says so. In your
        own turn every card played is the turn's Thing or Action, one that may be played at any time included:
        it counts against the turn's limit and is refused once the limit is reached."""
        card_id = bodies.text(command_body, "card")
        self._require_in_hand(state, ctx.player_seat, card_id)
        turn = state.table.turn
        own_turn = turn is not None and turn.seat == ctx.player_seat
        if not (own_turn and turn.stage == PLAY) and not may_be_played_out_of_turn(state, card_id):
            self._require_turn(state, ctx.player_seat, PLAY)
        action = is_action(state, card_id)
        counted = own_turn and not self.free_in_own_turn(state, card_id)
        data: dict[str, Any] = {"seat": ctx.player_seat, "card": card_id, "kind": "Action" if action else "Thing",
                                "counted": counted}
        if "onto" in command_body:
            data["onto"] = self._onto_field(state, command_body, action)
        if "target" in command_body:
            data["target"] = bodies.seat(state, command_body, "target")
        if counted and not self._within_turn_limit(state, ctx.player_seat, action):
            kind = "Action" if action else "Thing"
            raise DomainError(f"You have already played your {kind} this turn.", code="limit_reached")
        if action:
            check_action_choices(state, ctx.player_seat, card_id, command_body)
        elif "targets" in command_body:
            raise DomainError("\"targets\" is only for an Action whose effect the server carries out with chosen "
                              "cards.", code="invalid", details={"field": "targets"})
        else:
            require_host(state, card_id, data.get("onto"))
        draws = 0
        if "draw" in command_body:
            draws = optional_draws(state, card_id)
            if command_body["draw"] is not True or action or not draws:
                raise DomainError("\"draw\": true is only for a Thing whose controller may draw as it comes into "
                                  "play.", code="invalid", details={"field": "draw"})
        played = [Event("card.played", data)]
        if action and carried_action(state, card_id) is not None:
            # The server carries out the whole effect, with the choices the command made (``carried``).
            played += action_events(self.fold(state, played), ctx.player_seat, card_id, command_body, ctx.rng,
                                    self._draw_one, self.fold)
        elif action:
            played += self._carried_out(self.fold(state, played), card_id, ctx)
        else:
            played += into_play_events(self.fold(state, played), card_id, ctx.player_seat)
            for _ in range(draws):
                drawn = self._draw_one(self.fold(state, played), ctx.player_seat, ctx.rng)
                played += drawn
            played += arrival_events(self.fold(state, played), ctx.player_seat, card_id, ctx.rng, self._draw_one,
                                     self.fold)
        return played

    def _carried_out(self, state: GameState, card_id: str, ctx: CommandContext) -> list[Event]:
        """What the server carries out itself of an Action it understands, when checking is on (option
        ``unread_effects`` not ``trust``): its player draws the cards it says ("Draw two cards.") and gains or loses
        the counters it says ("Gain 1 gold."). The rest of its text is the players' to carry out, as before."""
        if state.options.get("unread_effects", TRUST) == TRUST or not effects_fixed(state):
            return []
        events: list[Event] = []
        for effect in effect_of(state, card_id) or ():
            scratch = self.fold(state, events)
            if isinstance(effect, L.Draw) and effect.who == "you" and not effect.optional:
                for _ in range(effect.count):
                    drawn = self._draw_one(scratch, ctx.player_seat, ctx.rng)
                    events += drawn
                    scratch = self.fold(scratch, drawn)
            elif isinstance(effect, L.Counter) and effect.who == "you" and effect.instead_of is None:
                name = effect.name.strip().lower().replace(" ", "_")
                if not PARAM_NAME.match(name):
                    continue
                value = scratch.table.player(ctx.player_seat).counters.get(name, 0) + effect.amount
                if abs(value) <= COUNTER_LIMIT:
                    events.append(Event("counter.changed", {"seat": ctx.player_seat, "name": name, "delta": effect.amount,
                                                            "value": value, "by": ctx.player_seat, "cause": card_id}))
        return events

    def _onto_field(self, state: GameState, command_body: dict[str, Any], action: bool) -> str:
        onto = bodies.text(command_body, "onto")
        if action:
            raise DomainError("Only a Thing can be played onto another Thing.", code="invalid", details={"field": "onto"})
        location = locate(state, onto)
        if location is None or location.zone != "in_play":
            raise DomainError("\"onto\" must name a Thing in play.", code="invalid", details={"field": "onto"})
        return onto

    def free_in_own_turn(self, state: GameState, card_id: str) -> bool:
        """An Action that may be played at any time, played in its player's own turn, is not the turn's Action
        (option ``any_time_actions_count``: it is; so it was in a game of the first reading). The rulebook gives
        "one Action card" a turn and lets a card say it may be played "at any time"; whether that card also uses
        the turn's Action it does not say: a reading."""
        if not is_action(state, card_id) or not may_be_played_out_of_turn(state, card_id):
            return False
        counts = state.options.get("any_time_actions_count")
        return not (state.table.reading < READING if counts is None else counts)

    def _within_turn_limit(self, state: GameState, seat: int, action: bool) -> bool:
        param = "actions_per_turn" if action else "things_per_turn"
        if param in state.table.unenforced():
            return True  # a Special Rule the server does not read changes it: the players keep it
        if action:
            return _limit_allows(rule_value(state, "actions_per_turn", seat), state.table.turn.actions_played)
        return _limit_allows(rule_value(state, "things_per_turn", seat), state.table.turn.things_played)

    @command("use", body=declared.USE)
    def use(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        """A Thing's "Action: ..." ability, used in place of playing the turn's Action."""
        card_id = bodies.text(command_body, "card")
        if card_id not in state.table.player(ctx.player_seat).in_play:
            raise DomainError("You control no Thing in play with that id.", code="not_found", details={"card": card_id})
        if not ACTION_ABILITY.search(state.table.cards[card_id].text):
            raise DomainError("That Thing has no \"Action:\" ability.", code="invalid", details={"card": card_id})
        self._require_turn(state, ctx.player_seat, PLAY)
        if rule_value(state, "use_actions", ctx.player_seat, card_id) is False:
            raise DomainError("That Thing may not use its Actions now.", code="denied", details={"card": card_id})
        if not self._within_turn_limit(state, ctx.player_seat, action=True):
            raise DomainError("You have already played your Action this turn.", code="limit_reached")
        # An ability the server understands and carries out is used on a target that fits (``carried``).
        carried = ability_events(state, ctx.player_seat, card_id, command_body.get("target"))
        events = [Event("thing.used", {"seat": ctx.player_seat, "card": card_id}), *carried]
        if carried and carried[0].type == "thing.destroyed":
            events += cascade_events(state, [carried[0].data["card"]], ctx.player_seat)
        return events

    # --- Turn Structure: Discard and End ----------------------------------------------------------------------

    @command("discard", body=declared.DISCARD)
    def discard(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        cards = bodies.card_list(command_body, "cards")
        for card_id in cards:
            self._require_in_hand(state, ctx.player_seat, card_id)
        if "cause" in command_body:
            cause = self._cause_field(state, command_body, ctx.player_seat)
            return self._checked(state, command_body, ctx, "discard", cause,
                                 [Event("cards.discarded", {"seat": ctx.player_seat, "cards": cards, "cause": cause})])
        # Without a card telling them to, players only discard down to the hand limit at the end of the turn.
        self._require_turn(state, ctx.player_seat, PLAY, DISCARD)
        limit = _hand_limit(state, ctx.player_seat)
        hand_size = len(state.table.player(ctx.player_seat).hand)
        if "hand_limit" in state.table.unenforced():
            pass  # a Special Rule the server does not read says what the hand holds: the players keep it
        elif limit is None or hand_size - len(cards) < limit:
            raise DomainError(f"You may only discard down to your hand limit of {limit}.",
                              code="limit_reached", details={"hand_limit": limit})
        events = []
        if state.table.turn.stage != DISCARD:
            events.append(Event("turn.stage_changed", {"seat": ctx.player_seat, "stage": DISCARD}))
        events.append(Event("cards.discarded", {"seat": ctx.player_seat, "cards": cards}))
        return events

    @command("end_turn", body=declared.END_TURN)
    def end_turn(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        self._require_turn(state, ctx.player_seat, PLAY, DISCARD)
        limit = _hand_limit(state, ctx.player_seat)
        if limit is not None and len(state.table.player(ctx.player_seat).hand) > limit \
                and "hand_limit" not in state.table.unenforced():
            raise DomainError(f"Discard down to your hand limit of {limit} first.",
                              code="limit_reached", details={"hand_limit": limit})
        extra = extra_turn(state, ctx.player_seat)
        if extra is not None:
            # An extra turn an Action gave (``carried``): used up, and this player's next turn begins now.
            return [Event("turn.ended", {"seat": ctx.player_seat}),
                    Event("rule.ended", {"effect": extra.order, "param": extra.param, "by": ctx.player_seat,
                                         "cause": extra.source}),
                    Event("turn.began", {"seat": ctx.player_seat})]
        return [Event("turn.ended", {"seat": ctx.player_seat}), Event("turn.began", {"seat": next_seat(state, ctx.player_seat)})]

    # --- Effect moves: carrying out a card's text -------------------------------------------------------------

    def _cause_field(self, state: GameState, command_body: dict[str, Any], seat: int, *, from_hand: bool = True) -> str:
        """The card (or Special Rule) whose text a move carries out; the actor must be able to see it."""
        cause = command_body.get("cause")
        if isinstance(cause, str) and any(rule.id == cause for rule in state.table.special_rules):
            return cause
        visible = cards_visible_to(state, seat)
        if not from_hand:
            visible -= set(state.table.player(seat).hand)
        if not isinstance(cause, str) or cause not in visible:
            raise DomainError("\"cause\" must name a card you can see or a Special Rule.",
                              code="invalid", details={"field": "cause"})
        return cause

    def _visible_card_field(self, state: GameState, command_body: dict[str, Any], seat: int, name: str = "card") -> str:
        card_id = bodies.text(command_body, name)
        if card_id not in cards_visible_to(state, seat):
            raise DomainError("No card you can see has that id.", code="not_found", details={"field": name})
        return card_id

    @command("move", body=declared.MOVE)
    def move(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        cause = self._cause_field(state, command_body, ctx.player_seat)
        card_id = self._visible_card_field(state, command_body, ctx.player_seat)
        to = command_body.get("to")
        if to not in DESTINATIONS:
            raise DomainError(f"\"to\" must be one of {', '.join(DESTINATIONS)}.", code="invalid", details={"field": "to"})
        destination: dict[str, Any] = {"zone": to}
        if to in ("hand", "in_play"):
            destination["seat"] = bodies.seat(state, command_body, "seat") if "seat" in command_body else ctx.player_seat
        if to == "in_play" and is_action(state, card_id):
            raise DomainError("An Action cannot be put into play.", code="invalid", details={"field": "to"})
        if to == "in_play" and "onto" in command_body:
            destination["onto"] = self._onto_field(state, command_body, action=False)
            if destination["onto"] in (card_id, *attached_things(state, card_id)):
                raise DomainError("A Thing cannot be played onto itself.", code="invalid", details={"field": "onto"})
        origin = located(state, card_id)
        return self._checked(state, command_body, ctx, "move", cause, [
            Event("card.moved", {"card": card_id, "from": {"zone": origin.zone, "seat": origin.seat},
                                 "to": destination, "by": ctx.player_seat, "cause": cause})])

    @command("destroy", body=declared.DESTROY)
    def destroy(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        cause = self._cause_field(state, command_body, ctx.player_seat)
        card_id = self._visible_card_field(state, command_body, ctx.player_seat)
        if located(state, card_id).zone != "in_play":
            raise DomainError("Only a Thing in play can be destroyed.", code="invalid", details={"field": "card"})
        events = self._checked(state, command_body, ctx, "destroy", cause,
                               [Event("thing.destroyed", {"card": card_id, "by": ctx.player_seat, "cause": cause})])
        if [e.type for e in events] == ["thing.destroyed"]:
            events += cascade_events(state, [card_id], ctx.player_seat)
        return events

    @command("take_random", body=declared.TAKE_RANDOM)
    def take_random(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        cause = self._cause_field(state, command_body, ctx.player_seat)
        victim = bodies.seat(state, command_body, "from")
        if victim == ctx.player_seat:
            raise DomainError("Take a random card from another player's hand.", code="invalid", details={"field": "from"})
        _require_opponent(state, command_body, ctx.player_seat, victim)
        hand = state.table.player(victim).hand
        if not hand:
            raise DomainError("That player has no cards in hand.", code="invalid", details={"field": "from"})
        card_id = hand[ctx.rng.randbelow(len(hand))]
        return self._checked(state, command_body, ctx, "take_random", cause,
                             [Event("card.taken", {"from": victim, "to": ctx.player_seat, "card": card_id, "cause": cause})])

    @command("give", body=declared.GIVE)
    def give(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        """A card from your hand to another player: as a card's effect (with ``cause``), or, in Team Dvorak, to a
        team-mate in place of the turn's Action (without ``cause``)."""
        if "cause" not in command_body and state.seat(ctx.player_seat).team is not None:
            return self._give_to_team_mate(state, command_body, ctx)
        cause = self._cause_field(state, command_body, ctx.player_seat)
        card_id = bodies.text(command_body, "card")
        self._require_in_hand(state, ctx.player_seat, card_id)
        receiver = bodies.seat(state, command_body, "to")
        if receiver == ctx.player_seat:
            raise DomainError("Give the card to another player.", code="invalid", details={"field": "to"})
        _require_opponent(state, command_body, ctx.player_seat, receiver)
        return self._checked(state, command_body, ctx, "give", cause,
                             [Event("card.given", {"from": ctx.player_seat, "to": receiver, "card": card_id, "cause": cause})])

    def _give_to_team_mate(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        card_id = bodies.text(command_body, "card")
        self._require_in_hand(state, ctx.player_seat, card_id)
        receiver = bodies.seat(state, command_body, "to")
        if receiver not in team_mates(state, ctx.player_seat) or state.seat(receiver).status != PLAYING:
            raise DomainError("Without a card's effect, you may only give a card to a team-mate still in "
                                        "the game.", code="denied", details={"field": "to"})
        self._require_turn(state, ctx.player_seat, PLAY)
        if not self._within_turn_limit(state, ctx.player_seat, action=True):
            raise DomainError("You have already played your Action this turn.", code="limit_reached")
        return [Event("card.given", {"from": ctx.player_seat, "to": receiver, "card": card_id, "cause": None,
                                     "counted": True})]

    @command("counter", body=declared.COUNTER)
    def counter(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        cause = self._cause_field(state, command_body, ctx.player_seat)
        seat = bodies.seat(state, command_body, "seat")
        name = command_body.get("name")
        if not isinstance(name, str) or not PARAM_NAME.match(name):
            raise DomainError("\"name\" must be a counter's snake_case name.", code="invalid", details={"field": "name"})
        delta = bodies.whole(command_body, "delta")
        value = state.table.player(seat).counters.get(name, 0) + delta
        if abs(value) > COUNTER_LIMIT:
            raise DomainError(f"A counter stays within ±{COUNTER_LIMIT} (a number every JSON reader keeps exactly).",
                              code="invalid", details={"field": "delta"})
        return self._checked(state, command_body, ctx, "counter", cause, [
            Event("counter.changed", {"seat": seat, "name": name, "delta": delta, "value": value, "by": ctx.player_seat,
                                      "cause": cause})])

    @command("roll", body=declared.ROLL)
    def roll(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        cause = self._cause_field(state, command_body, ctx.player_seat)
        dice = command_body.get("dice")
        match = DICE.match(dice) if isinstance(dice, str) else None
        if match is None or int(match[1]) < 1 or int(match[2]) < 2:
            raise DomainError("\"dice\" must look like \"2d6\".", code="invalid", details={"field": "dice"})
        rolls = [ctx.rng.randbelow(int(match[2])) + 1 for _ in range(int(match[1]))]
        return self._checked(state, command_body, ctx, "roll", cause, [
            Event("dice.rolled", {"dice": dice, "rolls": rolls, "total": sum(rolls), "by": ctx.player_seat, "cause": cause})])

    @command("reveal", body=declared.REVEAL)
    def reveal(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        cause = self._cause_field(state, command_body, ctx.player_seat)
        card_id = bodies.text(command_body, "card")
        self._require_in_hand(state, ctx.player_seat, card_id)
        return self._checked(state, command_body, ctx, "reveal", cause,
                             [Event("card.revealed", {"seat": ctx.player_seat, "card": card_id, "cause": cause})])

    @command("shuffle", body=declared.SHUFFLE)
    def shuffle(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        cause = self._cause_field(state, command_body, ctx.player_seat)
        pile = command_body.get("pile")
        if pile not in ("draw", "discard"):
            raise DomainError("\"pile\" must be \"draw\" or \"discard\".", code="invalid", details={"field": "pile"})
        key = "draw_pile" if pile == "draw" else "discard_pile"
        data: dict[str, Any] = {"pile": pile, "by": ctx.player_seat, "cause": cause}
        owner = None
        if state.table.has_own_decks:
            # In a Multi-Deck game: your own pile, unless the card names another player's ("seat").
            owner = bodies.seat(state, command_body, "seat") if "seat" in command_body else ctx.player_seat
            data["seat"] = owner
        order = list(draw_pile_of(state, owner) if pile == "draw" else discard_pile_of(state, owner))
        ctx.rng.shuffle(order)
        return self._checked(state, command_body, ctx, "shuffle", cause, [Event("pile.shuffled", {**data, key: order})])

    @command("set_rule", body=declared.SET_RULE)
    def set_rule(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        """A card changes a rule parameter, for as long as it says (``until``). Not any card: one whose text (or
        a Special Rule whose text or parameters) speaks of the parameter, and that is the player's to cite: a
        Special Rule, a Thing they control in play, or a card they played this turn (``citation_refusal``)."""
        cause = self._cause_field(state, command_body, ctx.player_seat, from_hand=False)
        param = command_body.get("param")
        if not isinstance(param, str) or not PARAM_NAME.match(param) or param == "counters":
            raise DomainError("\"param\" must name a rule parameter.", code="invalid", details={"field": "param"})
        if "value" not in command_body and not command_body.get("deny"):
            raise DomainError("\"value\" is required unless the rule is denied.", code="invalid", details={"field": "value"})
        deny = command_body.get("deny", False)
        if not isinstance(deny, bool):
            raise DomainError("\"deny\" must be true or false.", code="invalid", details={"field": "deny"})
        seat = bodies.seat(state, command_body, "seat") if command_body.get("seat") is not None else None
        card = self._visible_card_field(state, command_body, ctx.player_seat) if command_body.get("card") else None
        value = checked_rule_value(param, command_body.get("value", self._denied_value(state, param)), field="value")
        duration = self._duration_fields(state, command_body, cause, ctx.player_seat)
        self._require_citable(state, ctx.player_seat, cause, param)
        return self._checked(state, command_body, ctx, "set_rule", cause, [
            Event("rule.set", {"source": cause, "param": param, "value": value, "seat": seat, "card": card,
                               "deny": deny, "by": ctx.player_seat, **duration})])

    def _duration_fields(self, state: GameState, command_body: dict[str, Any], cause: str, seat: int) -> dict[str, Any]:
        """How long a change lasts: ``until`` ``leaves_play`` (only for a Thing of yours in play, and its
        default), ``end_of_turn`` (``turns``: this many turns end first, this one counted; the default for a
        card just played that is not in play) or ``ended`` (until a player ends it; a Special Rule's default)."""
        thing_in_play = cause in state.table.player(seat).in_play
        default = LEAVES_PLAY if thing_in_play else ENDED if cause not in state.table.cards else END_OF_TURN
        until = command_body.get("until", default)
        if until not in DURATIONS or (until == LEAVES_PLAY and not thing_in_play):
            allowed = DURATIONS if thing_in_play else (END_OF_TURN, ENDED)
            raise DomainError(f"\"until\" must be one of {', '.join(allowed)} for this cause.", code="invalid",
                              details={"field": "until"})
        if until != END_OF_TURN:
            if "turns" in command_body:
                raise DomainError("\"turns\" goes with \"until\": \"end_of_turn\".", code="invalid",
                                  details={"field": "turns"})
            return {"until": until}
        turns = command_body.get("turns", 1)
        if isinstance(turns, bool) or not isinstance(turns, int) or not 1 <= turns <= MAX_TURNS:
            raise DomainError(f"\"turns\" must be a whole number from 1 to {MAX_TURNS}.", code="invalid",
                              details={"field": "turns"})
        return {"until": until, "turns": turns}

    def _require_citable(self, state: GameState, seat: int, cause: str, param: str) -> None:
        refusal = citation_refusal(state, seat, cause, param)
        if refusal is not None:
            raise DomainError(refusal, code="not_citable", details={"field": "cause", "param": param})

    @command("end_rule_effect", body=declared.END_RULE_EFFECT)
    def end_rule_effect(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        """Ends a change made with ``set_rule`` (``effect``: its number, the ``id`` in ``modifiers``) before its
        time: the player who made it may take it back at any time; anyone else cites a card that could change
        the parameter, as ``set_rule`` does (``cause``). A Special Rule's own changes end only with the rule
        (amended or repealed)."""
        number = bodies.whole(command_body, "effect")
        modifier = next((m for m in visible_modifiers(state, ctx.player_seat) if m.order == number), None)
        if modifier is None:
            raise DomainError("No rule change you can see has that number.", code="not_found",
                              details={"field": "effect"})
        if modifier.by is None and modifier.source not in state.table.cards:
            raise DomainError("A Special Rule's own changes end when it is amended or repealed.", code="denied",
                              details={"field": "effect"})
        cause = None
        if "cause" in command_body or modifier.by != ctx.player_seat:
            if "cause" not in command_body:
                raise DomainError("Only the player who made this change may end it without a card: name the card "
                                  "that ends it (\"cause\").", code="denied", details={"field": "cause"})
            cause = self._cause_field(state, command_body, ctx.player_seat, from_hand=False)
            self._require_citable(state, ctx.player_seat, cause, modifier.param)
        ended = [Event("rule.ended", {"effect": number, "param": modifier.param, "by": ctx.player_seat, "cause": cause})]
        if cause is None:
            return ended
        return self._checked(state, command_body, ctx, "end_rule_effect", cause, ended,
                             param=modifier.param)

    def _checked(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext, move: str, cause: str,
                 events: list[Event], *, param: str | None = None) -> list[Event]:
        """An effect move's events, once the cited card allows it (``effects``). Under ``unread_effects``
        ``trust`` (and in a game created before the server read cards) every citation is taken on trust; else a
        card the server understands must allow the move (a win: its condition must hold now), and one it does
        not understand opens a claim (``claims``) in place of the move."""
        mode = state.options.get("unread_effects", TRUST)
        if isinstance(ctx, GrantedContext) or not effects_fixed(state) or mode == TRUST:
            return events
        if carried_action(state, cause) is not None:
            # The server carries out that Action's whole effect as it is played: an effect move would do it twice.
            raise DomainError("The server carries out that card's effect itself when it is played.",
                              code="effect_not_allowed", details={"field": "cause", "move": move})
        result, why = verdict(state, ctx.player_seat, move, {**command_body, "param": param or command_body.get("param")},
                              cause)
        if result == ALLOWED:
            return events
        if result == REFUSED:
            code = "win_condition_not_met" if why == NOT_NOW else "effect_not_allowed"
            raise DomainError(why, code=code, details={"field": "cause", "move": move})
        return self.open_claim(state, command_body, ctx, cause, mode)

    def _denied_value(self, state: GameState, param: str) -> Any:
        """What a denial without a value means: none at all for a number, no for a permission."""
        return 0 if isinstance(state.table.base_rules.get(param), int) else False

    def deck_after_game(self, state: GameState) -> dict[str, Any]:
        return aftermath.deck_after_game(state)

    def remove_card(self, state: GameState, card_id: str) -> GameState:
        return _take_out(state, card_id)

    # --- Winning and knock-outs -------------------------------------------------------------------------------

    @command("win", body=declared.WIN)
    def win(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        cause = self._cause_field(state, command_body, ctx.player_seat)
        winners = [ctx.player_seat]
        if "seats" in command_body:
            seats = command_body["seats"]
            if (not isinstance(seats, list) or not seats or len(set(map(str, seats))) != len(seats)
                    or not all(self._is_standing_seat(state, s) for s in seats)):
                raise DomainError("\"seats\" must list players still in the game.", code="invalid", details={"field": "seats"})
            winners = seats
        # Team Dvorak: when a player wins, their team is victorious.
        return self._checked(state, command_body, ctx, "win", cause, [
            Event("game.won", {"winners": winning_seats(state, winners), "by": ctx.player_seat, "cause": cause})])

    def _is_standing_seat(self, state: GameState, seat: Any) -> bool:
        return (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(state.seats)
                and state.seat(seat).status == PLAYING)

    @command("eliminate", body=declared.ELIMINATE)
    def eliminate(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        cause = self._cause_field(state, command_body, ctx.player_seat)
        seat = bodies.seat(state, command_body, "seat")
        if state.seat(seat).status != PLAYING:
            raise DomainError("That player is already out of the game.", code="invalid", details={"field": "seat"})
        _require_opponent(state, command_body, ctx.player_seat, seat)
        return self._checked(state, command_body, ctx, "eliminate", cause, self._knock_out(
            state, Event("player.eliminated", {"seat": seat, "by": ctx.player_seat, "cause": cause})))

    @command("concede", body=declared.CONCEDE)
    def concede(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        return self._knock_out(state, Event("player.eliminated", {"seat": ctx.seat, "by": ctx.seat,
                                                                 "conceded": True}))

    def _knock_out(self, state: GameState, eliminated: Event) -> list[Event]:
        """In a game of knock-outs the last player remaining is the winner (in Team Dvorak, the last team: every
        player of a team wins once all the other teams' players are out); a player knocked out in their own turn
        passes it on."""
        events = [eliminated]
        after = self.evolve(state, eliminated)
        standing = seats_standing(after)
        if len(standing) == 1 or not opponents(after, standing[0]):
            events.append(Event("game.won", {"winners": winning_seats(after, standing), "by": None, "cause": None,
                                             "last_standing": True}))
        elif after.table.turn is not None and after.table.turn.seat == eliminated.data["seat"]:
            events.append(Event("turn.began", {"seat": next_seat(after, after.table.turn.seat)}))
        return events

    # --- How events change the game ---------------------------------------------------------------------------

    @applies("game.created", shows={"deck": PUBLIC, "cards": COUNT, "deck_cards": _copies_count,
                                    "special_rules": PUBLIC, "rules": PUBLIC, "blank_cards": PUBLIC,
                                    "effects": effects_summary, "reading": PUBLIC})
    def apply_game_created(self, state: GameState, event: Event) -> GameState:
        data = event.data
        return replace(state, table=DvorakState(
            variant=data["variant"],
            creative=data["creative"],
            deck=data["deck"],
            cards=cards_from_json(data["cards"]),
            special_rules=tuple(SpecialRule(**rule) for rule in data["special_rules"]),
            base_rules=data["rules"],
            blank_cards=data.get("blank_cards", 0),
            deck_cards=tuple(data.get("deck_cards", [])),
            effects=data.get("effects"),
            reading=data.get("reading", FIRST_READING),
        ))

    @applies("player.joined", shows={"player_deck": PUBLIC, "deck": PUBLIC, "cards": COUNT})
    def apply_player_joined(self, state: GameState, event: Event) -> GameState:
        """A seat taken, with its own deck's cards in a Multi-Deck or CCG game: the CCG player deck or the
        Multi-Deck side's deck (``deck``) named on it, and the effects read of the side deck's cards."""
        data = event.data
        table = state.table
        counters = dict(table.base_rules.get("counters") or {})
        player = Player(seat=data["seat"], counters=counters, deck=data.get("player_deck") or data.get("deck"))
        cards = data.get("cards", [])
        if "effects" in data:
            table = replace(table, effects={**table.effects, "cards": [*table.effects["cards"], *data["effects"]]})
        return replace(state, table=replace(
            table, players=(*table.players, player),
            cards={**table.cards, **cards_from_json(cards)},
            owners={**table.owners, **{card["id"]: data["seat"] for card in cards}}))

    def left(self, state: GameState, seat: int) -> GameState:
        """A player leaves the open table: their player and the cards they brought (a CCG player deck's, a
        Multi-Deck side's copy) go with them; the cards of later seats are owned by their new seat numbers."""
        state = super().left(state, seat)
        table = state.table
        gone = {card for card, owner in table.owners.items() if owner == seat}
        if not table.owners:
            return state
        return state.with_table(
            cards={card_id: card for card_id, card in table.cards.items() if card_id not in gone},
            owners={card: owner - 1 if owner > seat else owner
                    for card, owner in table.owners.items() if card not in gone})

    @applies("rule.set", shows=dict.fromkeys(
        ("source", "param", "value", "seat", "card", "deny", "by", "until", "turns"), PUBLIC))
    def apply_rule_set(self, state: GameState, event: Event) -> GameState:
        """A rule change takes effect. Events from before changes had a duration say none: a card's lasted while
        it stayed in play, a Special Rule's while the rule did."""
        data = event.data
        until = data.get("until") or (LEAVES_PLAY if data["source"] in state.table.cards else ENDED)
        ends_at_turn = state.table.turn_number + data["turns"] if until == END_OF_TURN else None
        modifier = Modifier(source=data["source"], param=data["param"], value=data["value"], seat=data["seat"],
                            card=data["card"], deny=data["deny"], order=state.version + 1, by=data.get("by"),
                            until=until, ends_at_turn=ends_at_turn)
        return state.with_table(modifiers=(*state.table.modifiers, modifier))

    @applies("rule.ended", shows=dict.fromkeys(("effect", "param", "by", "cause"), PUBLIC))
    def apply_rule_ended(self, state: GameState, event: Event) -> GameState:
        return state.with_table(modifiers=tuple(m for m in state.table.modifiers if m.order != event.data["effect"]))

    @applies("game.started", shows={"draw_pile": COUNT, "counters": PUBLIC, "draw_piles": COUNT_EACH})
    def apply_game_started(self, state: GameState, event: Event) -> GameState:
        counters = event.data["counters"]
        own_piles = event.data.get("draw_piles", {})
        players = tuple(replace(p, counters={**counters, **p.counters},
                                draw_pile=tuple(own_piles.get(str(p.seat), p.draw_pile)))
                        for p in state.table.players)
        state = replace(state, status=ACTIVE)
        return state.with_table(draw_pile=tuple(event.data["draw_pile"]), players=players)

    @applies("cards.dealt", shows={"seat": PUBLIC, "cards": PUBLIC, "count": PUBLIC})
    def apply_cards_dealt(self, state: GameState, event: Event) -> GameState:
        cards, seat = event.data["cards"], event.data["seat"]
        draft = TableDraft(state.table)
        draft.remove_from_piles(cards)
        draft.change_player(seat, hand=(*draft.player(seat).hand, *cards))
        return draft.state(state)

    @applies("turn.began", shows={"seat": PUBLIC})
    def apply_turn_began(self, state: GameState, event: Event) -> GameState:
        """A new turn; the rule changes that lasted until the end of the turn before (or of their last turn)
        end with it."""
        number = state.table.turn_number + 1
        lasting = tuple(m for m in state.table.modifiers if m.ends_at_turn is None or m.ends_at_turn > number)
        return state.with_table(turn=Turn(seat=event.data["seat"], stage=DRAW), turn_number=number,
                                modifiers=lasting)

    @applies("turn.stage_changed", shows={"seat": PUBLIC, "stage": PUBLIC})
    def apply_turn_stage_changed(self, state: GameState, event: Event) -> GameState:
        return state.with_table(turn=replace(state.table.turn, stage=event.data["stage"]))

    @applies("turn.ended", shows={"seat": PUBLIC})
    def apply_turn_ended(self, state: GameState, event: Event) -> GameState:
        return state.with_table(turn=None)

    @applies("draw_pile.refilled", shows={"draw_pile": COUNT, "seat": PUBLIC})
    def apply_draw_pile_refilled(self, state: GameState, event: Event) -> GameState:
        return with_piles(state, event.data.get("seat"), draw_pile=tuple(event.data["draw_pile"]), discard_pile=())

    @applies("card.drawn", shows={"seat": PUBLIC, "card": PUBLIC})
    def apply_card_drawn(self, state: GameState, event: Event) -> GameState:
        card_id, seat = event.data["card"], event.data["seat"]
        draft = TableDraft(state.table)
        draft.remove_from_piles((card_id,))
        draft.change_player(seat, hand=(*draft.player(seat).hand, card_id))
        return draft.state(state)

    @applies("card.played", shows=dict.fromkeys(("seat", "card", "kind", "counted", "onto", "target"), PUBLIC))
    def apply_card_played(self, state: GameState, event: Event) -> GameState:
        data = event.data
        card_id, seat = data["card"], data["seat"]
        action = data["kind"] == "Action"
        draft = TableDraft(state.table)
        _take_out_of(draft, card_id)
        if action:
            draft.to_discard_pile((card_id,))
        else:
            _put_into_play(draft, card_id, seat, data.get("onto"))
        turn = draft.get("turn")
        played = {**turn.played, card_id: seat}
        if not data["counted"]:
            turn = replace(turn, played=played)
        elif action:
            turn = replace(turn, played=played, actions_played=turn.actions_played + 1)
        else:
            turn = replace(turn, played=played, things_played=turn.things_played + 1)
        draft.set(turn=turn)
        return draft.state(state)

    @applies("thing.used", shows={"seat": PUBLIC, "card": PUBLIC})
    def apply_thing_used(self, state: GameState, event: Event) -> GameState:
        return state.with_table(turn=replace(state.table.turn, actions_played=state.table.turn.actions_played + 1))

    @applies("cards.discarded", shows={"seat": PUBLIC, "cards": PUBLIC, "cause": PUBLIC})
    def apply_cards_discarded(self, state: GameState, event: Event) -> GameState:
        draft = TableDraft(state.table)
        for card_id in event.data["cards"]:
            _take_out_of(draft, card_id)
            draft.to_discard_pile((card_id,))
        return draft.state(state)

    @applies("card.moved", shows=dict.fromkeys(("card", "from", "to", "by", "cause"), PUBLIC))
    def apply_card_moved(self, state: GameState, event: Event) -> GameState:
        card_id, to = event.data["card"], event.data["to"]
        draft = TableDraft(state.table)
        _take_out_of(draft, card_id)
        zone = to["zone"]
        if zone == "hand":
            draft.change_player(to["seat"], hand=(*draft.player(to["seat"]).hand, card_id))
        elif zone == "in_play":
            _put_into_play(draft, card_id, to["seat"], to.get("onto"))
        # A Multi-Deck card goes back to the piles of the player whose deck it came from.
        elif zone == "discard":
            draft.to_discard_pile((card_id,))
        else:
            draft.to_draw_pile(card_id, top=zone == "draw_top")
        return draft.state(state)

    @applies("thing.destroyed", shows={"card": PUBLIC, "by": PUBLIC, "cause": PUBLIC})
    def apply_thing_destroyed(self, state: GameState, event: Event) -> GameState:
        """A destroyed Thing goes to the discard pile (of its deck's player, in Multi-Deck Dvorak), and so does
        every Thing played onto it (not the reverse)."""
        card_id = event.data["card"]
        draft = TableDraft(state.table)
        _take_out_of(draft, card_id)
        draft.to_discard_pile((card_id,))
        return draft.state(state)

    @applies("card.taken", shows=dict.fromkeys(("from", "to", "card", "cause"), PUBLIC))
    def apply_card_taken(self, state: GameState, event: Event) -> GameState:
        draft = TableDraft(state.table)
        _hand_to_hand(draft, event.data["card"], event.data["to"])
        return draft.state(state)

    @applies("card.given", shows=dict.fromkeys(("from", "to", "card", "cause", "counted"), PUBLIC))
    def apply_card_given(self, state: GameState, event: Event) -> GameState:
        draft = TableDraft(state.table)
        _hand_to_hand(draft, event.data["card"], event.data["to"])
        if event.data.get("counted"):  # given to a team-mate in place of the turn's Action
            turn = draft.get("turn")
            draft.set(turn=replace(turn, actions_played=turn.actions_played + 1))
        return draft.state(state)

    @applies("counter.changed", shows=dict.fromkeys(("seat", "name", "delta", "value", "by", "cause"), PUBLIC))
    def apply_counter_changed(self, state: GameState, event: Event) -> GameState:
        draft = TableDraft(state.table)
        seat = event.data["seat"]
        draft.change_player(seat, counters={**draft.player(seat).counters, event.data["name"]: event.data["value"]})
        return draft.state(state)

    @applies("dice.rolled", shows=dict.fromkeys(("dice", "rolls", "total", "by", "cause"), PUBLIC))
    def apply_dice_rolled(self, state: GameState, event: Event) -> GameState:
        return state

    @applies("card.revealed", shows={"seat": PUBLIC, "card": PUBLIC, "cause": PUBLIC})
    def apply_card_revealed(self, state: GameState, event: Event) -> GameState:
        return state

    @applies("pile.shuffled", shows={"pile": PUBLIC, "by": PUBLIC, "cause": PUBLIC, "seat": PUBLIC,
                                     "draw_pile": COUNT, "discard_pile": PUBLIC})
    def apply_pile_shuffled(self, state: GameState, event: Event) -> GameState:
        key = "draw_pile" if event.data["pile"] == "draw" else "discard_pile"
        return with_piles(state, event.data.get("seat"), **{key: tuple(event.data[key])})

    @applies("player.eliminated", shows={"seat": PUBLIC, "by": PUBLIC, "cause": PUBLIC, "conceded": PUBLIC})
    def apply_player_eliminated(self, state: GameState, event: Event) -> GameState:
        return state.with_seat(replace(state.seat(event.data["seat"]), status=ELIMINATED))

    @applies("game.won", shows={"winners": PUBLIC, "by": PUBLIC, "cause": PUBLIC, "last_standing": PUBLIC})
    def apply_game_won(self, state: GameState, event: Event) -> GameState:
        state = replace(state, status=FINISHED, winners=tuple(event.data["winners"]))
        return state.with_table(turn=None)


# --- Moving cards between zones (for the appliers) -------------------------------------------------------------


def _require_opponent(state: GameState, command_body: dict[str, Any], seat: int, other: int) -> None:
    """A card whose effect names an opponent says so (``"opponent": true``); Team Dvorak's team-mates are not
    opponents of one another."""
    if command_body.get("opponent") is True and other not in opponents(state, seat):
        raise DomainError("That player is not your opponent.", code="denied", details={"seat": other})


def _hand_to_hand(draft: TableDraft, card_id: str, receiver: int) -> None:
    _take_out_of(draft, card_id)
    draft.change_player(receiver, hand=(*draft.player(receiver).hand, card_id))


def _put_into_play(draft: TableDraft, card_id: str, seat: int, onto: str | None) -> None:
    draft.change_player(seat, in_play=(*draft.player(seat).in_play, card_id))
    if onto is not None:
        draft.set(attached_to={**draft.get("attached_to"), card_id: onto})


def _take_out(state: GameState, card_id: str) -> GameState:
    """The state with a card taken from wherever it is (``_take_out_of``); the same state if it is nowhere."""
    draft = TableDraft(state.table)
    if draft.where(card_id) is None:
        return state
    _take_out_of(draft, card_id)
    return draft.state(state)


def _take_out_of(draft: TableDraft, card_id: str) -> None:
    """Take a card from wherever it is. A Thing leaving play takes with it the Things played onto it (they go to
    the discard pile), the changes it made to last while it stays in play, and every change made for it."""
    location = draft.where(card_id)
    if location is None:
        return
    zone, seat = location
    if zone == "in_play":
        attached_to = draft.get("attached_to")
        attached = attached_in(attached_to, card_id)
        leaving = {card_id, *attached}
        for player in tuple(draft.all_players()):
            if not leaving.isdisjoint(player.in_play):
                draft.change_player(player.seat, in_play=tuple(c for c in player.in_play if c not in leaving))
        draft.set(
            attached_to={c: host for c, host in attached_to.items() if c not in leaving},
            modifiers=tuple(m for m in draft.get("modifiers")
                            if not (m.source in leaving and m.until == LEAVES_PLAY) and m.card not in leaving),
        )
        draft.to_discard_pile(attached)
    elif zone == "hand":
        assert seat is not None, "a hand is a player's"
        draft.change_player(seat, hand=without(draft.player(seat).hand, card_id))
    else:
        draft.remove_from_piles((card_id,))
