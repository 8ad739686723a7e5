"""Filibuster on the ruleset contract: campaigns of four steps, filibusters, Gambit stacks, and points to 200.

The rules are the Filibuster CCG set's own (Drock, 2012); each method below says which sentence it carries out.
The readings taken where the rules are silent are listed in the package's docstring (``filibuster/__init__``); each
command's body is declared in ``bodies`` (checked by the engine before its handler runs).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dvorak_core.errors import DomainError
from dvorak_engine import clock
from dvorak_engine.cards import (
    Card,
    card_json,
    cards_from_json,
    copy_deck_cards,
    deck_card_content,
    hide_unseen_cards,
)
from dvorak_engine.events import Event
from dvorak_engine.player_decks import player_deck_summary, read_player_deck
from dvorak_engine.rng import Rng
from dvorak_engine.ruleset import (
    COUNT,
    PUBLIC,
    CommandContext,
    Ruleset,
    Unfolding,
    applies,
    card_data_refusal,
    choose,
    command,
)
from dvorak_engine.rulesets.filibuster import bodies as declared
from dvorak_engine.rulesets.filibuster.cards import (
    CAMPAIGN,
    CONSTANT,
    GAMBIT,
    card_problems,
    carried_out_by_players,
    effect_of,
    value_of,
)
from dvorak_engine.rulesets.filibuster.options import (
    EACH,
    SIDES,
    dice_of,
    filibusters_of,
    read_options,
    rules_shown,
    stamped,
)
from dvorak_engine.rulesets.filibuster.state import (
    BEGINNING,
    COUNTER,
    DIED,
    EFFECT,
    END,
    GAME_OVER,
    MAIN,
    PLAY_CAMPAIGN,
    PLAY_CONSTANT,
    RESPONSE,
    REVEAL,
    ROLL,
    STACK,
    WINDOW,
    Filibuster,
    FilibusterState,
    Player,
)
from dvorak_engine.state import ACTIVE, ELIMINATED, FINISHED, GameState
from dvorak_engine.values import replace
from dvorak_engine.visibility import COUNT_EACH, Seen

NAME = "filibuster"
STANDARD, CCG = "standard", "ccg"
# "The first player to get 200 points wins."
WINNING_POINTS = 200
# "All players draw 5 cards."
DRAW_EACH_CAMPAIGN = 5
# "End Step: The pitcher gains 10 points."
END_STEP_POINTS = 10
# "the filibuster fails and you lose 10 points"; "the former pitcher loses 20 points".
FAILED_FILIBUSTER_POINTS = -10
LOST_COUNTER_POINTS = -20

# How a filibuster ends (``filibuster.decided``'s ``outcome``).
FAILED, SUCCEEDED, NOT_COUNTERED, COUNTER_WON, COUNTER_LOST = (
    "failed", "succeeded", "not_countered", "counter_won", "counter_lost")


class _GameOver(Exception):
    """Someone reached 200 points: nothing more happens in the command."""


class _Unfolding(Unfolding):
    @property
    def table(self) -> FilibusterState:
        result: FilibusterState = self.state.table
        return result


def _public(*keys: str) -> dict[str, str]:
    return dict.fromkeys(keys, PUBLIC)


def standing(state: GameState | Seen, seat: int) -> bool:
    """Whether a seat is still in the game: not out of it since its clock ran out."""
    return state.seat(seat).status != ELIMINATED


def roll_order(seats: list[int], rng: Rng, dice: int) -> tuple[list[dict[str, Any]], list[list[dict[str, Any]]], list[int]]:
    """Every seat's ``dice`` six-sided dice, the rolls that broke ties (the tied seats roll again among
    themselves), and the seats from the highest total to the lowest: "Whoever's dice have the highest total face
    value is that campaign's pitcher", and the next-highest comes after."""

    def roll(seat: int) -> dict[str, Any]:
        faces = [rng.randbelow(SIDES) + 1 for _ in range(dice)]
        return {"seat": seat, "dice": faces, "total": sum(faces)}

    tiebreaks: list[list[dict[str, Any]]] = []

    def ordered(rolls: list[dict[str, Any]]) -> list[int]:
        order: list[int] = []
        for total in sorted({r["total"] for r in rolls}, reverse=True):
            tied = [r["seat"] for r in rolls if r["total"] == total]
            if len(tied) == 1:
                order += tied
            else:
                again = [roll(seat) for seat in tied]
                tiebreaks.append(again)
                order += ordered(again)
        return order

    first = [roll(seat) for seat in seats]
    order = ordered(first)
    return first, tiebreaks, order


