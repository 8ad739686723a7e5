"""The ``dvorak`` ruleset's own state (``GameState.table``), as frozen values.

Cards are copied into the game once (``DvorakState.cards``, id -> Card); every zone holds card ids only. Tops of
the draw pile and the discard pile are the LAST element of their tuples. In a Multi-Deck (or CCG) game each
player has a draw pile and a discard pile of their own (``Player.draw_pile``, ``Player.discard_pile``), the
shared ones stay empty, and ``DvorakState.owners`` records whose deck each card came from. Who sits where, the
game's status and its winners are the core's (``dvorak_engine.state``); ``players`` here holds, seat by seat,
what each player has on the table.

What a viewer sees of this state is built field by field in ``views.py`` (the JSON clients rely on), so a field
added here is shown to nobody until the view names it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from dvorak_core.rule_params import ENFORCED_NUMBERS, mentions, named_numbers
from dvorak_engine.cards import Card
from dvorak_engine.state import PLAYING, GameState
from dvorak_engine.values import replace
from dvorak_engine.visibility import counted, derived, lookup, owner, public

BASIC_RULES: dict[str, Any] = {
    "hand_limit": 5,
    "starting_hand": 5,
    "draws_per_turn": 1,
    "things_per_turn": 1,
    "actions_per_turn": 1,
    "vote_rule": "unanimity",
    "counters": {},
}

# The server's reading of the rulebook a game is played by, stamped into its ``game.created`` when it is created.
# 1 (no stamp): the first reading. 2: Special Rules in effect throughout the game (a Basic Rule number one names and
# the server cannot read is no longer enforced: ``DvorakState.unenforced``), and in Multi-Deck a deck per side. A
# game keeps the reading it was created under for its whole life, so its events replay as they were played.
FIRST_READING, READING = 1, 2

STANDARD, TEAM, MULTI_DECK, CCG = "standard", "team", "multi_deck", "ccg"
VARIANTS = (STANDARD, TEAM, MULTI_DECK, CCG)
# The variants in which every player has a deck, a draw pile and a discard pile of their own.
OWN_DECK_VARIANTS = (MULTI_DECK, CCG)

DRAW, PLAY, DISCARD = "draw", "play", "discard"

# How long a rule change lasts (``Modifier.until``): while the Thing that made it stays in play; until the end of
# the turn (or of a number of turns); or until a player ends it (a Special Rule's own: until it is amended or
# repealed).
LEAVES_PLAY, END_OF_TURN, ENDED = "leaves_play", "end_of_turn", "ended"
DURATIONS = (LEAVES_PLAY, END_OF_TURN, ENDED)

# A card whose text says so may be played when it is not its player's turn.
OUT_OF_TURN = re.compile(r"at any time|out of turn", re.IGNORECASE)
# "Action: [do something]" on a Thing: in place of playing an Action, its controller may do it.
ACTION_ABILITY = re.compile(r"\bAction:", re.IGNORECASE)


@dataclass(frozen=True)
class SpecialRule:
    id: str = public()
    title: str = public()
    text: str = public("")
    params: dict[str, Any] = public(default_factory=dict)
    # Its confirmed effect (the effect language's JSON list), from the archive's deck or voted in with the rule.
    effect: list[dict[str, Any]] | None = public(None)


@dataclass(frozen=True)
class Player:
    """What one seat has on the table."""

    seat: int = public()
    hand: tuple[str, ...] = owner(())
    # Every Thing this player controls, including those played onto other Things (see DvorakState.attached_to).
    in_play: tuple[str, ...] = public(())
    counters: dict[str, int] = public(default_factory=dict)
    # Multi-Deck and CCG games only: this player's own piles (tops last): the draw pile seen as a count.
    draw_pile: tuple[str, ...] = counted(())
    discard_pile: tuple[str, ...] = public(())
    # CCG games: the player deck they brought ({"id", "name", "card_set", "version"}); Multi-Deck games of the
    # second reading: the archive deck their side plays ({"slug", "title"}). None otherwise.
    deck: dict[str, Any] | None = public(None)

    @derived
    def hand_count(self) -> int:
        """How many cards the hand holds: everyone sees it, the cards only their holder."""
        return len(self.hand)


@dataclass(frozen=True)
class Turn:
    """The turn in progress. ``played`` maps each card played during it, by anyone (in or out of turn), to the
    seat that played it: the cards "just played", which their players may cite to change a rule."""

    seat: int = public()
    stage: str = public(DRAW)
    things_played: int = public(0)
    actions_played: int = public(0)
    played: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Modifier:
    """A change to a rule parameter made by a card or a Special Rule (its ``source``) while it is in effect.

    ``seat`` / ``card`` narrow it to one player / one card (None: everyone); ``deny`` marks a denial;
    ``order`` is the game version when it was made (more recent is larger; it is also the change's number, by
    which ``end_rule_effect`` names it). ``by``: the seat that made it with ``set_rule`` (None for a Special
    Rule's own parameters). ``until``: how long it lasts (``DURATIONS``); with ``END_OF_TURN``, ``ends_at_turn``
    is the number of the turn whose beginning ends it.
    """

    source: str = public()
    param: str = public()
    value: Any = public()
    seat: int | None = public(None)
    card: str | None = public(None)
    deny: bool = public(False)
    order: int = public(0)
    by: int | None = public(None)
    until: str = public(LEAVES_PLAY)
    ends_at_turn: int | None = public(None)


@dataclass(frozen=True)
class Proposal:
    """A creative proposal put to the vote (the Creative Rules): new cards, a Special Rule, an amendment or a
    repeal. ``votes`` maps a seat, as a string (JSON's keys), to True for in favour.

    ``cards``: the new cards (in ``DvorakState.cards`` from the moment they are proposed); ``target``: the card or
    Special Rule amended or repealed, and ``original`` its content when proposed (public from then on);
    ``changes``: an amendment's new values; ``rule``: a new Special Rule; ``during``: the game's status when
    proposed, which it returns to once the vote is over.
    """

    number: int = public()
    kind: str = public()
    author: int = public()
    # `public()` with no default declares none, but mypy takes any call here for a default: hence the ignore.
    during: str  # type: ignore[misc]
    status: str = public("open")
    votes: dict[str, bool] = public(default_factory=dict)
    cards: tuple[str, ...] = public(())
    target: str | None = public(None)
    original: dict[str, Any] = public(default_factory=dict)
    changes: dict[str, Any] = public(default_factory=dict)
    rule: dict[str, Any] = public(default_factory=dict)


@dataclass(frozen=True)
class Claim:
    """A move citing a card the server does not understand, put to the table (``claims``): ``move`` is the
    command as its claimant sent it, ``card`` the cited card's content (shown to all), ``stage`` ``claim``
    (the others accept or dispute) or ``vote``; ``answers`` and ``votes`` map a seat, as a string, to yes/no."""

    number: int = public()
    seat: int = public()
    move: dict[str, Any] = public()
    cause: str = public()
    card: dict[str, Any] = public(default_factory=dict)
    stage: str = public("claim")
    during: str = "active"
    status: str = public("open")
    answers: dict[str, bool] = public(default_factory=dict)
    votes: dict[str, bool] = public(default_factory=dict)


@dataclass(frozen=True)
class DvorakState:
    variant: str = public(STANDARD)
    creative: bool = public(False)
    deck: dict[str, Any] = public(default_factory=dict)
    cards: dict[str, Card] = lookup(default_factory=dict)
    special_rules: tuple[SpecialRule, ...] = public(())
    base_rules: dict[str, Any] = public(default_factory=lambda: dict(BASIC_RULES))
    players: tuple[Player, ...] = public(())
    turn: Turn | None = public(None)
    # How many turns have begun: the first turn is number 1.
    turn_number: int = public(0)
    draw_pile: tuple[str, ...] = counted(())
    discard_pile: tuple[str, ...] = public(())
    attached_to: dict[str, str] = public(default_factory=dict)
    modifiers: tuple[Modifier, ...] = public(())
    blank_cards: int = public(0)
    proposals: tuple[Proposal, ...] = public(())
    # Cards whose proposal was rejected (or withdrawn): set aside, visible to all, proposable again.
    rejected: tuple[str, ...] = public(())
    # Multi-Deck and CCG games: card id -> the seat whose deck it came from.
    owners: dict[str, int] = field(default_factory=dict)
    # Multi-Deck games: the archive deck's cards (content, no ids) copied for each player who joins without a deck of
    # their own (in a game of the first reading, for every player).
    deck_cards: tuple[dict[str, Any], ...] = ()
    # The effects the game understands, fixed when it was created (``effects.fixed_effects``); None in a game
    # created before the server read cards: every citation is then taken on trust.
    effects: dict[str, Any] | None = None
    claims: tuple[Claim, ...] = public(())
    # The reading of the rulebook the game is played by (``READING``).
    reading: int = public(FIRST_READING, added=True)
    # The players who agree to abandon the game (``abandon``), in seat order, until they withdraw: once every player
    # still in the game agrees, it is abandoned.
    agreed_to_abandon: tuple[int, ...] = public((), added=True)

    @property
    def has_own_decks(self) -> bool:
        return self.variant in OWN_DECK_VARIANTS

    def open_proposal(self) -> Proposal | None:
        return next((p for p in self.proposals if p.status == "open"), None)

    def open_claim(self) -> Claim | None:
        return next((c for c in self.claims if c.status == "open"), None)

    def player(self, seat: int) -> Player:
        return self.players[seat]

    @derived
    def rule_effect(self, rule_id: str) -> list[dict[str, Any]] | None:
        """What the game understands a Special Rule (public) to do: the effect language's JSON list, or None when
        it does not understand it (or the game was created before it read cards)."""
        from dvorak_core.effects.language import to_json
        from dvorak_engine.rulesets.dvorak.effects import read_effect

        if self.effects is None:
            return None
        rule = next((r for r in self.special_rules if r.id == rule_id), None)
        if rule is None:
            return None
        found = rule.effect if rule.effect is not None else self.effects.get("special_rules", {}).get(rule_id)
        return None if found is None else to_json(read_effect(found))

    @derived
    def unenforced(self) -> tuple[str, ...]:
        """The Basic Rule numbers (``ENFORCED_NUMBERS``) the server does not hold players to: each one named by a
        Special Rule in effect that it does not understand and that sets no value for it, which the players keep
        as they keep the rule, since Special Rules "are additions or alterations to the basic Dvorak rules, and
        are in effect throughout the game". A value set for it citing that rule (``set_rule``) is enforced again.
        None in a game of the first reading, which enforced the Basic Rules whatever its Special Rules said."""
        if self.reading < READING:
            return ()
        fixed = (self.effects or {}).get("special_rules", {})
        suspended: set[str] = set()
        for rule in self.special_rules:
            if rule.effect is not None or fixed.get(rule.id) is not None:
                continue  # understood: what it sets is enforced (its params)
            named = [p for p in named_numbers(rule.text) if p not in rule.params]
            if named:
                set_by_it = {m.param for m in self.modifiers if m.source == rule.id}
                suspended.update(p for p in named if p not in set_by_it)
        return tuple(p for p in ENFORCED_NUMBERS if p in suspended)

    def with_player(self, player: Player) -> DvorakState:
        players = list(self.players)
        players[player.seat] = player
        return replace(self, players=tuple(players))


def with_player(state: GameState, player: Player) -> GameState:
    return replace(state, table=state.table.with_player(player))


def next_seat(state: GameState, after: int) -> int:
    """The next player still in the game, in seat order (eliminated players are skipped)."""
    count = len(state.seats)
    for step in range(1, count + 1):
        seat = (after + step) % count
        if state.seat(seat).status == PLAYING:
            return seat
    return after


# --- Where cards are --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Location:
    zone: str  # "draw_pile" | "discard_pile" | "hand" | "in_play"
    seat: int | None = None


def located(state: GameState, card_id: str) -> Location:
    """Where a card known to be in the game is (``locate``): one that is nowhere is an error here."""
    location = locate(state, card_id)
    if location is None:
        raise LookupError(f"card {card_id!r} is nowhere in the game")
    return location


def locate(state: GameState, card_id: str) -> Location | None:
    """Where a card is; ``seat`` names the player of a hand, of Things in play, or of a Multi-Deck pile."""
    table = state.table
    for player in table.players:
        if card_id in player.hand:
            return Location("hand", player.seat)
        if card_id in player.in_play:
            return Location("in_play", player.seat)
        if card_id in player.discard_pile:
            return Location("discard_pile", player.seat)
        if card_id in player.draw_pile:
            return Location("draw_pile", player.seat)
    if card_id in table.discard_pile:
        return Location("discard_pile")
    if card_id in table.draw_pile:
        return Location("draw_pile")
    return None


def cards_visible_to(state: GameState, viewer: int | None) -> set[str]:
    """Ids of the cards a seat (or a spectator, None) may see: Things in play, the discard pile, its own hand, and
    the cards of the Creative Rules that everyone sees: those proposed in the open vote and those rejected."""
    table = state.table
    visible = set(all_discard_piles(state)) | set(table.rejected)
    proposal = table.open_proposal()
    if proposal is not None:
        visible.update(proposal.cards)
    for player in table.players:
        visible.update(player.in_play)
        if player.seat == viewer:
            visible.update(player.hand)
    return visible


def visible_modifiers(state: GameState, viewer: int | None) -> list[Modifier]:
    """The rule changes in effect that a viewer may know of: not one made for a card the viewer cannot see (an
    Action since shuffled back into the draw pile, say), which would let its id be followed."""
    visible = cards_visible_to(state, viewer)
    return [m for m in state.table.modifiers if m.card is None or m.card not in state.table.cards or m.card in visible]


def all_discard_piles(state: GameState) -> list[str]:
    """Every card on a discard pile: the shared one, then each player's own, in seat order (tops last)."""
    table = state.table
    return [*table.discard_pile, *(c for p in table.players for c in p.discard_pile)]


def all_draw_piles(state: GameState) -> list[str]:
    table = state.table
    return [*table.draw_pile, *(c for p in table.players for c in p.draw_pile)]


def cards_in_zones(state: GameState) -> list[str]:
    """Every card in a hand, in play or on a pile (not those set aside by the Creative Rules)."""
    in_players = [c for p in state.table.players for c in (*p.hand, *p.in_play)]
    return [*in_players, *all_draw_piles(state), *all_discard_piles(state)]


def attached_things(state: GameState, host: str) -> list[str]:
    """The Things played onto ``host``, and onto those, recursively (not ``host`` itself)."""
    return attached_in(state.table.attached_to, host)


def attached_in(attached_to: dict[str, str], host: str) -> list[str]:
    """``attached_things`` read from an ``attached_to`` map (Thing -> the Thing it was played onto)."""
    if host not in attached_to.values():
        return []
    found = []
    for child in [child for child, parent in attached_to.items() if parent == host]:
        found.append(child)
        found.extend(attached_in(attached_to, child))
    return found


def cards_in_the_deck(state: GameState) -> list[str]:
    """The game's cards that are part of its deck: not set aside as rejected, not still waiting for a vote."""
    table = state.table
    proposal = table.open_proposal()
    waiting = set(proposal.cards) if proposal is not None else set()
    aside = set(table.rejected) | waiting
    return [card_id for card_id in table.cards if card_id not in aside]


# --- What a card says -------------------------------------------------------------------------------------


def is_action(state: GameState, card_id: str) -> bool:
    # Types a deck invents itself are Things unless a ruleset says otherwise.
    result: bool = state.table.cards[card_id].type.strip().lower() == "action"
    return result


def may_be_played_out_of_turn(state: GameState, card_id: str) -> bool:
    """The deck marks the card, or its text says it ("at any time", "out of turn")."""
    card = state.table.cards[card_id]
    return card.out_of_turn or bool(OUT_OF_TURN.search(card.text))


def has_action_ability(state: GameState, card_id: str) -> bool:
    """A Thing whose text offers an "Action:" its controller may use in place of playing an Action."""
    return bool(ACTION_ABILITY.search(state.table.cards[card_id].text))


def citation_refusal(state: GameState, seat: int, cause: str, param: str) -> str | None:
    """Why ``seat`` may not cite ``cause`` (a card it can see, or a Special Rule) to change the rule parameter
    ``param``, or None when it may. It may cite a card that could change the parameter, its text speaking of it
    (``dvorak_core.rule_params.mentions``), and that is its own to cite: a Special Rule (whose text or ``params``
    speak of it), a Thing it controls in play, or a card it played during the turn in progress."""
    rule = next((r for r in state.table.special_rules if r.id == cause), None)
    if rule is not None:
        if param in rule.params or mentions(rule.text, param):
            return None
        return f"That Special Rule says nothing of {param}."
    turn = state.table.turn
    if cause not in state.table.player(seat).in_play and (turn is None or turn.played.get(cause) != seat):
        return "Cite a Special Rule, a Thing you control in play or a card you played this turn."
    if not mentions(state.table.cards[cause].text, param):
        return f"That card's text says nothing of {param}."
    return None
