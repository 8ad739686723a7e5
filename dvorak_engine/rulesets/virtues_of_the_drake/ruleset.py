"""The ``virtues_of_the_drake`` ruleset: "The Virtues of the Drake, update II", with its Updated Rules.

Read it beside the seed. Two to four players each take one Virtue of the same dragon; every card is communal.
Three decks (Maidens, Knights, Treasures) lie face down; the Gullet, the Lair and the Bed each start with their
deck's top card; turns go strictly Pride, Greed, Wrath, Gluttony among the Virtues in play. A turn is the top card
of a deck, then one action. Gluttony wins with seven Maidens in the Gullet, Wrath with seven Knights in the Lair,
Greed with seven Treasures in the Bed, Pride when a deck is exhausted first.

Readings, where the seed leaves a choice (docs/virtues_of_the_drake.md gives them to players):

1. The three decks form from the archive's one deck by type; the four Virtue cards are dealt, not shuffled in.
2. "The play order is strictly: Pride, Greed, Wrath, Gluttony" replaces the random first player: the first
   Virtue of that order in play goes first.
3. The action is part of every turn: once the card is played, the player must perform one if any can be
   performed; when none can, the turn ends with the card.
4. A Virtue wins the moment its condition comes about: the Gullet, the Lair or the Bed reaching seven cards as
   one is added, a deck left empty as a card leaves it. Gluttony, Wrath and Greed are settled before Pride, who
   wins "if any of the decks is ever exhausted before one of the other Virtues wins".
5. "If a Virtue that is not in play wins, shuffle the discards back into the deck. This only happens once per
   Virtue": the first time, each deck's discards are shuffled into it and play goes on (a deck still exhausted
   after that is Pride's win again); the second time that Virtue wins and the game ends with no player winning
   ("a Virtue that is not represented by a player can still accidentally win the game").
6. A stalemate: a Treasure may always be played while its deck has cards, so a turn is never stuck before some
   deck is exhausted, which Pride wins anyway.
7. A card's own action may be performed while the card lies face up: in play, in the Gullet, the Lair or the
   Bed; a player's own Virtue card too. It is offered only where its effect has something to act on.
8. Live tables: a clock waits on the player whose turn it is. A player whose time runs out is out of the game and
   their Virtue is set aside, no longer in play (``drake.virtue_set_aside``): the turn goes on to the next Virtue
   in play, and the Virtue set aside may still win by accident, as reading 5 says. With one player left, that
   player wins on time (the core's ``game.won_on_time``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dvorak_core.errors import DomainError
from dvorak_engine import clock
from dvorak_engine.cards import Card, card_json, cards_from_json, copy_deck_cards, hide_unseen_cards
from dvorak_engine.events import Event
from dvorak_engine.rng import Rng
from dvorak_engine.ruleset import COUNT, PUBLIC, CommandContext, Ruleset, Unfolding, applies, choose, command
from dvorak_engine.rulesets.virtues_of_the_drake import bodies as declared
from dvorak_engine.rulesets.virtues_of_the_drake.cards import (
    BED,
    CHASTITY,
    DECK_OF,
    DECKS,
    DISCARD_FROM_BED,
    DISCARD_FROM_GULLET,
    DISCARD_FROM_LAIR,
    DISCARD_KNIGHT,
    DISCARD_MAIDEN,
    GLUTTONY,
    GREED,
    GULLET,
    KNIGHT,
    KNIGHTS,
    LAIR,
    LOCATION_OF,
    LOCATIONS,
    MAIDEN,
    MAIDENS,
    PLAY_ORDER,
    PRIDE,
    SHUFFLE_DISCARDS,
    STRENGTH,
    SWALLOW_MAIDEN,
    TREASURE,
    TREASURES,
    TYPE_OF_DECK,
    VALUE,
    VIRTUE,
    VIRTUES,
    WEALTH,
    WRATH,
    CardAction,
    action_of,
    card_problems,
    game_card,
    virtue_of,
)
from dvorak_engine.state import ACTIVE, FINISHED, GameState
from dvorak_engine.values import replace
from dvorak_engine.visibility import COUNT_EACH, Seen, derived, lookup, public

NAME = "virtues_of_the_drake"
MIN_PLAYERS, MAX_PLAYERS = 2, 4
# A turn's two phases: "Playing the top card of a deck of that player's choice", then "Performing an action".
PLAY, ACTION = "play", "action"
SEVEN = 7
# Where a card lies face up in play: "up to one Maiden tied to a stake and one Knight".
IN_PLAY = "in_play"
IN_PLAY_SLOT = {MAIDEN: "maiden", KNIGHT: "knight"}

# Each Virtue's win, in the seed's words.
WINS = {
    GLUTTONY: "Gluttony will win if the Dragon's Gullet ever contains seven Maidens, satisfying its hunger",
    WRATH: "Wrath will win if the Dragon's Lair ever contains seven Knights, satisfying its bloodlust",
    GREED: "Greed will win if the Dragon's Bed ever contains seven Treasures, satisfying the Dragon's desire for "
           "wealth",
    PRIDE: "Pride is attempting to stalemate the other Virtues, and will win if any of the decks is ever exhausted "
           "before one of the other Virtues wins.",
}
NOT_IN_PLAY = ("If a Virtue that is not in play wins, shuffle the discards back into the deck. This only happens "
               "once per Virtue.")
BY_ACCIDENT = "Keep in mind, a Virtue that is not represented by a player can still accidentally win the game."
# The outcome of a game won on time (``game.won_on_time``): no Virtue's condition came about.
ON_TIME = "Every other player ran out of time."


# --- the state ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Turn:
    seat: int = public()
    virtue: str = public()
    stage: str = public(PLAY)


@dataclass(frozen=True)
class DrakeState:
    """The dragon's table. ``decks``: each communal deck, top card first (their order is never shown);
    ``discards``: the discards placed next to each deck; ``in_play``: the Maiden and the Knight in play, by
    ``maiden`` and ``knight``; ``gullet``, ``lair``, ``bed``: left to right, the most recent rightmost;
    ``virtues``: each Virtue in play and the seat playing it; ``virtue_cards``: every Virtue's card;
    ``set_aside``: the Virtues nobody plays, face up; ``reshuffled_for``: the Virtues not in play whose one
    reshuffle is spent; ``outcome``: who won and by which rule.

    Who sees what: everything lies face up but the decks. ``cards`` is read by id only (a view finds the cards it
    was shown face up, never those in the decks); ``decks`` is declared for nobody, each deck seen only as how many
    cards it holds (``deck_counts``)."""

    deck: dict[str, Any] = public(default_factory=dict)
    cards: dict[str, Card] = lookup(default_factory=dict)
    decks: dict[str, tuple[str, ...]] = field(default_factory=dict)
    discards: dict[str, tuple[str, ...]] = public(default_factory=dict)
    in_play: dict[str, str] = public(default_factory=dict)
    gullet: tuple[str, ...] = public(())
    lair: tuple[str, ...] = public(())
    bed: tuple[str, ...] = public(())
    virtues: dict[str, int] = public(default_factory=dict)
    virtue_cards: dict[str, str] = public(default_factory=dict)
    set_aside: tuple[str, ...] = public(())
    turn: Turn | None = public(None)
    reshuffled_for: tuple[str, ...] = public(())
    outcome: dict[str, Any] | None = public(None)

    def location(self, name: str) -> tuple[str, ...]:
        result: tuple[str, ...] = getattr(self, name)
        return result

    def maiden_in_play(self) -> str | None:
        return self.in_play.get(IN_PLAY_SLOT[MAIDEN])

    def knight_in_play(self) -> str | None:
        return self.in_play.get(IN_PLAY_SLOT[KNIGHT])

    @derived
    def play_order(self) -> list[str]:
        """The Virtues in play, strictly in the order Pride, Greed, Wrath, Gluttony (everyone sees it: the
        Virtues in play are public)."""
        return [virtue for virtue in PLAY_ORDER if virtue in self.virtues]

    @derived
    def deck_counts(self) -> dict[str, int]:
        """How many cards each deck holds, by deck (none before the decks are formed): everyone may count the
        decks, nobody sees their order or their cards."""
        return {deck: len(pile) for deck, pile in self.decks.items()}

    def face_up(self) -> set[str]:
        """Every card anyone may see: once the decks are formed, all but those in the decks."""
        if not self.decks:
            return set()
        hidden = {card_id for pile in self.decks.values() for card_id in pile}
        return set(self.cards) - hidden


def _without(cards: tuple[str, ...], card_id: str) -> tuple[str, ...]:
    return tuple(c for c in cards if c != card_id)


def take_from_table(table: DrakeState, card_id: str) -> DrakeState:
    """The table with the card gone from wherever it lies face up."""
    return replace(table, in_play={slot: c for slot, c in table.in_play.items() if c != card_id},
                   **{name: _without(table.location(name), card_id) for name in LOCATIONS})


def _nearness(board: dict[str, Any], virtue: str) -> float:
    """How near a Virtue is to its win, from 0 to 1, as a view's ``board`` shows it: the share of the seven cards
    its location holds, or, for Pride, how few cards are left in the smallest deck."""
    if virtue == PRIDE:
        left = min(deck["count"] for deck in board["decks"].values())
        result: float = 1 - min(left, SEVEN) / SEVEN
        return result
    location = {GLUTTONY: GULLET, WRATH: LAIR, GREED: BED}[virtue]
    return min(len(board[location]), SEVEN) / SEVEN


def discard(table: DrakeState, card_id: str) -> DrakeState:
    """The card moved to the discards next to its deck."""
    deck = DECK_OF[table.cards[card_id].type]
    table = take_from_table(table, card_id)
    return replace(table, discards={**table.discards, deck: (*table.discards[deck], card_id)})




# --- deciding, one event at a time ---------------------------------------------------------------------------


class _Unfolding(Unfolding):
    @property
    def table(self) -> DrakeState:
        result: DrakeState = self.state.table
        return result


class VirtuesOfTheDrakeRuleset(Ruleset):
    """The Basic Rules' hands, draws and effect moves do not exist here: a turn is ``play_top``, then ``swallow``,
    ``breathe_fire`` or ``card_action`` (their bodies declared in ``bodies``)."""

    name = NAME
    deck_title_phrases = ("virtues of the drake",)
    board_title = "The Gullet, the Lair and the Bed"
    # The deck's Special Rules this module carries out (by their opening words): see Ruleset.
    special_rules_carried = (
        'This is a card game for two to four players.',
        'The play order is strictly: Pride, Greed, Wrath, Gluttony',
        'Played by the rules of The Virtues of the Drake',
    )
    min_players, max_players = MIN_PLAYERS, MAX_PLAYERS
    State = DrakeState

    # --- the cards it needs -------------------------------------------------------------------------------

    def card_problems(self, deck: dict[str, Any]) -> list[dict[str, Any]]:
        return card_problems(deck)

    # --- To start the game ------------------------------------------------------------------------------------

    def created(self, *, deck: dict[str, Any], variant: str, creative: bool, options: dict[str, Any], rng: Rng) -> dict[str, Any]:
        """The deck's cards copied in, as the game plays them (``cards.game_card``)."""
        if creative:
            raise DomainError("The Virtues of the Drake has no creative play.", code="invalid",
                              details={"field": "creative"})
        return {"deck": {"slug": deck.get("slug", ""), "title": deck.get("title", "")},
                "cards": [game_card(card) for card in copy_deck_cards(deck, rng)]}

    def setup(self, state: GameState, rng: Rng) -> list[Event]:
        """"To start the game, shuffle all the decks ... Shuffle the Virtue cards and hand one to each player (in a
        two player game, set Pride aside first) ... Place the top card from the Maidens deck to the right of
        Gluttony; this forms the Gullet. Likewise, place the top Knight next to Wrath to start the Lair and the top
        Treasure next to Greed to start the Bed." Then the first Virtue of the play order takes the first turn."""
        table: DrakeState = state.table
        decks: dict[str, list[str]] = {deck: [] for deck in DECKS}
        virtue_cards: dict[str, str] = {}
        for card in table.cards.values():
            if card.type == VIRTUE:
                virtue = virtue_of({"title": card.title})
                assert virtue is not None, "a Virtue card is titled with its virtue (card_problems)"
                virtue_cards[virtue] = card.id
            else:
                decks[DECK_OF[card.type]].append(card.id)
        for pile in decks.values():
            rng.shuffle(pile)
        to_deal = [virtue for virtue in VIRTUES if not (len(state.seats) == 2 and virtue == PRIDE)]
        rng.shuffle(to_deal)
        dealt = dict(zip((seat.seat for seat in state.seats), to_deal, strict=False))
        unfolding = _Unfolding(self, state, rng)
        unfolding.add("drake.decks_shuffled", {"decks": decks})
        unfolding.add("drake.virtues_dealt", {
            "virtues": [{"seat": seat, "virtue": virtue, "card": virtue_cards[virtue]}
                        for seat, virtue in dealt.items()],
            "set_aside": [{"virtue": virtue, "card": virtue_cards[virtue]}
                          for virtue in VIRTUES if virtue not in dealt.values()]})
        for deck in DECKS:
            unfolding.add("drake.location_started", {"location": LOCATION_OF[deck], "deck": deck,
                                                     "card": unfolding.table.decks[deck][0]})
        first = unfolding.table.play_order()[0]
        unfolding.add("drake.turn_began", {"seat": unfolding.table.virtues[first], "virtue": first})
        return unfolding.events

    # --- A player's turn ------------------------------------------------------------------------------------

    def _require_turn(self, state: GameState, seat: int | None, stage: str) -> DrakeState:
        table: DrakeState = state.table
        if table.turn is None or table.turn.seat != seat:
            raise DomainError("It is not your turn.", code="not_your_turn")
        if table.turn.stage != stage:
            expected = ("Play the top card of a deck first." if table.turn.stage == PLAY
                        else "You have played your card: now perform an action.")
            raise DomainError(expected, code="wrong_stage", details={"stage": table.turn.stage})
        return table

    def playable_decks(self, table: DrakeState) -> list[str]:
        """"You may always play a Maiden or a Knight, provided there is no corresponding card in play"; a Treasure
        may always be played. An exhausted deck has nothing to play."""
        barred = {MAIDENS: table.maiden_in_play() is not None, KNIGHTS: table.knight_in_play() is not None,
                  TREASURES: False}
        return [deck for deck in DECKS if table.decks[deck] and not barred[deck]]

    @command("play_top", body=declared.PLAY_TOP)
    def play_top(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        """1. "Playing the top card of a deck of that player's choice"."""
        table = self._require_turn(state, ctx.player_seat, PLAY)
        deck = command_body["deck"]
        if deck not in self.playable_decks(table):
            reason = ("That deck is exhausted." if not table.decks[deck] else
                      f"Only one {TYPE_OF_DECK[deck]} may be in play: there is one already.")
            raise DomainError(reason, code="denied", details={"deck": deck})
        card_id = table.decks[deck][0]
        card = table.cards[card_id]
        unfolding = _Unfolding(self, state, ctx.rng)
        wins: list[str] = []
        if card.type == TREASURE:
            unfolding.add("drake.card_played", {"seat": ctx.player_seat, "deck": deck, "card": card_id, "to": BED,
                                                "compared": self._treasure_against_knight(table, card)})
            if len(unfolding.table.bed) >= SEVEN:
                wins.append(GREED)
        else:
            unfolding.add("drake.card_played", {"seat": ctx.player_seat, "deck": deck, "card": card_id, "to": IN_PLAY,
                                                "compared": None})
        if not unfolding.table.decks[deck]:
            wins.append(PRIDE)
        self._settle(unfolding, wins)
        if not unfolding.over and not self.actions(unfolding.state, ctx.player_seat):
            self._next_turn(unfolding)
        return unfolding.events

    def _treasure_against_knight(self, table: DrakeState, treasure: Card) -> dict[str, Any] | None:
        """"To play a Treasure, flip the top card and compare its Value to the rightmost Knight's Wealth ... If the
        Value is higher than the Wealth, you've torn that Knight apart trying to find the Treasure; discard the
        rightmost Knight from the Lair." With no Knight in the Lair there is nothing to compare."""
        if not table.lair:
            return None
        knight = table.cards[table.lair[-1]]
        value, wealth = treasure.stats[VALUE], knight.stats[WEALTH]
        return {"knight": knight.id, "value": value, "wealth": wealth, "knight_discarded": value > wealth}

    # --- 2. Performing an action ----------------------------------------------------------------------------------

    def actions(self, state: GameState, seat: int) -> list[dict[str, Any]]:
        """The actions the seat may perform now, as the bodies of ``legal_moves``."""
        table: DrakeState = state.table
        if state.status != ACTIVE or table.turn is None or table.turn.seat != seat or table.turn.stage != ACTION:
            return []
        moves: list[dict[str, Any]] = []
        if table.maiden_in_play() is not None and table.knight_in_play() is None:
            moves.append({"type": "swallow"})
        if table.knight_in_play() is not None:
            moves.append({"type": "breathe_fire"})
        cards = self.card_actions(table, seat)
        if cards:
            moves.append({"type": "card_action", "card": choose(1, cards, as_list=False)})
        return moves

    def card_actions(self, table: DrakeState, seat: int) -> list[str]:
        """The cards whose own action the seat may perform: those face up in play, in the Gullet, the Lair or the
        Bed, and its own Virtue card, whose action has something to act on."""
        lying = [*table.in_play.values(), *table.gullet, *table.lair, *table.bed]
        own = [table.virtue_cards[virtue] for virtue, holder in table.virtues.items() if holder == seat]
        return [card_id for card_id in (*lying, *own)
                if (action := action_of(table.cards[card_id])) is not None
                and self._can_perform(table, card_id, action)]

    def _can_perform(self, table: DrakeState, card_id: str, action: CardAction) -> bool:
        after = discard(table, card_id) if action.discards_itself else table
        needs = {
            SWALLOW_MAIDEN: after.maiden_in_play(), DISCARD_MAIDEN: after.maiden_in_play(),
            DISCARD_KNIGHT: after.knight_in_play(), DISCARD_FROM_GULLET: after.gullet[-1:] or None,
            DISCARD_FROM_LAIR: after.lair[-1:] or None, DISCARD_FROM_BED: after.bed[-1:] or None,
        }
        return action.effect not in needs or needs[action.effect] is not None

    @command("swallow", body=declared.SWALLOW)
    def swallow(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        """"Swallowing a Maiden. This can be done automatically, but only if there is no Knight in play to protect
        the Maiden.\""""
        table = self._require_turn(state, ctx.player_seat, ACTION)
        maiden = table.maiden_in_play()
        if maiden is None:
            raise DomainError("There is no Maiden in play to swallow.", code="denied")
        if table.knight_in_play() is not None:
            raise DomainError("A Knight in play protects the Maiden: breathe fire on him first.", code="denied")
        unfolding = _Unfolding(self, state, ctx.rng)
        self._swallow(unfolding, ctx.player_seat, maiden, cause=None)
        return self._end_action(unfolding)

    def _swallow(self, unfolding: _Unfolding, seat: int, maiden: str, cause: str | None) -> None:
        unfolding.add("drake.maiden_swallowed", {"seat": seat, "card": maiden, "cause": cause})
        if len(unfolding.table.gullet) >= SEVEN:
            self._settle(unfolding, [GLUTTONY])

    @command("breathe_fire", body=declared.BREATHE_FIRE)
    def breathe_fire(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        """"Breathing fire on a Knight. To do this, compare the Knight's Strength to the Chastity of the righmost
        Maiden in the Gullet ... If the Maiden's Chastity is equal or higher, she stays in the Gullet, but if it's
        less than the Knight's Strength, discard the Maiden. Either way, you still defeat the Knight ... Move the
        Knight to the Lair." An empty Gullet has no Maiden to compare."""
        table = self._require_turn(state, ctx.seat, ACTION)
        knight_id = table.knight_in_play()
        if knight_id is None:
            raise DomainError("There is no Knight in play to breathe fire on.", code="denied")
        strength = table.cards[knight_id].stats[STRENGTH]
        maiden_id = table.gullet[-1] if table.gullet else None
        chastity = None if maiden_id is None else table.cards[maiden_id].stats[CHASTITY]
        unfolding = _Unfolding(self, state, ctx.rng)
        unfolding.add("drake.fire_breathed", {
            "seat": ctx.seat, "knight": knight_id, "strength": strength, "maiden": maiden_id, "chastity": chastity,
            "maiden_discarded": chastity is not None and chastity < strength})
        if len(unfolding.table.lair) >= SEVEN:
            self._settle(unfolding, [WRATH])
        return self._end_action(unfolding)

    @command("card_action", body=declared.CARD_ACTION)
    def card_action(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        """"Performing an action that is listed on a card. These will instruct you to do something "as an
        action"." The engine carries out the effects it reads (``cards.ACTION_EFFECTS``)."""
        card_id = command_body["card"]
        table = self._require_turn(state, ctx.player_seat, ACTION)
        if card_id not in self.card_actions(table, ctx.player_seat):
            # Says nothing of where the card is, should it lie face down in a deck.
            raise DomainError("That is not a card whose action you may perform now.", code="denied",
                              details={"card": card_id})
        card = table.cards[card_id]
        action = action_of(card)
        assert action is not None, "card_actions lists only cards with an action"
        unfolding = _Unfolding(self, state, ctx.rng)
        unfolding.add("drake.card_action", {"seat": ctx.player_seat, "card": card_id, "text": card.text,
                                            "effect": action.effect, "discarded": action.discards_itself})
        self._carry_out(unfolding, ctx.player_seat, card_id, action.effect)
        return self._end_action(unfolding)

    def _carry_out(self, unfolding: _Unfolding, seat: int, cause: str, effect: str | None) -> None:
        table = unfolding.table
        if effect == SWALLOW_MAIDEN:
            maiden = table.maiden_in_play()
            assert maiden is not None, "a card swallows the Maiden only while one is in play (card_actions)"
            self._swallow(unfolding, seat, maiden, cause=cause)
        elif effect in (DISCARD_MAIDEN, DISCARD_KNIGHT):
            card_id = table.maiden_in_play() if effect == DISCARD_MAIDEN else table.knight_in_play()
            unfolding.add("drake.card_discarded", {"card": card_id, "from": IN_PLAY, "cause": cause})
        elif effect in (DISCARD_FROM_GULLET, DISCARD_FROM_LAIR, DISCARD_FROM_BED):
            location = {DISCARD_FROM_GULLET: GULLET, DISCARD_FROM_LAIR: LAIR, DISCARD_FROM_BED: BED}[effect]
            unfolding.add("drake.card_discarded", {"card": table.location(location)[-1], "from": location,
                                                   "cause": cause})
        elif effect == SHUFFLE_DISCARDS:
            self._shuffle_discards(unfolding, cause=cause, virtue=None)

    def _end_action(self, unfolding: _Unfolding) -> list[Event]:
        if not unfolding.over:
            self._next_turn(unfolding)
        return unfolding.events

    def _next_turn(self, unfolding: _Unfolding) -> None:
        """"Continue playing turns in order": the next Virtue in play, strictly Pride, Greed, Wrath, Gluttony."""
        order = unfolding.table.play_order()
        turn = unfolding.table.turn
        assert turn is not None, "turns follow one another once the first has begun"
        virtue = order[(order.index(turn.virtue) + 1) % len(order)]
        unfolding.add("drake.turn_began", {"seat": unfolding.table.virtues[virtue], "virtue": virtue})

    # --- Winning --------------------------------------------------------------------------------------------------

    def _settle(self, unfolding: _Unfolding, wins: list[str]) -> None:
        """The Virtues whose condition a step brought about win, Gluttony, Wrath and Greed before Pride; Pride's
        exhausted deck is looked at once those are settled (a reshuffle may have refilled it)."""
        for virtue in (GLUTTONY, WRATH, GREED):
            if virtue in wins and not unfolding.over:
                self._virtue_wins(unfolding, virtue)
        if PRIDE in wins:
            while not unfolding.over and any(not pile for pile in unfolding.table.decks.values()):
                self._virtue_wins(unfolding, PRIDE)

    def _virtue_wins(self, unfolding: _Unfolding, virtue: str) -> None:
        table = unfolding.table
        if virtue in table.virtues:
            unfolding.add("drake.game_over", {"winners": [table.virtues[virtue]], "virtue": virtue,
                                              "rule": WINS[virtue]})
        elif virtue not in table.reshuffled_for:
            self._shuffle_discards(unfolding, cause=None, virtue=virtue)
        else:
            unfolding.add("drake.game_over", {"winners": [], "virtue": virtue, "rule": BY_ACCIDENT})

    def _shuffle_discards(self, unfolding: _Unfolding, *, cause: str | None, virtue: str | None) -> None:
        """Each deck's discards shuffled back into it (with what is left of it), in an order drawn now."""
        table = unfolding.table
        decks: dict[str, list[str]] = {}
        for deck in DECKS:
            if table.discards[deck]:
                pile = [*table.decks[deck], *table.discards[deck]]
                unfolding.rng.shuffle(pile)
                decks[deck] = pile
        unfolding.add("drake.discards_shuffled", {"decks": decks, "cause": cause, "virtue": virtue,
                                                  "rule": NOT_IN_PLAY if virtue is not None else None})

    # --- Live tables: the clock, the undo, the computer player ---------------------------------------------------

    # A card turned up from the top of a face-down deck: the first card of each location, every card played.
    reveals = frozenset({"drake.location_started", "drake.card_played"})

    def awaited(self, state: GameState) -> tuple[int, ...]:
        """The player whose turn it is: a turn always has a card to play, then an action or none (reading 3)."""
        table: DrakeState = state.table
        if state.status != ACTIVE or table.turn is None or not self.takes_part(state, table.turn.seat):
            return ()
        return (table.turn.seat,)

    def timed_out(self, state: GameState, seats: list[int], ctx: CommandContext) -> list[Event]:
        """The Virtues of the players out of time set aside, no longer in play, and the turn, if it was one of
        theirs, to the next Virtue still in play. With one side left the core ends the game."""
        table: DrakeState = state.table
        if table.turn is None or len(clock.sides_standing(state)) < 2:
            return []
        order = table.play_order()
        gone = [virtue for virtue in order if table.virtues[virtue] in seats]
        unfolding = _Unfolding(self, state, ctx.rng)
        for virtue in gone:
            unfolding.add("drake.virtue_set_aside", {"seat": table.virtues[virtue], "virtue": virtue})
        if table.turn.virtue in gone:
            start = order.index(table.turn.virtue)
            following = (order[(start + step) % len(order)] for step in range(1, len(order)))
            virtue = next(virtue for virtue in following if virtue not in gone)
            unfolding.add("drake.turn_began", {"seat": table.virtues[virtue], "virtue": virtue})
        return unfolding.events

    def evaluate(self, view: dict[str, Any], seat: int) -> float:
        """How near the seat's Virtue is to its win, less how near the nearest other Virtue in play is to its own
        (``_nearness``: Maidens in the Gullet, Knights in the Lair, Treasures in the Bed, out of seven; for Pride,
        how few cards are left in the smallest deck)."""
        board = view.get("board")
        if not board:
            return 0.0
        near = {entry["virtue"]: _nearness(board, entry["virtue"]) for entry in board["virtues"]
                if entry["seat"] is not None}
        own = next((entry["virtue"] for entry in board["virtues"] if entry["seat"] == seat), None)
        mine = near.pop(own, 0.0)
        return mine - max(near.values(), default=0.0)

    # --- How the events change the state --------------------------------------------------------------------

    @applies("game.created", shows={"deck": PUBLIC, "cards": COUNT})
    def apply_game_created(self, state: GameState, event: Event) -> GameState:
        data = event.data
        return replace(state, table=DrakeState(deck=dict(data["deck"]), cards=cards_from_json(data["cards"])))

    @applies("drake.decks_shuffled", shows={"decks": COUNT_EACH})
    def apply_decks_shuffled(self, state: GameState, event: Event) -> GameState:
        decks = {deck: tuple(pile) for deck, pile in event.data["decks"].items()}
        return state.with_table(decks=decks, discards=dict.fromkeys(DECKS, ()))

    @applies("drake.virtues_dealt", shows={"virtues": PUBLIC, "set_aside": PUBLIC})
    def apply_virtues_dealt(self, state: GameState, event: Event) -> GameState:
        dealt, aside = event.data["virtues"], event.data["set_aside"]
        return replace(state, status=ACTIVE).with_table(
            virtues={entry["virtue"]: entry["seat"] for entry in dealt},
            virtue_cards={entry["virtue"]: entry["card"] for entry in (*dealt, *aside)},
            set_aside=tuple(entry["virtue"] for entry in aside))

    @applies("drake.location_started", shows=dict.fromkeys(("location", "deck", "card"), PUBLIC))
    def apply_location_started(self, state: GameState, event: Event) -> GameState:
        data = event.data
        table = state.table
        return state.with_table(decks={**table.decks, data["deck"]: table.decks[data["deck"]][1:]},
                                **{data["location"]: (*table.location(data["location"]), data["card"])})

    @applies("drake.turn_began", shows={"seat": PUBLIC, "virtue": PUBLIC})
    def apply_turn_began(self, state: GameState, event: Event) -> GameState:
        return state.with_table(turn=Turn(seat=event.data["seat"], virtue=event.data["virtue"]))

    @applies("drake.card_played", shows=dict.fromkeys(("seat", "deck", "card", "to", "compared"), PUBLIC))
    def apply_card_played(self, state: GameState, event: Event) -> GameState:
        data = event.data
        table = state.table
        card_id = data["card"]
        table = replace(table, decks={**table.decks, data["deck"]: table.decks[data["deck"]][1:]},
                        turn=replace(table.turn, stage=ACTION))
        if data["to"] == IN_PLAY:
            table = replace(table, in_play={**table.in_play, IN_PLAY_SLOT[table.cards[card_id].type]: card_id})
        else:
            if data["compared"] and data["compared"]["knight_discarded"]:
                table = discard(table, data["compared"]["knight"])
            table = replace(table, bed=(*table.bed, card_id))
        return replace(state, table=table)

    @applies("drake.maiden_swallowed", shows=dict.fromkeys(("seat", "card", "cause"), PUBLIC))
    def apply_maiden_swallowed(self, state: GameState, event: Event) -> GameState:
        table = take_from_table(state.table, event.data["card"])
        return replace(state, table=replace(table, gullet=(*table.gullet, event.data["card"])))

    @applies("drake.fire_breathed", shows=dict.fromkeys(
        ("seat", "knight", "strength", "maiden", "chastity", "maiden_discarded"), PUBLIC))
    def apply_fire_breathed(self, state: GameState, event: Event) -> GameState:
        data = event.data
        table = state.table
        if data["maiden_discarded"]:
            table = discard(table, data["maiden"])
        table = take_from_table(table, data["knight"])
        return replace(state, table=replace(table, lair=(*table.lair, data["knight"])))

    @applies("drake.card_action", shows=dict.fromkeys(("seat", "card", "text", "effect", "discarded"), PUBLIC))
    def apply_card_action(self, state: GameState, event: Event) -> GameState:
        if not event.data["discarded"]:
            return state
        return replace(state, table=discard(state.table, event.data["card"]))

    @applies("drake.card_discarded", shows=dict.fromkeys(("card", "from", "cause"), PUBLIC))
    def apply_card_discarded(self, state: GameState, event: Event) -> GameState:
        return replace(state, table=discard(state.table, event.data["card"]))

    @applies("drake.discards_shuffled", shows={"decks": COUNT_EACH, "cause": PUBLIC, "virtue": PUBLIC,
                                               "rule": PUBLIC})
    def apply_discards_shuffled(self, state: GameState, event: Event) -> GameState:
        data = event.data
        table = state.table
        decks = {**table.decks, **{deck: tuple(pile) for deck, pile in data["decks"].items()}}
        discards = {deck: () if deck in data["decks"] else pile for deck, pile in table.discards.items()}
        reshuffled_for = table.reshuffled_for if data["virtue"] is None else (*table.reshuffled_for, data["virtue"])
        return state.with_table(decks=decks, discards=discards, reshuffled_for=reshuffled_for)

    @applies("drake.game_over", shows=dict.fromkeys(("winners", "virtue", "rule"), PUBLIC))
    def apply_game_over(self, state: GameState, event: Event) -> GameState:
        data = event.data
        outcome = {"virtue": data["virtue"], "winners": list(data["winners"]), "rule": data["rule"]}
        return replace(state, status=FINISHED, winners=tuple(data["winners"])).with_table(turn=None, outcome=outcome)

    @applies("drake.virtue_set_aside", shows={"seat": PUBLIC, "virtue": PUBLIC})
    def apply_virtue_set_aside(self, state: GameState, event: Event) -> GameState:
        """The Virtue of a player out of the game, no longer in play: set aside face up, as a Virtue nobody plays."""
        table = state.table
        virtue = event.data["virtue"]
        return state.with_table(virtues={name: seat for name, seat in table.virtues.items() if name != virtue},
                                set_aside=(*table.set_aside, virtue))

    @applies("game.won_on_time")
    def apply_won_on_time(self, state: GameState, event: Event) -> GameState:
        """The game over as the core ended it, with no turn left to play; the outcome names the winner's Virtue."""
        table = state.table
        winners = list(event.data["winners"])
        held = [virtue for virtue, holder in table.virtues.items() if holder in winners]
        outcome = {"virtue": held[0] if len(held) == 1 else None, "winners": winners, "rule": ON_TIME}
        return state.with_table(turn=None, outcome=outcome)

    # --- Legal moves --------------------------------------------------------------------------------------------

    def legal_moves(self, state: GameState, seat: int) -> list[dict[str, Any]]:
        table: DrakeState = state.table
        if state.status != ACTIVE or table.turn is None or table.turn.seat != seat:
            return []
        if table.turn.stage == PLAY:
            return [{"type": "play_top", "deck": deck} for deck in self.playable_decks(table)]
        return self.actions(state, seat)

    # --- What each viewer sees ------------------------------------------------------------------------------

    def shown(self, state: Seen, viewer: int | None) -> dict[str, Any]:
        """The envelope's ``deck`` and ``players`` (each with the Virtue it plays), and the ``board``, null until
        the game starts. Everything is face up but the decks, which show their counts only."""
        table = state.table
        holders = {seat: virtue for virtue, seat in table.virtues.items()}
        players = [{"seat": s.seat, "username": s.username, "team": s.team, "status": s.status,
                    "virtue": holders.get(s.seat)} for s in state.seats]
        board = None
        counts = table.deck_counts()
        if counts:
            def cards(ids: tuple[str, ...]) -> list[dict[str, Any]]:
                return [card_json(table.cards[card_id]) for card_id in ids]

            turn = table.turn
            board = {
                "decks": {deck: {"count": counts[deck]} for deck in DECKS},
                "discards": {deck: cards(table.discards[deck]) for deck in DECKS},
                "in_play": {slot: card_json(table.cards[table.in_play[slot]]) if slot in table.in_play else None
                            for slot in IN_PLAY_SLOT.values()},
                "gullet": cards(table.gullet), "lair": cards(table.lair), "bed": cards(table.bed),
                # Between the decks' shuffle and the Virtues' deal (a version ``?at=`` may ask for) no Virtue
                # has its card yet.
                "virtues": [{"virtue": virtue, "seat": table.virtues.get(virtue),
                             "card": card_json(table.cards[table.virtue_cards[virtue]])
                             if virtue in table.virtue_cards else None} for virtue in VIRTUES],
                "play_order": table.play_order(),
                "turn": None if turn is None else {"seat": turn.seat, "virtue": turn.virtue, "stage": turn.stage},
                "reshuffled_for": list(table.reshuffled_for),
                "outcome": table.outcome,
            }
        return {"deck": dict(table.deck), "players": players, "board": board}

    def redact_event(self, event: Event, shown: dict[str, Any], viewer: int | None, before: GameState | None,
                     after: GameState) -> dict[str, Any]:
        """A card id becomes the card for everyone who may see it before or after the event (all but the decks'
        cards); an id of a card face down in a deck is dropped."""
        visible = after.table.face_up()
        if before is not None and before.table is not None:
            visible |= before.table.face_up()
        result: dict[str, Any] = hide_unseen_cards(shown, after.table.cards, visible)
        return result