class FilibusterRuleset(Ruleset):
    """Filibuster's procedure replaces the Basic Rules: no turns, no hand limit; campaigns of four steps."""

    name = NAME
    deck_title_phrases = ("filibuster",)
    # The deck's Special Rules this module carries out (by their opening words): see Ruleset.
    special_rules_carried = (
        'The first player to get 200 points wins. All players begin the game with 0 points.',
        'There are 3 types of card in Filibuster:',
        'At the top right-hand corner of every card is a box with a number in it.',
        'Filibuster gameplay is made up of rounds called campaigns.',
        'At the beginning of any step during a campaign except the roll step,',
        'Played by the rules of the Filibuster CCG set',
    )
    min_players = 2
    variants = (STANDARD, CCG)
    # "This is a CCG set": each player brings a player deck built from it, unless the game is created "standard".
    default_variant = CCG
    State = FilibusterState

    # --- the cards it needs -----------------------------------------------------------------------------------

    def card_problems(self, deck: dict[str, Any]) -> list[dict[str, Any]]:
        return card_problems(deck)

    # --- setup ------------------------------------------------------------------------------------------------

    def created(self, *, deck: dict[str, Any], variant: str, creative: bool, options: dict[str, Any], rng: Rng) -> dict[str, Any]:
        """The set copied in, and the game's options checked and written in full (``options.read_options``), so
        the game keeps them whatever the defaults become. Its player decks come with each join, so they are kept
        out of the game's options (which everyone sees); the creator of a ``ccg`` game brings theirs."""
        if creative:
            raise DomainError("Filibuster has no creative play.", code="invalid", details={"field": "creative"})
        if variant == CCG and options.get("player_deck") is None:
            raise DomainError(
                "A Filibuster game is played with player decks built from the set: give \"options.player_deck\", "
                "the id of one of your player decks, or create it with \"variant\": \"standard\" to play a copy "
                "of the whole set each.", code="invalid",
                details={"field": "options.player_deck", "variants": list(self.variants)})
        return {"deck": {"slug": deck.get("slug", ""), "title": deck.get("title", "")},
                "cards": [deck_card_content(card) for card in deck.get("cards", []) if isinstance(card, dict)],
                "options": read_options(options)}

    def creator_join(self, options: dict[str, Any]) -> dict[str, Any]:
        join = {"team": options.get("team")}
        if "player_deck" in options:
            join["player_deck"] = options["player_deck"]
        return join

    def joined(self, state: GameState, *, seat: int, team: str | None, body: dict[str, Any], rng: Rng) -> dict[str, Any]:
        """Each player's own deck: in a ``ccg`` game the player deck they bring, built from the set; in a
        ``standard`` game a copy of the whole set."""
        table = state.table
        if table.variant == CCG:
            if body.get("player_deck") is None:
                raise DomainError("This Filibuster game is played with player decks: join it with \"player_deck\", "
                                  "the id of one of your player decks built from the set "
                                  f"{table.deck.get('slug', '')!r}.", code="invalid",
                                  details={"field": "player_deck"})
            player_deck = read_player_deck(body.get("player_deck"), card_set=str(table.deck.get("slug", "")))
            problems = card_problems(player_deck)
            if problems:
                raise card_data_refusal(self, problems)
            return {"player_deck": player_deck_summary(player_deck),
                    "cards": copy_deck_cards(player_deck, rng, set(table.cards))}
        if body.get("player_deck") is not None:
            raise DomainError("A player deck is brought to a \"ccg\" game; in this one everyone plays a copy of "
                              "the set.", code="invalid", details={"field": "player_deck"})
        return {"cards": copy_deck_cards({"cards": list(table.deck_cards)}, rng, set(table.cards))}

    def setup(self, state: GameState, rng: Rng) -> list[Event]:
        """Every player begins with 0 points and their own deck, shuffled; then the first campaign."""
        table = state.table
        empty = [player.seat for player in table.players if not player.draw_pile]
        if empty:
            raise DomainError("Every player needs a deck with cards in it.", code="not_enough_cards",
                              details={"seats": empty})
        if not any(card.type == CAMPAIGN for card in table.cards.values()):
            raise DomainError("Nobody's deck holds a Campaign Card: no campaign could ever start.",
                              code="not_enough_cards", details={"campaigns": 0})
        return self._run(state, rng, self._start)

    def _start(self, u: _Unfolding) -> None:
        u.add("filibuster.started", {"seats": [seat.seat for seat in u.state.seats]})
        self._begin_campaign(u)

    # --- running a command ------------------------------------------------------------------------------------

    def _run(self, state: GameState, rng: Rng, step: Callable[[_Unfolding], None]) -> list[Event]:
        u = _Unfolding(self, state, rng)
        try:
            step(u)
        except _GameOver:
            pass
        return u.events

    # --- the campaign -----------------------------------------------------------------------------------------

    def _begin_campaign(self, u: _Unfolding) -> None:
        """"Roll Step: All players roll their dice. Whoever's dice have the highest total face value is that
        campaign's pitcher. All players draw 5 cards.\""""
        u.add("filibuster.campaign_began", {"campaign": u.table.campaign + 1})
        # A player out of the game (their clock ran out) neither rolls nor draws.
        seats = [p.seat for p in u.table.players if standing(u.state, p.seat)]
        rolls, tiebreaks, order = roll_order(seats, u.rng, dice_of(u.state.options))
        u.add("filibuster.rolled", {"rolls": rolls, "tiebreaks": tiebreaks, "order": order})
        for seat in seats:
            self._draw(u, seat, DRAW_EACH_CAMPAIGN)
        self._begin_step(u, BEGINNING)

    def _draw(self, u: _Unfolding, seat: int, count: int) -> None:
        """Draw from the player's own deck; an empty deck is first refilled by shuffling their discard pile."""
        while count > 0:
            player = u.table.player(seat)
            if not player.draw_pile:
                if not player.discard_pile:
                    return
                pile = list(player.discard_pile)
                u.rng.shuffle(pile)
                u.add("filibuster.reshuffled", {"seat": seat, "draw_pile": pile})
                continue
            drawn = list(u.table.player(seat).draw_pile[:count])
            u.add("filibuster.drew", {"seat": seat, "cards": drawn, "count": len(drawn)})
            count -= len(drawn)

    def _may_filibuster(self, state: GameState) -> list[int]:
        """"if you are not the pitcher, you can filibuster the pitcher": each non-pitcher still in the game with a
        card to reveal, while the pitcher has one too."""
        table = state.table
        if table.pitcher is None or not table.player(table.pitcher).hand:
            return []
        return [p.seat for p in table.players if p.seat != table.pitcher and p.hand and standing(state, p.seat)]

    def _begin_step(self, u: _Unfolding, step: str) -> None:
        """"At the beginning of any step during a campaign except the roll step", the non-pitchers are asked
        whether they filibuster."""
        window = self._may_filibuster(u.state)
        u.add("filibuster.step_began", {"step": step, "window": window})
        if not window:
            self._after_window(u)

    def _after_window(self, u: _Unfolding) -> None:
        step = u.table.step
        if step == BEGINNING:
            self._owe_campaign(u)
        elif step == MAIN:
            # "Main Step: The pitcher can then stack a Gambit on top of the Campaign Card, if able."
            u.add("filibuster.stack_opened", {"step": MAIN, "priority": u.table.pitcher, "by": None})
        else:
            self._end_campaign(u)

    def _owe_campaign(self, u: _Unfolding) -> None:
        """"The pitcher must play a Campaign Card if able. If he or she can't play a Campaign Card, the player with
        the next-highest dice value must play a Campaign Card if able and become the new pitcher. If no players can
        play a Campaign Card, the campaign dies and all players shuffle their hands into their decks and start a
        new campaign.\""""
        table = u.table
        pitcher = table.current_pitcher()
        candidates = [pitcher, *(seat for seat in table.order if seat != pitcher)]
        for seat in (seat for seat in candidates if standing(u.state, seat)):
            if any(table.kind(card) == CAMPAIGN for card in table.player(seat).hand):
                u.add("filibuster.awaiting", {"phase": PLAY_CAMPAIGN, "seat": seat})
                return
        piles = {}
        for player in table.players:
            pile = [*player.hand, *player.draw_pile, *player.discard_pile]
            u.rng.shuffle(pile)
            piles[str(player.seat)] = pile
        u.add("filibuster.campaign_died", {"campaign": table.campaign, "draw_piles": piles})

    def _end_campaign(self, u: _Unfolding) -> None:
        """"End Step: The pitcher gains 10 points. A new campaign begins.\""""
        self._score(u, u.table.current_pitcher(), END_STEP_POINTS, reason="end_step")
        u.add("filibuster.campaign_ended", {"campaign": u.table.campaign, "card": u.table.campaign_card})
        self._begin_campaign(u)

    # --- points -----------------------------------------------------------------------------------------------

    def _score(self, u: _Unfolding, seat: int, delta: int, *, reason: str, cause: str | None = None) -> None:
        """"There are no "negative points" -- if a player would have less than 0 points for any reason, his or her
        point total would simply stay at 0." "The first player to get 200 points wins.\""""
        if not standing(u.state, seat):  # the points of a player out of the game change no more
            return
        before = u.table.player(seat).points
        after = max(0, before + delta)
        u.add("filibuster.scored", {"seat": seat, "delta": after - before, "points": after, "reason": reason,
                                    "cause": cause})
        if after >= WINNING_POINTS:
            u.add("filibuster.finished", {"winners": [seat]})
            raise _GameOver

    # --- card effects -----------------------------------------------------------------------------------------

    def _apply_effect(self, u: _Unfolding, seat: int, card: str, aims: dict[str, Any]) -> None:
        """The simple effect a card carries in ``stats`` (points, draw, destroy a Constant), applied by the engine;
        anything else its text says is carried out by effect moves naming it."""
        effect = effect_of(u.table.cards[card])
        if effect.points:
            self._score(u, seat, effect.points, reason="effect", cause=card)
        if effect.target_points and aims.get("target") is not None:
            self._score(u, aims["target"], effect.target_points, reason="effect", cause=card)
        if effect.draw:
            self._draw(u, seat, effect.draw)
        if effect.destroy_constant and aims.get("destroy") in self._constants_in_play(u.table):
            self._destroy(u, aims["destroy"], cause=card)

    def _destroy(self, u: _Unfolding, card: str, *, cause: str) -> None:
        u.add("filibuster.destroyed", {"card": card, "seat": u.table.owners[card], "cause": cause})

    @staticmethod
    def _constants_in_play(table: FilibusterState) -> list[str]:
        return [card for player in table.players for card in player.constants]

    def _aims(self, state: GameState, card: str, body: dict[str, Any]) -> dict[str, Any]:
        """What a played card names: the player it gives or takes points (``target``), the Constant it destroys
        (``destroy``, when there is one in play). A card without that effect names nothing."""
        table = state.table
        effect = effect_of(table.cards[card])
        aims: dict[str, Any] = {}
        target = body.get("target")
        if effect.needs_target:
            if target is None or target >= len(table.players):  # its kind is declared (``bodies.PLAY``)
                raise DomainError("This card gives or takes points: \"target\" names the seat it is played on.",
                                  code="invalid", details={"field": "target"})
            if not standing(state, target):
                raise DomainError("That player is out of the game.", code="denied", details={"field": "target"})
            aims["target"] = target
        elif target is not None:
            raise DomainError("This card is not played on a player.", code="invalid", details={"field": "target"})
        destroy = body.get("destroy")
        constants = self._constants_in_play(table)
        if effect.destroy_constant and constants:
            if destroy not in constants:
                raise DomainError("This card destroys a Constant: \"destroy\" names one in play.", code="invalid",
                                  details={"field": "destroy"})
            aims["destroy"] = destroy
        elif destroy is not None:
            raise DomainError("This card has no Constant to destroy.", code="invalid", details={"field": "destroy"})
        return aims

    # --- checks -----------------------------------------------------------------------------------------------

    @staticmethod
    def _require_phase(table: FilibusterState, *phases: str) -> None:
        if table.phase not in phases:
            raise DomainError(f"Not now: the game is at {table.phase!r}.", code="wrong_stage",
                              details={"phase": table.phase})

    @staticmethod
    def _require_acting(seat: int, acting: int | None) -> None:
        if seat != acting:
            raise DomainError("It is not yours to do now.", code="not_your_turn")

    @staticmethod
    def _card_in_hand(table: FilibusterState, seat: int, body: dict[str, Any], name: str = "card") -> str:
        card: str = body[name]
        if card not in table.player(seat).hand:
            raise DomainError("That card is not in your hand.", code="card_not_in_hand")
        return card

    # --- commands: filibusters --------------------------------------------------------------------------------

    @command("filibuster", body=declared.FILIBUSTER)
    def filibuster(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        """"During a filibuster, you and the pitcher simultaneously reveal a card from your respective hands": each
        chooses in secret (``reveal_card``), and both are shown together."""
        table = state.table
        self._require_phase(table, WINDOW)
        if ctx.player_seat not in table.window:
            raise DomainError("Only a player who is not the pitcher, and has not answered yet, may filibuster.",
                              code="not_your_turn")
        data = {"seat": ctx.player_seat, "pitcher": table.pitcher}
        if filibusters_of(state.options) == EACH:
            # The window waits, for the others still to answer, until this filibuster is settled.
            data["window"] = [seat for seat in table.window if seat != ctx.player_seat]
        return [Event("filibuster.declared", data), self.request_choices([ctx.player_seat, table.pitcher])]

    @command("reveal_card", body=declared.REVEAL_CARD)
    def reveal(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        self._require_phase(state.table, REVEAL)
        card = self._card_in_hand(state.table, ctx.player_seat, command_body)
        return self.choose(state, ctx, card)

    def revealed(self, state: GameState, choices: dict[int, Any], ctx: CommandContext) -> list[Event]:
        """"If your card's value is equal to or lesser than the pitcher's card's value, the filibuster fails and
        you lose 10 points and must discard the card you filibustered with. However, if your card's value is
        higher than the pitcher's card's value, the filibuster succeeds -- you become the pitcher for the remainder
        of the campaign and both you and the former pitcher must discard the cards you filibustered with.\""""

        def settle(u: _Unfolding) -> None:
            filibuster = u.table.pending_filibuster()
            mine, theirs = choices[filibuster.seat], choices[filibuster.pitcher]
            u.add("filibuster.revealed", {"cards": [{"seat": filibuster.seat, "card": mine},
                                                    {"seat": filibuster.pitcher, "card": theirs}]})
            if u.table.value(mine) <= u.table.value(theirs):
                u.add("filibuster.decided", {"outcome": FAILED, "pitcher": filibuster.pitcher, "discarded": [mine],
                                             "returned": [theirs]})
                self._score(u, filibuster.seat, FAILED_FILIBUSTER_POINTS, reason="filibuster_failed")
                self._settled(u, filibuster.pitcher)
                return
            u.add("filibuster.decided", {"outcome": SUCCEEDED, "pitcher": filibuster.seat,
                                         "discarded": [mine, theirs], "returned": [], "to_beat": u.table.value(mine)})
            if u.table.player(filibuster.pitcher).hand:
                u.add("filibuster.awaiting", {"phase": COUNTER, "seat": filibuster.pitcher})
            else:
                self._decide(u, NOT_COUNTERED, filibuster.seat)

        return self._run(state, ctx.rng, settle)

    def _decide(self, u: _Unfolding, outcome: str, pitcher: int, discarded: tuple[str, ...] = (),
                returned: tuple[str, ...] = ()) -> None:
        against = u.table.pending_filibuster().pitcher
        u.add("filibuster.decided", {"outcome": outcome, "pitcher": pitcher, "discarded": list(discarded),
                                     "returned": list(returned)})
        self._settled(u, against)

    def _settled(self, u: _Unfolding, against: int) -> None:
        """A filibuster made against ``against`` is over. "If you are not the pitcher, you can filibuster the
        pitcher": with ``options.filibusters`` "each", every non-pitcher may do so once a step, so the window goes
        on (``_window_after``) before the step does; with "one", the step goes on."""
        if filibusters_of(u.state.options) == EACH:
            window = self._window_after(u.state, against)
            if window:
                u.add("filibuster.window_reopened", {"step": u.table.step, "window": window})
                return
        self._after_window(u)

    def _window_after(self, state: GameState, against: int) -> list[int]:
        """The seats asked again after a filibuster: those who may filibuster the pitcher now and have not
        filibustered in this step; when the pitch stayed where it was, only those who had not answered yet (a
        pass declined to filibuster this pitcher), and when it changed hands, all of them (the pitcher is
        another)."""
        table = state.table
        able = [seat for seat in self._may_filibuster(state) if seat not in table.filibustered]
        if table.pitcher == against:
            return [seat for seat in able if seat in table.window]
        return able

    @command("counter_filibuster", body=declared.COUNTER_FILIBUSTER)
    def counter(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        """"The former pitcher can counter a successful filibuster by revealing another card with a higher value
        than the card you just played. You may respond to this counter by also revealing a second card.\""""
        table = state.table
        self._require_phase(table, COUNTER)
        self._require_acting(ctx.player_seat, table.acting)
        card = self._card_in_hand(table, ctx.player_seat, command_body)
        if table.value(card) <= table.filibuster.to_beat:
            raise DomainError(f"A counter reveals a card of a higher value than {table.filibuster.to_beat}.",
                              code="denied", details={"to_beat": table.filibuster.to_beat})

        def countered(u: _Unfolding) -> None:
            u.add("filibuster.countered", {"seat": ctx.player_seat, "card": card})
            filibusterer = u.table.pending_filibuster().seat
            if u.table.player(filibusterer).hand:
                u.add("filibuster.awaiting", {"phase": RESPONSE, "seat": filibusterer})
            else:
                self._decide(u, COUNTER_WON, ctx.player_seat, returned=(card,))

        return self._run(state, ctx.rng, countered)

    @command("respond", body=declared.RESPOND)
    def respond(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        """"If your card's value is equal to or lesser than the pitcher's card's value, the former pitcher becomes
        the pitcher again and you must discard both cards you filibustered with. However, if your card's value is
        higher than the pitcher's card's value, you remain the pitcher and the former pitcher loses 20 points. Both
        of you must discard the cards you used to filibuster with.\""""
        table = state.table
        self._require_phase(table, RESPONSE)
        self._require_acting(ctx.player_seat, table.acting)
        card = self._card_in_hand(table, ctx.player_seat, command_body)

        def responded(u: _Unfolding) -> None:
            u.add("filibuster.responded", {"seat": ctx.player_seat, "card": card})
            filibuster = u.table.pending_filibuster()
            counter = filibuster.countered_with()
            if u.table.value(card) > u.table.value(counter):
                u.add("filibuster.decided", {"outcome": COUNTER_LOST, "pitcher": ctx.player_seat,
                                             "discarded": [counter, card], "returned": []})
                self._score(u, filibuster.pitcher, LOST_COUNTER_POINTS, reason="counter_lost")
                self._settled(u, filibuster.pitcher)
            else:
                self._decide(u, COUNTER_WON, filibuster.pitcher, discarded=(card,), returned=(counter,))

        return self._run(state, ctx.rng, responded)

    # --- commands: playing cards ------------------------------------------------------------------------------

    @command("play", body=declared.PLAY)
    def play(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        """A Campaign (the seat that must play one), a Constant (the pitcher, once the Campaign is played) or a
        Gambit (the seat whose turn it is to stack)."""
        table = state.table
        self._require_phase(table, PLAY_CAMPAIGN, PLAY_CONSTANT, STACK)
        self._require_acting(ctx.player_seat, table.priority if table.phase == STACK else table.acting)
        card = self._card_in_hand(table, ctx.player_seat, command_body)
        wanted = {PLAY_CAMPAIGN: CAMPAIGN, PLAY_CONSTANT: CONSTANT, STACK: GAMBIT}[table.phase]
        if table.kind(card) != wanted:
            raise DomainError(f"Now a {wanted} is played, and that card is a {table.kind(card)}.", code="denied",
                              details={"type": wanted})
        aims = self._aims(state, card, command_body)
        return self._run(state, ctx.rng, lambda u: self._played(u, ctx.player_seat, card, aims))

    def _played(self, u: _Unfolding, seat: int, card: str, aims: dict[str, Any]) -> None:
        kind = u.table.kind(card)
        if kind == GAMBIT:
            self._stack(u, seat, card, aims)
            return
        u.add("filibuster.played", {"seat": seat, "card": card, "kind": kind, **aims})
        self._apply_effect(u, seat, card, aims)
        if kind == CAMPAIGN:
            # "Once a Campaign Card is played, the pitcher can play one Constant."
            if u.table.player(seat).hand:
                u.add("filibuster.awaiting", {"phase": PLAY_CONSTANT, "seat": seat})
            else:
                self._begin_step(u, MAIN)
        else:
            # "Gambits can be played in response to Constants."
            u.add("filibuster.stack_opened", {"step": BEGINNING, "priority": None, "by": seat})
            self._pass_priority(u, seat)

    def _stack(self, u: _Unfolding, seat: int, card: str, aims: dict[str, Any]) -> None:
        """"A Gambit can only be stacked upon a Gambit of equal or lesser value. Otherwise the Gambit fizzles --
        gets destroyed immediately without taking effect.\""""
        stack = u.table.stack
        if stack and u.table.value(card) < u.table.value(stack[-1]):
            u.add("filibuster.fizzled", {"seat": seat, "card": card, "on": stack[-1]})
        else:
            u.add("filibuster.played", {"seat": seat, "card": card, "kind": GAMBIT, **aims})
        self._pass_priority(u, seat)

    def _pass_priority(self, u: _Unfolding, after: int) -> None:
        """"In response to a Gambit being played, any player can stack a Gambit of their own": the turn to stack
        goes round the table from the seat after ``after``; once everyone but the last to stack has passed (or has
        no card left), "their effects are resolved from the top down".\""""
        table = u.table
        count = len(table.players)
        for step in range(1, count + 1):
            seat = (after + step) % count
            if seat != table.last_stacker and seat not in table.passed and table.player(seat).hand \
                    and standing(u.state, seat):
                u.add("filibuster.priority", {"seat": seat})
                return
        self._resolve_stack(u)

    def _resolve_stack(self, u: _Unfolding) -> None:
        """"Once all Gambits have been stacked, their effects are resolved from the top down. After resolving,
        Gambits are destroyed (sent to the discard pile)." Then the step the stack belonged to ends. A Gambit whose
        effect is its text alone waits on top for its player to carry it out (effect moves naming it) and
        ``resolve`` it."""
        while u.table.stack:
            card = u.table.stack[-1]
            seat = u.table.owners[card]
            if not standing(u.state, seat):  # its player is out of the game: it is destroyed without effect
                u.add("filibuster.resolved", {"seat": seat, "card": card})
                continue
            if carried_out_by_players(u.table.cards[card]):
                u.add("filibuster.awaiting", {"phase": EFFECT, "seat": seat})
                return
            self._apply_effect(u, seat, card, u.table.aims.get(card, {}))
            u.add("filibuster.resolved", {"seat": seat, "card": card})
        self._begin_step(u, MAIN if u.table.step == BEGINNING else END)

    @command("resolve", body=declared.RESOLVE)
    def resolve(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        """The top Gambit's text has been carried out: it is destroyed, and the stack resolves on."""
        table = state.table
        self._require_phase(table, EFFECT)
        self._require_acting(ctx.player_seat, table.acting)

        def resolved(u: _Unfolding) -> None:
            u.add("filibuster.resolved", {"seat": ctx.player_seat, "card": u.table.stack[-1]})
            self._resolve_stack(u)

        return self._run(state, ctx.rng, resolved)

    @command("pass", body=declared.PASS)
    def pass_(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        """Decline: to filibuster (in a window), to counter, to respond, to play a Constant, to stack a Gambit."""
        table = state.table
        self._require_phase(table, WINDOW, COUNTER, RESPONSE, PLAY_CONSTANT, STACK)
        phase = table.phase
        if phase == WINDOW:
            if ctx.player_seat not in table.window:
                raise DomainError("You are not asked whether you filibuster.", code="not_your_turn")
        else:
            self._require_acting(ctx.player_seat, table.priority if phase == STACK else table.acting)
        return self._run(state, ctx.rng, lambda u: self._passed(u, ctx.player_seat, phase))

    def _passed(self, u: _Unfolding, seat: int, phase: str) -> None:
        u.add("filibuster.passed", {"seat": seat, "phase": phase})
        table = u.table
        if phase == WINDOW:
            if not table.window:
                self._after_window(u)
        elif phase == COUNTER:
            self._decide(u, NOT_COUNTERED, table.pending_filibuster().seat)
        elif phase == RESPONSE:
            filibuster = table.pending_filibuster()
            self._decide(u, COUNTER_WON, filibuster.pitcher, returned=(filibuster.countered_with(),))
        elif phase == PLAY_CONSTANT:
            self._begin_step(u, MAIN)
        elif table.last_stacker is None:
            # The pitcher stacks no Gambit: the Main Step is over.
            self._begin_step(u, END)
        else:
            self._pass_priority(u, seat)

    @command("roll_dice", body=declared.ROLL_DICE)
    def roll(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        """After a campaign died: any player rolls, and the next campaign begins."""
        self._require_phase(state.table, DIED)
        return self._run(state, ctx.rng, self._begin_campaign)

    # --- commands: effect moves -------------------------------------------------------------------------------

    def _causes(self, table: FilibusterState, seat: int) -> set[str]:
        """The cards whose text a player may carry out now: their Campaign in play, their Constants, their
        Gambits on the stack."""
        mine = {card for card in table.stack if table.owners[card] == seat}
        mine.update(table.player(seat).constants)
        if table.campaign_card is not None and table.owners[table.campaign_card] == seat:
            mine.add(table.campaign_card)
        return mine

    def _cause(self, table: FilibusterState, seat: int, body: dict[str, Any]) -> str:
        cause = body.get("cause")
        if not isinstance(cause, str) or cause not in self._causes(table, seat):
            raise DomainError("\"cause\" names the card whose text you carry out: your Campaign or Constant in play, "
                              "or your Gambit on the stack.", code="invalid", details={"field": "cause"})
        return cause


    @command("score", body=declared.SCORE)
    def score(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        """Points to (or from) a player, as the text of the card named in ``cause`` says."""
        table = state.table
        cause = self._cause(table, ctx.player_seat, command_body)
        seat, points = command_body["seat"], command_body["points"]
        if seat >= len(table.players):
            raise DomainError(f"\"seat\" is a whole number from 0 to {len(table.players) - 1}.", code="invalid",
                              details={"field": "seat"})
        if not standing(state, seat):
            raise DomainError("That player is out of the game.", code="denied", details={"field": "seat"})
        return self._run(state, ctx.rng, lambda u: self._score(u, seat, points, reason="effect", cause=cause))

    @command("draw", body=declared.DRAW)
    def draw(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        """Cards drawn from your own deck, as the text of the card named in ``cause`` says."""
        self._cause(state.table, ctx.player_seat, command_body)
        count = command_body["count"]
        return self._run(state, ctx.rng, lambda u: self._draw(u, ctx.player_seat, count))

    @command("destroy", body=declared.DESTROY)
    def destroy(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        """A Constant destroyed, as the text of the card named in ``cause`` says: "They stay in play for the
        duration of the game or until they are destroyed by another card.\""""
        table = state.table
        cause = self._cause(table, ctx.player_seat, command_body)
        card = command_body.get("card")
        if card not in self._constants_in_play(table):
            raise DomainError("\"card\" names a Constant in play.", code="invalid", details={"field": "card"})
        return self._run(state, ctx.rng, lambda u: self._destroy(u, card, cause=cause))

    # --- events -----------------------------------------------------------------------------------------------

    @applies("game.created", shows={"deck": PUBLIC, "cards": COUNT})
    def apply_game_created(self, state: GameState, event: Event) -> GameState:
        data = event.data
        return replace(state, table=FilibusterState(variant=data["variant"], deck=dict(data["deck"]),
                                                    deck_cards=tuple(data["cards"])))

    @applies("player.joined", shows={"player_deck": PUBLIC, "cards": COUNT})
    def apply_player_joined(self, state: GameState, event: Event) -> GameState:
        data = event.data
        table = state.table
        cards = cards_from_json(data["cards"])
        ids = [card["id"] for card in data["cards"]]
        player = Player(seat=data["seat"], draw_pile=tuple(ids), deck=data.get("player_deck"))
        return state.with_table(cards={**table.cards, **cards},
                                owners={**table.owners, **dict.fromkeys(ids, data["seat"])},
                                players=(*table.players, player))

    def left(self, state: GameState, seat: int) -> GameState:
        """A player leaves the open table: their player and their deck's cards go with them; the cards of later
        seats are owned by their new seat numbers."""
        state = super().left(state, seat)
        table = state.table
        gone = {card for card, owner in table.owners.items() if owner == seat}
        return state.with_table(
            cards={card_id: card for card_id, card in table.cards.items() if card_id not in gone},
            owners={card: owner - 1 if owner > seat else owner
                    for card, owner in table.owners.items() if card not in gone})

    @applies("filibuster.started", shows=_public("seats"))
    def apply_started(self, state: GameState, event: Event) -> GameState:
        return replace(state, status=ACTIVE)

    @applies("filibuster.campaign_began", shows=_public("campaign"))
    def apply_campaign_began(self, state: GameState, event: Event) -> GameState:
        return state.with_table(campaign=event.data["campaign"], step=ROLL, phase=None, acting=None, pitcher=None,
                                campaign_card=None, stack=(), aims={}, priority=None, passed=(),
                                last_stacker=None, window=(), filibuster=None, rolls=(), order=())

    @applies("filibuster.rolled", shows=_public("rolls", "tiebreaks", "order"))
    def apply_rolled(self, state: GameState, event: Event) -> GameState:
        order = tuple(event.data["order"])
        return state.with_table(rolls=tuple(event.data["rolls"]), order=order, pitcher=order[0])

    @applies("filibuster.drew", shows=_public("seat", "cards", "count"))
    def apply_drew(self, state: GameState, event: Event) -> GameState:
        seat, cards = event.data["seat"], event.data["cards"]
        player = state.table.player(seat)
        return state.with_table(players=_with(state.table, seat, hand=(*player.hand, *cards),
                                              draw_pile=player.draw_pile[len(cards):]))

    @applies("filibuster.reshuffled", shows={"seat": PUBLIC, "draw_pile": COUNT})
    def apply_reshuffled(self, state: GameState, event: Event) -> GameState:
        seat = event.data["seat"]
        return state.with_table(players=_with(state.table, seat, draw_pile=tuple(event.data["draw_pile"]),
                                              discard_pile=()))

    @applies("filibuster.step_began", shows=_public("step", "window"))
    def apply_step_began(self, state: GameState, event: Event) -> GameState:
        window = tuple(event.data["window"])
        return state.with_table(step=event.data["step"], phase=WINDOW if window else None, window=window,
                                acting=None, priority=None, passed=(), last_stacker=None, filibustered=())

    @applies("filibuster.window_reopened", shows=_public("step", "window"))
    def apply_window_reopened(self, state: GameState, event: Event) -> GameState:
        return state.with_table(phase=WINDOW, window=tuple(event.data["window"]), acting=None)

    @applies("filibuster.awaiting", shows=_public("phase", "seat"))
    def apply_awaiting(self, state: GameState, event: Event) -> GameState:
        return state.with_table(phase=event.data["phase"], acting=event.data["seat"])

    @applies("filibuster.passed", shows=_public("seat", "phase"))
    def apply_passed(self, state: GameState, event: Event) -> GameState:
        table, seat = state.table, event.data["seat"]
        if event.data["phase"] == WINDOW:
            return state.with_table(window=tuple(s for s in table.window if s != seat))
        if event.data["phase"] == STACK:
            return state.with_table(passed=(*table.passed, seat))
        return state

    @applies("filibuster.declared", shows=_public("seat", "pitcher", "window"))
    def apply_declared(self, state: GameState, event: Event) -> GameState:
        data = event.data
        filibuster = Filibuster(seat=data["seat"], pitcher=data["pitcher"])
        if "window" in data:  # a game of a filibuster each: the others still to answer wait for this one
            return state.with_table(phase=REVEAL, window=tuple(data["window"]), acting=None, filibuster=filibuster,
                                    filibustered=(*state.table.filibustered, data["seat"]))
        return state.with_table(phase=REVEAL, window=(), acting=None, filibuster=filibuster)

    @applies("filibuster.revealed", shows=_public("cards"))
    def apply_revealed(self, state: GameState, event: Event) -> GameState:
        shown = tuple((entry["seat"], entry["card"]) for entry in event.data["cards"])
        return state.with_table(filibuster=replace(state.table.filibuster, revealed=shown))

    @applies("filibuster.decided", shows=_public("outcome", "pitcher", "discarded", "returned", "to_beat"))
    def apply_decided(self, state: GameState, event: Event) -> GameState:
        data, table = event.data, state.table
        for card in data["discarded"]:
            table = _discard_from_hand(table, card)
        filibuster = None
        if data["outcome"] == SUCCEEDED:
            filibuster = replace(table.filibuster, revealed=(), to_beat=data["to_beat"])
        return state.with_table(players=table.players, pitcher=data["pitcher"], filibuster=filibuster, phase=None,
                                acting=None)

    @applies("filibuster.countered", shows=_public("seat", "card"))
    def apply_countered(self, state: GameState, event: Event) -> GameState:
        filibuster = state.table.filibuster
        card = event.data["card"]
        return state.with_table(filibuster=replace(filibuster, counter=card,
                                                   revealed=(*filibuster.revealed, (event.data["seat"], card))))

    @applies("filibuster.responded", shows=_public("seat", "card"))
    def apply_responded(self, state: GameState, event: Event) -> GameState:
        filibuster = state.table.filibuster
        return state.with_table(filibuster=replace(
            filibuster, revealed=(*filibuster.revealed, (event.data["seat"], event.data["card"]))))

    @applies("filibuster.played", shows=_public("seat", "card", "kind", "target", "destroy"))
    def apply_played(self, state: GameState, event: Event) -> GameState:
        data, table = event.data, state.table
        seat, card, kind = data["seat"], data["card"], data["kind"]
        player = table.player(seat)
        hand = tuple(c for c in player.hand if c != card)
        if kind == CAMPAIGN:
            return state.with_table(players=_with(table, seat, hand=hand), campaign_card=card, pitcher=seat,
                                    phase=None, acting=None)
        if kind == CONSTANT:
            return state.with_table(players=_with(table, seat, hand=hand, constants=(*player.constants, card)),
                                    phase=None, acting=None)
        aims = {key: data[key] for key in ("target", "destroy") if key in data}
        return state.with_table(players=_with(table, seat, hand=hand), stack=(*table.stack, card),
                                aims={**table.aims, card: aims}, last_stacker=seat, passed=())

    @applies("filibuster.fizzled", shows=_public("seat", "card", "on"))
    def apply_fizzled(self, state: GameState, event: Event) -> GameState:
        seat, card = event.data["seat"], event.data["card"]
        player = state.table.player(seat)
        return state.with_table(players=_with(state.table, seat, hand=tuple(c for c in player.hand if c != card),
                                              discard_pile=(*player.discard_pile, card)),
                                last_stacker=seat, passed=())

    @applies("filibuster.stack_opened", shows=_public("step", "priority", "by"))
    def apply_stack_opened(self, state: GameState, event: Event) -> GameState:
        return state.with_table(phase=STACK, acting=None, priority=event.data["priority"], passed=(),
                                last_stacker=event.data["by"])

    @applies("filibuster.priority", shows=_public("seat"))
    def apply_priority(self, state: GameState, event: Event) -> GameState:
        return state.with_table(priority=event.data["seat"])

    @applies("filibuster.resolved", shows=_public("seat", "card"))
    def apply_resolved(self, state: GameState, event: Event) -> GameState:
        table, card = state.table, event.data["card"]
        owner = table.player(table.owners[card])
        return state.with_table(stack=tuple(c for c in table.stack if c != card), phase=STACK, acting=None,
                                players=_with(table, owner.seat, discard_pile=(*owner.discard_pile, card)))

    @applies("filibuster.destroyed", shows=_public("card", "seat", "cause"))
    def apply_destroyed(self, state: GameState, event: Event) -> GameState:
        table, card = state.table, event.data["card"]
        owner = table.player(table.owners[card])
        return state.with_table(players=_with(table, owner.seat, constants=tuple(c for c in owner.constants
                                                                                 if c != card),
                                              discard_pile=(*owner.discard_pile, card)))

    @applies("filibuster.scored", shows=_public("seat", "delta", "points", "reason", "cause"))
    def apply_scored(self, state: GameState, event: Event) -> GameState:
        return state.with_table(players=_with(state.table, event.data["seat"], points=event.data["points"]))

    @applies("filibuster.campaign_died", shows={"campaign": PUBLIC, "draw_piles": COUNT_EACH})
    def apply_campaign_died(self, state: GameState, event: Event) -> GameState:
        table = state.table
        players = tuple(replace(p, hand=(), discard_pile=(), draw_pile=tuple(event.data["draw_piles"][str(p.seat)]))
                        for p in table.players)
        return state.with_table(players=players, phase=DIED, acting=None)

    @applies("filibuster.campaign_ended", shows=_public("campaign", "card"))
    def apply_campaign_ended(self, state: GameState, event: Event) -> GameState:
        table, card = state.table, event.data["card"]
        owner = table.player(table.owners[card])
        return state.with_table(players=_with(table, owner.seat, discard_pile=(*owner.discard_pile, card)),
                                campaign_card=None, aims={})

    @applies("filibuster.finished", shows=_public("winners"))
    def apply_finished(self, state: GameState, event: Event) -> GameState:
        winners = tuple(event.data["winners"])
        state = state.with_table(phase=GAME_OVER, acting=None, priority=None, window=(), winners=winners)
        return replace(state, status=FINISHED, winners=winners, choosing=(), choices={})

    @applies("filibuster.dropped", shows=_public("seat", "against", "pitcher"))
    def apply_dropped(self, state: GameState, event: Event) -> GameState:
        """A filibuster ended unrevealed, one of its two players out of the game: the secret choices are
        forgotten (each card stays in its holder's hand), and the pitch is ``pitcher``'s."""
        state = state.with_table(filibuster=None, phase=None, acting=None, pitcher=event.data["pitcher"])
        return replace(state, choosing=(), choices={})

    @applies("filibuster.pitch_passed", shows=_public("from", "to"))
    def apply_pitch_passed(self, state: GameState, event: Event) -> GameState:
        return state.with_table(pitcher=event.data["to"])

    @applies("game.won_on_time")
    def apply_won_on_time(self, state: GameState, event: Event) -> GameState:
        """The game ended by the clock (the core set its status and winners): over, as after 200 points."""
        state = state.with_table(phase=GAME_OVER, acting=None, priority=None, window=(),
                                 winners=tuple(event.data["winners"]))
        return replace(state, choosing=(), choices={})

    # --- live tables: clocks, undo, computer players -----------------------------------------------------------

    # What shows a seat something it could not see: the cards it draws, the dice every campaign rolls, and the two
    # cards of a filibuster turned up together (after the core's reveal of the secret choices).
    reveals = frozenset({"filibuster.drew", "filibuster.rolled", "filibuster.revealed"})

    def awaited(self, state: GameState) -> tuple[int, ...]:
        """The seats the game waits for (``waiting_for``: a filibuster window's seats still to answer, the two
        seats of a reveal that have not chosen, the seat to stack or pass, the seat to play a Campaign, a
        Constant, a counter or a response, or to resolve a Gambit); after a campaign died, any player may roll,
        and the clock waits on the first in the last dice's order still in the game."""
        if state.status != ACTIVE:
            return ()
        table = state.table
        if table.phase == DIED:
            first = next((seat for seat in (*table.order, *range(len(state.seats))) if standing(state, seat)), None)
            return () if first is None else (first,)
        return tuple(seat for seat in waiting_for(state) if seat is not None and standing(state, seat))

    def timed_out(self, state: GameState, seats: list[int], ctx: CommandContext) -> list[Event]:
        """The game goes on without the seats whose time ran out (``_go_on_without``). With one side left the core
        ends the game."""
        if len(clock.sides_standing(state)) <= 1:
            return []
        return self._run(state, ctx.rng, lambda u: self._go_on_without(u, set(seats)))

    def _go_on_without(self, u: _Unfolding, out: set[int]) -> None:
        """What each phase does when the seat it waits for is out of the game: a filibuster window's seat passes;
        a filibuster whose filibusterer or pitcher is out ends unrevealed (``filibuster.dropped``; the pitch stays
        with the pitcher, or goes to the filibusterer when the pitcher is out); a counter or a response not made
        is passed; a Constant not played and a Gambit not stacked are passed; a Gambit waiting for its player's
        text is destroyed without effect; a Campaign not played falls to the next in the dice's order who holds
        one (else the campaign dies). A pitcher out of the game hands the pitch to the first in the dice's order
        still in it (``filibuster.pitch_passed``) before the step goes on. A player out of the game rolls, draws,
        is asked and stacks no more, and their points no longer change."""
        table = u.table
        phase = table.phase
        if phase == WINDOW:
            for seat in table.window:
                if seat in out:
                    u.add("filibuster.passed", {"seat": seat, "phase": WINDOW})
            if not u.table.window:
                self._after_window(u)
        elif phase == REVEAL:
            filibuster = table.pending_filibuster()
            if out & {filibuster.seat, filibuster.pitcher}:
                pitcher = filibuster.seat if filibuster.pitcher in out and filibuster.seat not in out \
                    else filibuster.pitcher
                u.add("filibuster.dropped", {"seat": filibuster.seat, "against": filibuster.pitcher,
                                             "pitcher": pitcher})
                self._pass_pitch(u)
                self._settled(u, filibuster.pitcher)
        elif phase in (COUNTER, RESPONSE):
            if table.acting in out:
                self._passed(u, table.acting, phase)
        elif phase == PLAY_CONSTANT:
            if table.acting in out:
                u.add("filibuster.passed", {"seat": table.acting, "phase": PLAY_CONSTANT})
                self._pass_pitch(u)
                self._begin_step(u, MAIN)
        elif phase == STACK:
            if table.priority in out:
                seat = table.priority
                u.add("filibuster.passed", {"seat": seat, "phase": STACK})
                self._pass_pitch(u)
                if u.table.last_stacker is None:
                    self._begin_step(u, END)  # the pitcher stacked no Gambit: the Main Step is over
                else:
                    self._pass_priority(u, seat)
        elif phase == EFFECT:
            if table.acting in out:
                self._pass_pitch(u)
                u.add("filibuster.resolved", {"seat": table.acting, "card": table.stack[-1]})
                self._resolve_stack(u)
        elif phase == PLAY_CAMPAIGN:
            if table.acting in out:
                self._pass_pitch(u)
                self._owe_campaign(u)

    def _pass_pitch(self, u: _Unfolding) -> None:
        """"the player with the next-highest dice value": a pitcher out of the game hands the pitch to the first
        seat in the campaign's dice order still in it."""
        pitcher = u.table.pitcher
        if pitcher is None or standing(u.state, pitcher):
            return
        following = next((seat for seat in u.table.order if standing(u.state, seat)), None)
        if following is not None:
            u.add("filibuster.pitch_passed", {"from": pitcher, "to": following})

    def evaluate(self, view: dict[str, Any], seat: int) -> float:
        """How far ``seat`` is ahead of its best opponent still in the game in points (the race to 200), with a
        little for what may bring points: two for each card in hand, five for each of its Constants in play, and
        five for holding the pitch (the End Step's ten points)."""
        players = [p for p in view.get("players", ()) if p.get("status") != ELIMINATED]
        me = next((p for p in players if p.get("seat") == seat), None)
        others = [p["counters"]["points"] for p in players if p.get("seat") != seat]
        if me is None or not others:
            return 0.0
        value = me["counters"]["points"] - max(others) + 2 * me.get("hand_count", 0) + 5 * len(me.get("constants", ()))
        board = view.get("board") or {}
        if board.get("pitcher") == seat:
            value += 5
        return float(value)

    # --- views ------------------------------------------------------------------------------------------------

    def shown(self, state: Seen, viewer: int | None) -> dict[str, Any]:
        """The envelope's players, each with their points (``counters.points``), their hand's size, their draw
        pile's count, their discard pile and Constants face up, and their hand only for themselves; the
        ``board``: where the campaign stands, ``null`` until the game starts."""
        table = state.table

        def card(card_id: str | None) -> dict[str, Any] | None:
            return None if card_id is None else _card_view(table.cards[card_id])

        players = []
        for seat in state.seats:
            player = table.player(seat.seat) if seat.seat < len(table.players) else Player(seat=seat.seat)
            shown = {"seat": seat.seat, "username": seat.username, "team": seat.team, "status": seat.status,
                     "counters": {"points": player.points}, "hand_count": player.hand_count(),
                     "draw_pile": {"count": len(player.draw_pile)},
                     "discard_pile": [card(c) for c in player.discard_pile],
                     "constants": [card(c) for c in player.constants], "deck": player.deck}
            if seat.seat == viewer:
                shown["hand"] = [card(c) for c in player.hand]
            players.append(shown)
        board = None
        if table.step is not None:
            filibuster = table.filibuster
            board = {
                "campaign": table.campaign, "step": table.step, "phase": table.phase, "pitcher": table.pitcher,
                "rolls": table.rolls, "order": list(table.order),
                "campaign_card": card(table.campaign_card),
                "stack": [{**_card_view(table.cards[c]), "seat": table.owners[c], **table.aims.get(c, {})}
                          for c in table.stack],
                "priority": table.priority, "passed": list(table.passed), "window": list(table.window),
                "acting": table.acting,
                "filibuster": None if filibuster is None else {
                    "seat": filibuster.seat, "pitcher": filibuster.pitcher, "to_beat": filibuster.to_beat,
                    "revealed": [{"seat": seat, "card": card(c)} for seat, c in filibuster.revealed],
                    "counter": card(filibuster.counter)},
                "waiting_for": waiting_for(state),
                "winning_points": WINNING_POINTS,
            }
            if filibusters_of(state.options) == EACH:
                board["filibustered"] = list(table.filibustered)
        if not stamped(state.options):  # a game created before its options were written shows them not
            return {"deck": table.deck, "variant": table.variant, "players": players, "board": board}
        return {"deck": table.deck, "variant": table.variant, "rules": rules_shown(state.options), "players": players,
                "board": board}

    def redact_event(self, event: Event, shown: dict[str, Any], viewer: int | None, before: GameState | None,
                     after: GameState) -> dict[str, Any]:
        """Every card id in an event becomes the card for a viewer who may see it, before or after the event (or
        whom the event shows it to: a reveal), and disappears for the others."""
        if after.table is None or not after.table.cards:
            return shown
        visible = cards_visible_to(after.table, viewer)
        if before is not None and before.table is not None:
            visible |= cards_visible_to(before.table, viewer)
        if event.type == "choices.revealed":
            visible |= {card for card in event.data["choices"].values() if isinstance(card, str)}
        result: dict[str, Any] = hide_unseen_cards(shown, after.table.cards, visible)
        return result

    # --- legal moves ------------------------------------------------------------------------------------------

    def legal_moves(self, state: GameState, seat: int) -> list[dict[str, Any]]:
        if state.status != ACTIVE or not standing(state, seat):
            return []
        table = state.table
        hand = table.player(seat).hand
        phase = table.phase
        if phase == WINDOW and seat in table.window:
            return [{"type": "filibuster"}, {"type": "pass"}]
        if phase == REVEAL and seat in state.choosing and str(seat) not in state.choices:
            return [{"type": "reveal_card", "card": choose(1, hand, as_list=False)}]
        if phase == DIED:
            return [{"type": "roll_dice"}]
        if phase == EFFECT:
            return [{"type": "resolve"}] if seat == table.acting else []
        acting = table.priority if phase == STACK else table.acting
        if seat != acting:
            return []
        if phase == COUNTER:
            higher = [c for c in hand if table.value(c) > table.filibuster.to_beat]
            return [*([{"type": "counter_filibuster", "card": choose(1, higher, as_list=False)}] if higher else []),
                    {"type": "pass"}]
        if phase == RESPONSE:
            return [{"type": "respond", "card": choose(1, hand, as_list=False)}, {"type": "pass"}]
        wanted = {PLAY_CAMPAIGN: CAMPAIGN, PLAY_CONSTANT: CONSTANT, STACK: GAMBIT}.get(phase)
        if wanted is None:
            return []
        plays = [self._play_move(state, c) for c in hand if table.kind(c) == wanted]
        return plays if phase == PLAY_CAMPAIGN else [*plays, {"type": "pass"}]

    def _play_move(self, state: GameState, card: str) -> dict[str, Any]:
        table = state.table
        effect = effect_of(table.cards[card])
        move: dict[str, Any] = {"type": "play", "card": card}
        if effect.needs_target:
            move["target"] = choose(1, [p.seat for p in table.players if standing(state, p.seat)], as_list=False)
        constants = self._constants_in_play(table)
        if effect.destroy_constant and constants:
            move["destroy"] = choose(1, constants, as_list=False)
        return move


# --- helpers -----------------------------------------------------------------------------------------------------


def _with(table: FilibusterState, seat: int, **changes: Any) -> tuple[Player, ...]:
    return table.with_player(seat, **changes).players


def _discard_from_hand(table: FilibusterState, card: str) -> FilibusterState:
    owner = table.player(table.owners[card])
    return table.with_player(owner.seat, hand=tuple(c for c in owner.hand if c != card),
                             discard_pile=(*owner.discard_pile, card))


def _card_view(card: Card) -> dict[str, Any]:
    return {**card_json(card), "value": value_of(card)}


def cards_visible_to(table: FilibusterState, viewer: int | None) -> set[str]:
    """The cards face up on the table, every discard pile, and the viewer's own hand."""
    visible = table.in_play()
    for player in table.players:
        visible.update(player.discard_pile)
        if player.seat == viewer:
            visible.update(player.hand)
    return visible


def waiting_for(state: GameState | Seen) -> list[int]:
    """The seats the game waits for now (the reveal's: those of the seats asked who have not chosen yet)."""
    table = state.table
    if state.status != ACTIVE:
        return []
    if table.phase == WINDOW:
        return list(table.window)
    if table.phase == REVEAL:
        chosen = state.chosen()
        return [seat for seat in state.choosing if seat not in chosen]
    if table.phase == DIED:
        return [p.seat for p in table.players if standing(state, p.seat)]
    if table.phase == STACK:
        return [table.priority]
    return [] if table.acting is None else [table.acting]


__all__ = ["NAME", "FilibusterRuleset", "cards_visible_to", "roll_order", "waiting_for"]
