"""The ``article_ii`` ruleset: "Article II, updated", the election game, played automatically.

Read it beside the deck's own rules. The game has two phases, the Primary Election and the General Election;
in each, every player draws seven cards, a random player starts, and players take turns playing one card each
on any player (themselves included) until every hand is empty. The engine reads each card's effect from its
text (``cards``) and carries it out: Electability and Affiliation change, a Style replaces the
player's old one, "Draw two cards" and "Remove one card from play" happen. After the Primary the two highest
totals become Candidates and the rest Spoilers; after the General the President is elected and wins, or,
when nobody can be (two players, neither positive), the game ends with the outcome ``no_president``.

Commands: ``play`` {card, target: seat, remove?: a card in play in front of the target (Voter ADHD; without
it the server removes the only card there, or asks with ``remove`` when there are several), remove_before?: a
card played on you (the Teflon Wonder)}; ``remove`` {card} (the card Voter ADHD removes, when it was left to
choose); ``pass`` and ``end_turn`` (the same: end the turn once its card is played, which the Insider's second
card makes optional, or decline the Great Debater's reply). A turn is always a card: "Each player takes turns
playing one card each until the hands are exhausted", and there is always one to play, since "A card may be
played on any player, including the one playing the card"; a player with an empty hand is skipped. The Basic
Rules' draw, discard and effect moves do not exist here.

The deck's Variation (``options.variation: "parties"``): four players in two parties play a match of four
elections in one game, scoring points; "After four games, the player with the most points wins".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dvorak_core.errors import DomainError
from dvorak_engine import bodies, clock
from dvorak_engine.cards import (
    Card,
    card_json,
    cards_from_json,
    copy_deck_cards,
    deck_special_rules,
    hide_unseen_cards,
    published_deck,
)
from dvorak_engine.events import Event
from dvorak_engine.rng import Rng
from dvorak_engine.ruleset import COUNT, PUBLIC, CommandContext, Ruleset, Unfolding, applies, command, redacts
from dvorak_engine.rulesets.article_ii import bodies as declared
from dvorak_engine.rulesets.article_ii.cards import (
    PARTIES_GAMES,
    PARTIES_PLAYERS,
    Attributes,
    Style,
    candidate_points,
    choose_candidates,
    compute_attributes,
    effect_of,
    elect_president,
    most_points,
    president_points,
    primary_totals,
)
from dvorak_engine.rulesets.article_ii.moves import article_ii_moves
from dvorak_engine.state import ACTIVE, ELIMINATED, FINISHED, VOTING, GameState, teams
from dvorak_engine.values import replace
from dvorak_engine.visibility import Seen, counted, derived, lookup, owner, public

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
# The deck's Variation, as ``options.variation`` names it.
PARTIES = "parties"
VARIATIONS = (PARTIES,)
PARTY_NAMES = ("Party A", "Party B")
MATCH_WON = "After four games, the player with the most points wins."


# --- the state ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Player:
    """What one seat has: a hand, the cards played on them (in front of them), Electability and Affiliation."""

    seat: int = public()
    hand: tuple[str, ...] = owner(())
    in_play: tuple[str, ...] = public(())
    counters: dict[str, int] = public(default_factory=dict)

    @derived
    def hand_count(self) -> int:
        """How many cards the hand holds: everyone sees its size, only its holder its cards."""
        return len(self.hand)


@dataclass(frozen=True)
class Turn:
    seat: int = public()
    # The cards played this turn (an Insider may play two).
    things_played: int = public(0)


@dataclass(frozen=True)
class ArticleIIState:
    """The election's table. ``reply``: a Great Debater's offered reply ({"seat", "to"}); ``removal``: a card
    that removes a card from play, waiting for its player to name which ({"seat", "target", "cause", "from",
    "reply"}); ``roles``: each seat's ``candidate`` or ``spoiler`` once the Primary is over; ``results``: each
    phase's totals. The party Variation adds ``parties`` (name → seats), the ``election`` being played (1 to 4),
    each seat's ``points`` and the ``elections`` already over."""

    variant: str = public("standard")
    creative: bool = public(False)
    deck: dict[str, Any] = public(default_factory=dict)
    # Every card of the game by its id, those in hands and in the draw pile too: read by the ids a viewer is shown.
    cards: dict[str, Card] = lookup(default_factory=dict)
    special_rules: tuple[dict[str, Any], ...] = public(())
    base_rules: dict[str, Any] = public(default_factory=lambda: dict(RULES))
    blank_cards: int = public(0)
    players: tuple[Player, ...] = public(())
    turn: Turn | None = public(None)
    draw_pile: tuple[str, ...] = counted(())
    discard_pile: tuple[str, ...] = public(())
    started: bool = public(False)
    phase: str | None = public(None)
    reply: dict[str, int] | None = public(None)
    removal: dict[str, Any] | None = public(None)
    # The server's own (the view shows them in ``results`` and ``roles``).
    candidates: tuple[int, ...] = ()
    roles: tuple[str | None, ...] = public(())
    results: dict[str, Any] = public(default_factory=dict)
    parties: dict[str, tuple[int, ...]] = public(default_factory=dict)
    election: int = public(0)
    points: tuple[int, ...] = public(())
    elections: tuple[dict[str, Any], ...] = public(())
    outcome: dict[str, Any] | None = public(None)

    @derived
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


# --- reading the state --------------------------------------------------------------------------------------


def style_card(state: GameState | Seen, seat: int) -> str | None:
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


def acting_seat(state: GameState | Seen) -> int | None:
    """Who must act now: a player naming the card their Voter ADHD removes, else a Great Debater offered a
    reply, else the player whose turn it is."""
    table = state.table
    if table is None:
        return None
    seat: int | None
    if table.removal is not None:
        seat = table.removal["seat"]
    elif table.reply is not None:
        seat = table.reply["seat"]
    else:
        seat = None if table.turn is None else table.turn.seat
    return seat


def plays_parties(state: GameState) -> bool:
    return state.options.get("variation") == PARTIES


def cards_per_turn(state: GameState, seat: int) -> int:
    # "While an Insider ... you may play two cards each turn".
    return 2 if style_of_seat(state, seat) is Style.INSIDER else 1


def standing(state: GameState | Seen, seat: int) -> bool:
    """Whether a seat is still in the game: not out of it since its clock ran out."""
    return state.seat(seat).status != ELIMINATED


def _first_holding_cards(state: GameState, start: int) -> int | None:
    """The first player from ``start`` on who still holds cards and is still in the game."""
    count = len(state.seats)
    for step in range(count):
        seat = (start + step) % count
        if state.table.player(seat).hand and standing(state, seat):
            return seat
    return None


# --- deciding, one event at a time ---------------------------------------------------------------------------


class _Unfolding(Unfolding):
    ruleset: ArticleIIRuleset

    def draw(self, seat: int, count: int = 1) -> None:
        for _ in range(count):
            self.extend(self.ruleset._draw_one(self.state, seat, self.rng))


class ArticleIIRuleset(Ruleset):
    """Article II's procedure replaces the Basic Rules: none of their commands (no draw, discard or effect
    moves), only ``play``, ``remove``, ``pass`` and ``end_turn``."""

    name = "article_ii"
    deck_title_phrases = ("article ii",)
    # The deck's Special Rules this module carries out (by their opening words): see Ruleset.
    special_rules_carried = (
        'This game happens in two phases--Primary Election and General Election.',
        'In each phase, each player draws seven cards.',
        'Cards may affect one of two attributes of a player',
        'Some cards apply a Style to a candidate.',
        'After the Primary Election, add your Affiliation to your Electability.',
        'Divide the four players into two parties, and count points.',
    )
    max_players = MAX_PLAYERS
    State = ArticleIIState

    # --- Preparing the game ---------------------------------------------------------------------------------

    def created(self, *, deck: dict[str, Any], variant: str, creative: bool, options: dict[str, Any], rng: Rng) -> dict[str, Any]:
        """The deck copied in (the same record as a ``dvorak`` game's, which an Article II game once was)."""
        rules = {param: options.get(param, value) for param, value in RULES.items()}
        blank_cards = options.get("blank_cards", 100 if creative else 0)
        if not isinstance(blank_cards, int) or isinstance(blank_cards, bool) or blank_cards < 0:
            raise DomainError("\"options.blank_cards\" must be a whole number, 0 or more.", code="invalid",
                              details={"field": "options.blank_cards"})
        variation = options.get("variation")
        if variation is not None and variation not in VARIATIONS:
            raise DomainError(f"\"options.variation\" is one of: {', '.join(VARIATIONS)}.", code="invalid",
                              details={"field": "options.variation", "variations": list(VARIATIONS)})
        return {"options": {key: value for key, value in options.items() if key != "player_deck"},
                "deck": {"slug": deck.get("slug", ""), "title": deck.get("title", "")},
                "cards": copy_deck_cards(deck, rng), "deck_cards": [], "special_rules": deck_special_rules(deck),
                "rules": rules, "blank_cards": blank_cards}

    def joined(self, state: GameState, *, seat: int, team: str | None, body: dict[str, Any], rng: Rng) -> dict[str, Any]:
        """In the party Variation, "Divide the four players into two parties": a game of four seats, and a
        ``team`` a joiner names is their party (two parties of two; the server divides the rest at start).
        The creator's own join checks the seats, so a game that could never be played is not created."""
        if not plays_parties(state):
            return {}
        if state.max_players != PARTIES_PLAYERS:
            raise DomainError("The parties Variation divides four players into two parties: \"max_players\" "
                              "must be 4.", code="invalid",
                              details={"field": "max_players", "max_players": PARTIES_PLAYERS})
        if team is not None:
            named = teams(state)
            if team not in named and len(named) >= 2:
                raise DomainError("There are two parties, and both are named.", code="invalid",
                                  details={"field": "team", "parties": sorted(named)})
            if len(named.get(team, [])) >= PARTIES_PLAYERS // 2:
                raise DomainError("That party already has its two players.", code="limit_reached",
                                  details={"field": "team"})
        return {}

    # --- Drawing ---------------------------------------------------------------------------------------------

    def _draw_one(self, state: GameState, seat: int, rng: Rng) -> list[Event]:
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

    def setup(self, state: GameState, rng: Rng) -> list[Event]:
        if plays_parties(state) and len(state.seats) != PARTIES_PLAYERS:
            raise DomainError("The parties Variation is played by four players.", code="not_enough_players",
                              details={"min_players": PARTIES_PLAYERS})
        draw_pile = list(state.table.cards)
        rng.shuffle(draw_pile)
        unfolding = _Unfolding(self, state, rng)
        unfolding.add("game.started", {"draw_pile": draw_pile, "counters": dict(ATTRIBUTE_COUNTERS)})
        if plays_parties(state):
            unfolding.add("parties.formed", {"parties": self._divide_into_parties(state, rng)})
            unfolding.add("election.began", {"election": 1})
        self._start_phase(unfolding, PRIMARY)
        return unfolding.events

    def _divide_into_parties(self, state: GameState, rng: Rng) -> list[dict[str, Any]]:
        """"Divide the four players into two parties": the parties the players named when they joined, the
        others' seats drawn at random to fill two parties of two."""
        parties = {name: list(seats) for name, seats in teams(state).items()}
        for name in PARTY_NAMES:
            if len(parties) < 2 and name not in parties:
                parties[name] = []
        free = [seat.seat for seat in state.seats if seat.team is None]
        rng.shuffle(free)
        for seats in parties.values():
            while len(seats) < PARTIES_PLAYERS // 2:
                seats.append(free.pop())
        return [{"name": name, "seats": sorted(seats)} for name, seats in parties.items()]

    def _start_phase(self, unfolding: _Unfolding, phase: str) -> None:
        """"In each phase, each player draws seven cards. Randomly determine a starting player." """
        unfolding.add("phase.began", {"phase": phase})
        hand_size = int(unfolding.state.table.base_rules.get("starting_hand") or 0)
        for _ in range(hand_size):
            for player in unfolding.state.table.players:
                if standing(unfolding.state, player.seat):  # a player out of the game is dealt nothing
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
        if state.table.turn.things_played < cards_per_turn(state, seat) and state.table.player(seat).hand \
                and standing(state, seat):
            return
        self._next_turn(unfolding, start=seat + 1)

    # --- Phases ---------------------------------------------------------------------------------------------

    def _end_phase(self, unfolding: _Unfolding) -> None:
        state = unfolding.state
        current = attributes(state)
        # A player out of the game (their clock ran out) is no longer elected: their cards still count in play.
        running = {seat: values for seat, values in current.items() if standing(state, seat)}
        if state.table.phase == PRIMARY:
            # Only equal totals need it: the order that decides who of them becomes a Candidate.
            tiebreak = [p.seat for p in state.table.players]
            unfolding.rng.shuffle(tiebreak)
            candidates = choose_candidates(running, tiebreak)
            totals = primary_totals(current)
            unfolding.add("phase.ended", {
                "phase": PRIMARY,
                "totals": [{"seat": seat, "total": total} for seat, total in sorted(totals.items())],
                "candidates": candidates,
                "spoilers": [seat for seat in sorted(running) if seat not in candidates],
                "tiebreak": tiebreak,
            })
            if plays_parties(state):
                self._score(unfolding, candidate_points(candidates), "candidate")
            self._start_phase(unfolding, GENERAL)
            return
        election = elect_president(running, _styles(state),
                                   [seat for seat in state.table.candidates if seat in running])
        unfolding.add("phase.ended", {
            "phase": GENERAL,
            "totals": [{"seat": seat, "total": total} for seat, total in sorted(election.totals.items())],
            "decided_by": election.decided_by,
            "outcome": election.outcome,
            "president": election.winners,
            "reason": election.reason,
        })
        if plays_parties(state):
            self._end_election(unfolding, election.winners)
            return
        unfolding.add("game.finished", {"winners": election.winners, "decided_by": election.decided_by,
                                        "outcome": election.outcome, "reason": election.reason})

    # --- The party Variation: four elections, points ------------------------------------------------------------

    def _score(self, unfolding: _Unfolding, gains: dict[int, int], reason: str) -> None:
        if gains:
            unfolding.add("points.scored", {"election": unfolding.state.table.election, "for": reason,
                                            "gains": [{"seat": s, "points": p} for s, p in sorted(gains.items())]})

    def _end_election(self, unfolding: _Unfolding, presidents: list[int]) -> None:
        """The President's points, then the next of the four games, or the match's end: "After four games, the
        player with the most points wins"."""
        self._score(unfolding, president_points(presidents, unfolding.state.table.parties), "president")
        table = unfolding.state.table
        if table.election < PARTIES_GAMES:
            # Each game is played with the whole deck again: every card back, shuffled.
            draw_pile = list(table.cards)
            unfolding.rng.shuffle(draw_pile)
            unfolding.add("election.began", {"election": table.election + 1, "draw_pile": draw_pile})
            self._start_phase(unfolding, PRIMARY)
            return
        unfolding.add("game.finished", {
            "winners": most_points(table.points, [seat.seat for seat in unfolding.state.seats
                                                  if standing(unfolding.state, seat.seat)]),
            "decided_by": "points", "outcome": "most_points",
            "points": [{"seat": seat, "points": points} for seat, points in enumerate(table.points)],
            "reason": MATCH_WON})

    # --- Playing a card -------------------------------------------------------------------------------------

    def _require_acting(self, state: GameState, seat: int) -> None:
        if acting_seat(state) != seat:
            raise DomainError("It is not your turn.", code="not_your_turn")

    def _require_no_removal(self, state: GameState) -> None:
        removal = state.table.removal
        if removal is not None:
            raise DomainError("First name the card your Voter ADHD removes from play: "
                              "{\"type\": \"remove\", \"card\": <id>}.", code="wrong_stage",
                              details={"stage": "remove", "remove": list(removal["from"])})

    @command("play", body=declared.PLAY)
    def play(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        """One card from your hand, played on any player (yourself included), its effect carried out."""
        seat = ctx.player_seat
        self._require_acting(state, seat)
        self._require_no_removal(state)
        card_id = bodies.text(command_body, "card")
        self._require_in_hand(state, seat, card_id)
        target = bodies.seat(state, command_body, "target")
        if not standing(state, target):
            raise DomainError("That player is out of the game.", code="denied", details={"target": target})
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
        if effect.style is not None:
            # A Style replaces any existing Style.
            for old in unfolding.state.table.player(target).in_play:
                if old != card_id and effect_of(unfolding.state.table.cards[old]).style is not None:
                    unfolding.add("card.removed", {"card": old, "seat": target, "cause": card_id})
        if effect.removes:
            if not self._remove_from_play(unfolding, state, command_body, seat, card_id, target, reply is not None):
                return unfolding.events  # its player names the card to remove first
        elif "remove" in command_body:
            raise DomainError("This card removes nothing from play.", code="invalid", details={"field": "remove"})
        self._check_outsider(state, unfolding.state, seat, target)
        self._finish_play(unfolding, seat, card_id, target, reply is not None)
        return unfolding.events

    def _finish_play(self, unfolding: _Unfolding, seat: int, card_id: str, target: int, reply: bool) -> None:
        """What follows a card once its removal, if any, is done: the target's draws, the attributes, the
        draw after a reply or an Insider's second card, a Great Debater's reply, the next turn."""
        unfolding.draw(target, effect_of(unfolding.state.table.cards[card_id]).draws)
        self._record_attributes(unfolding)
        # The Great Debater's reply and the Insider's second card are each followed by a draw.
        if (reply or unfolding.state.table.turn.things_played == 2) and standing(unfolding.state, seat):
            unfolding.draw(seat)
        if target != seat and style_of_seat(unfolding.state, target) is Style.GREAT_DEBATER \
                and unfolding.state.table.player(target).hand and standing(unfolding.state, seat):
            unfolding.add("reply.offered", {"seat": target, "to": seat})
        else:
            self._continue_turn(unfolding)

    def _teflon_removal(self, unfolding: _Unfolding, command_body: dict[str, Any], seat: int) -> None:
        """The Teflon Wonder: "Before playing a card, you may remove a card that's been played on you"."""
        state = unfolding.state
        if style_of_seat(state, seat) is not Style.TEFLON_WONDER:
            raise DomainError("Only the Teflon Wonder removes a card before playing.",
                              code="denied", details={"field": "remove_before"})
        removed = bodies.text(command_body, "remove_before")
        if removed not in state.table.player(seat).in_play:
            raise DomainError("\"remove_before\" must name a card played on you.",
                              code="invalid", details={"field": "remove_before"})
        unfolding.add("card.removed", {"card": removed, "seat": seat, "cause": style_card(state, seat)})

    def _removal_choices(self, before: GameState, played: GameState, seat: int, card_id: str,
                         target: int) -> list[str]:
        """The cards in front of the target this play may remove: any, except that an Outsider's play on
        another player may not end by lowering that player's Affiliation."""
        return [card for card in played.table.player(target).in_play if not self._lowers_affiliation(
            before, self.evolve(played, Event("card.removed", {"card": card, "seat": target, "cause": card_id})),
            seat, target)]

    def _remove_from_play(self, unfolding: _Unfolding, before: GameState, command_body: dict[str, Any], seat: int,
                          card_id: str, target: int, reply: bool) -> bool:
        """Voter ADHD: "Remove one card from play", a card in front of the player it is played on. The player
        names it in ``remove``; without it, the server removes the only card there is, and when there are
        several the play waits for the player's ``remove``. Returns whether the play may go on."""
        in_front = unfolding.state.table.player(target).in_play
        choices = self._removal_choices(before, unfolding.state, seat, card_id, target)
        if "remove" in command_body:
            removed = command_body["remove"]
            if not in_front:
                raise DomainError("No card is in play in front of that player.", code="invalid",
                                  details={"field": "remove"})
            if removed not in in_front:
                raise DomainError("\"remove\" must name a card in play in front of the target.",
                                  code="invalid", details={"field": "remove"})
            if removed not in choices:
                raise DomainError("An Outsider may not decrease another player's Affiliation.",
                                  code="denied", details={"target": target})
        elif not in_front:
            return True  # nothing in play there: the card is played, and removes nothing
        elif len(choices) > 1:
            self._record_attributes(unfolding)
            unfolding.add("removal.pending", {"seat": seat, "target": target, "cause": card_id, "from": choices,
                                              "reply": reply})
            return False
        elif choices:
            removed = choices[0]
        else:
            raise DomainError("An Outsider may not decrease another player's Affiliation.",
                              code="denied", details={"target": target})
        unfolding.add("card.removed", {"card": removed, "seat": target, "cause": card_id})
        return True

    @command("remove", body=declared.REMOVE)
    def remove(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        """The card a Voter ADHD played without ``remove`` takes out of play, when there was a choice."""
        removal = state.table.removal
        if removal is None:
            raise DomainError("No card is waiting to be removed: a card that removes one names it in play's "
                              "\"remove\".", code="wrong_stage", details={"stage": PLAY})
        self._require_acting(state, ctx.player_seat)
        removed = bodies.text(command_body, "card")
        if removed not in removal["from"]:
            raise DomainError("\"card\" must be one of the cards this removal may take out of play.",
                              code="invalid", details={"field": "card", "from": list(removal["from"])})
        unfolding = _Unfolding(self, state, ctx.rng)
        unfolding.add("card.removed", {"card": removed, "seat": removal["target"], "cause": removal["cause"]})
        self._finish_play(unfolding, removal["seat"], removal["cause"], removal["target"], removal["reply"])
        return unfolding.events

    def _lowers_affiliation(self, before: GameState, after: GameState, seat: int, target: int) -> bool:
        """An Outsider "may not play cards on other players that would decrease their Affiliation"."""
        if target == seat or style_of_seat(before, seat) is not Style.OUTSIDER:
            return False
        return attributes(after)[target].affiliation < attributes(before)[target].affiliation

    def _check_outsider(self, before: GameState, after: GameState, seat: int, target: int) -> None:
        if self._lowers_affiliation(before, after, seat, target):
            raise DomainError("An Outsider may not decrease another player's Affiliation.",
                              code="denied", details={"target": target})

    def _record_attributes(self, unfolding: _Unfolding) -> None:
        """Electability and Affiliation are changed by the engine: one event per player whose values moved."""
        for seat, values in attributes(unfolding.state).items():
            counters = {"electability": values.electability, "affiliation": values.affiliation}
            player = unfolding.state.table.player(seat)
            if any(player.counters.get(name) != value for name, value in counters.items()):
                unfolding.add("attributes.changed", {"seat": seat, **counters})

    # --- Ending a turn --------------------------------------------------------------------------------------

    @command("pass", body=declared.PASS)
    def pass_(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        """Decline a Great Debater's reply, or an Insider's second card: end what is yours to do now. A turn
        is a card ("Each player takes turns playing one card each until the hands are exhausted"), so before
        it nothing may be passed."""
        self._require_acting(state, ctx.player_seat)
        self._require_no_removal(state)
        unfolding = _Unfolding(self, state, ctx.rng)
        if state.table.reply is not None:
            unfolding.add("reply.passed", {"seat": ctx.player_seat})
            self._continue_turn(unfolding)
        elif state.table.turn.things_played == 0:
            raise DomainError("Play a card first: every turn is one card, which may be played on any player, "
                              "yourself included. Only an Insider's second card or a Great Debater's reply may be "
                              "declined.", code="wrong_stage", details={"stage": PLAY})
        else:
            self._next_turn(unfolding, start=ctx.player_seat + 1)
        return unfolding.events

    @command("end_turn", body=declared.END_TURN)
    def end_turn(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        """``pass`` under the name a ``dvorak`` game's turn ends with: accepted wherever ``pass`` is."""
        return self.pass_(state, command_body, ctx)

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
        removal = state.table.removal
        if removal is not None and removal["cause"] == event.data["cause"]:
            removal = None  # the removal that was waiting is done
        return state.with_table(discard_pile=(*state.table.discard_pile, event.data["card"]), removal=removal)

    @applies("removal.pending", shows=dict.fromkeys(("seat", "target", "cause", "from", "reply"), PUBLIC))
    def apply_removal_pending(self, state: GameState, event: Event) -> GameState:
        data = event.data
        return state.with_table(removal={"seat": data["seat"], "target": data["target"], "cause": data["cause"],
                                         "from": list(data["from"]), "reply": data["reply"]})

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
        ("phase", "totals", "candidates", "spoilers", "tiebreak", "decided_by", "outcome", "president", "reason"),
        PUBLIC))
    def apply_phase_ended(self, state: GameState, event: Event) -> GameState:
        data = event.data
        result = {key: value for key, value in data.items() if key != "phase"}
        state = state.with_table(results={**state.table.results, data["phase"]: result}, turn=None)
        if data["phase"] == PRIMARY:
            candidates = data["candidates"]
            state = state.with_table(candidates=tuple(candidates), roles=tuple(
                CANDIDATE if seat.seat in candidates else SPOILER for seat in state.seats))
        elif state.table.parties:
            # The General closes one game of the party Variation's four: it joins the match's record.
            table = state.table
            record = {"election": table.election, "candidates": list(table.candidates),
                      "president": list(data.get("president", [])), "outcome": data.get("outcome")}
            state = state.with_table(elections=(*table.elections, record))
        return state

    @applies("game.finished", shows=dict.fromkeys(("winners", "decided_by", "outcome", "reason", "points"), PUBLIC))
    def apply_game_finished(self, state: GameState, event: Event) -> GameState:
        data = event.data
        # Games finished before the outcome was stated have none (a reader falls back on ``decided_by``).
        outcome = {key: data[key] for key in ("outcome", "decided_by", "reason") if key in data} or None
        return replace(state, status=FINISHED, winners=tuple(data["winners"])).with_table(turn=None, outcome=outcome)

    # --- the party Variation ------------------------------------------------------------------------------------

    @applies("parties.formed", shows={"parties": PUBLIC})
    def apply_parties_formed(self, state: GameState, event: Event) -> GameState:
        parties = {party["name"]: tuple(party["seats"]) for party in event.data["parties"]}
        # A party is a team: each seat shows it as its ``team``, as a team game's seats do.
        for name, seats in parties.items():
            for seat in seats:
                state = state.with_seat(replace(state.seat(seat), team=name))
        return state.with_table(parties=parties, points=(0,) * len(state.seats))

    @applies("election.began", shows={"election": PUBLIC, "draw_pile": COUNT})
    def apply_election_began(self, state: GameState, event: Event) -> GameState:
        """One of the four games begins; after the first, with every card back in a new draw pile."""
        data = event.data
        table = state.table
        if "draw_pile" not in data:
            return state.with_table(election=data["election"])
        players = tuple(replace(p, hand=(), in_play=(), counters={**p.counters, **ATTRIBUTE_COUNTERS})
                        for p in table.players)
        return state.with_table(
            election=data["election"], draw_pile=tuple(data["draw_pile"]), discard_pile=(), players=players,
            turn=None, phase=None, reply=None, removal=None, candidates=(), roles=(None,) * len(state.seats),
            results={})

    @applies("points.scored", shows=dict.fromkeys(("election", "for", "gains"), PUBLIC))
    def apply_points_scored(self, state: GameState, event: Event) -> GameState:
        points = list(state.table.points)
        for gain in event.data["gains"]:
            points[gain["seat"]] += gain["points"]
        return state.with_table(points=tuple(points))

    @applies("game.won_on_time")
    def apply_won_on_time(self, state: GameState, event: Event) -> GameState:
        """The game ended by the clock (the core set its status and winners): nobody's turn, reply or removal
        is awaited any more."""
        return state.with_table(turn=None, reply=None, removal=None)

    def legal_moves(self, state: GameState, seat: int) -> list[dict[str, Any]]:
        return article_ii_moves(self, state, seat, acting_seat(state) if state.status == ACTIVE else None)

    # --- live tables: clocks, undo, computer players -----------------------------------------------------------

    # "Each player draws seven cards", and the cards "Draw two cards" gives: a card drawn is shown to its drawer.
    reveals = frozenset({"card.drawn"})

    def awaited(self, state: GameState) -> tuple[int, ...]:
        """The one seat that must act (``acting_seat``): the player naming their Voter ADHD's card, a Great
        Debater offered a reply, else the player whose turn it is."""
        if state.status not in (ACTIVE, VOTING):
            return ()
        seat = acting_seat(state)
        return () if seat is None or not standing(state, seat) else (seat,)

    def timed_out(self, state: GameState, seats: list[int], ctx: CommandContext) -> list[Event]:
        """The game goes on without the seats whose time ran out: a Voter ADHD waiting for its player removes a
        card the server draws among those it could take, and the play goes on; a Great Debater's reply is passed;
        a turn passes to the next player still in the game holding cards (``_next_turn``, which skips the players
        out of it, as the deal and the elections do). With one side left the core ends the game."""
        if len(clock.sides_standing(state)) <= 1:
            return []
        out = set(seats)
        unfolding = _Unfolding(self, state, ctx.rng)
        table = state.table
        if table.removal is not None and table.removal["seat"] in out:
            removal = table.removal
            card = removal["from"][ctx.rng.randbelow(len(removal["from"]))]
            unfolding.add("card.removed", {"card": card, "seat": removal["target"], "cause": removal["cause"]})
            self._finish_play(unfolding, removal["seat"], removal["cause"], removal["target"], removal["reply"])
        elif table.reply is not None and table.reply["seat"] in out:
            unfolding.add("reply.passed", {"seat": table.reply["seat"]})
            self._continue_turn(unfolding)
        elif table.reply is None and table.removal is None and table.turn is not None and table.turn.seat in out:
            self._next_turn(unfolding, start=table.turn.seat + 1)
        return unfolding.events

    def evaluate(self, view: dict[str, Any], seat: int) -> float:
        """How far ahead ``seat`` is of its best opponent (a player still in the game, not of its party), by the
        Electability and Affiliation every player shows: in the General's terms (Electability less Affiliation),
        and while the Primary runs among three or more, also in the Primary's (their sum) against the opponent it
        must pass to become a Candidate. In the party Variation, its party's points ahead of the other's count
        ten each."""
        players = [p for p in view.get("players", ()) if p.get("status") != ELIMINATED]
        me = next((p for p in players if p.get("seat") == seat), None)
        if me is None:
            return 0.0
        others = [p for p in players if p.get("seat") != seat and (me.get("team") is None
                                                                    or p.get("team") != me.get("team"))]
        if not others:
            return 0.0

        def attribute(player: dict[str, Any], name: str) -> int:
            return (player.get("counters") or {}).get(name) or 0

        def general(player: dict[str, Any]) -> int:
            return attribute(player, "electability") - attribute(player, "affiliation")

        def primary(player: dict[str, Any]) -> int:
            return attribute(player, "electability") + attribute(player, "affiliation")

        value = float(general(me) - max(general(p) for p in others))
        if view.get("phase") == PRIMARY and len(players) > 2:
            rivals = sorted((primary(p) for p in players if p.get("seat") != seat), reverse=True)
            value += primary(me) - rivals[min(1, len(rivals) - 1)]
        match = view.get("match")
        if match:
            parties = match.get("parties") or []
            mine = sum(party["points"] for party in parties if seat in party["seats"])
            theirs = max((party["points"] for party in parties if seat not in party["seats"]), default=0)
            value += 10 * (mine - theirs)
        return value

    def deck_after_game(self, state: GameState) -> dict[str, Any]:
        """Article II's cards are not changed in play: the deck as it was copied in."""
        table = state.table
        return published_deck(state, [(card, None) for card in table.cards.values()],
                              table.special_rules)

    # --- What each viewer sees ------------------------------------------------------------------------------

    def shown(self, state: Seen, viewer: int | None) -> dict[str, Any]:
        """The same JSON as a ``dvorak`` game's (a client reads both alike), and the election: each player's
        Style and role, the phase, an offered reply, who must act, and each phase's results."""
        table = state.table
        turn = table.turn
        view: dict[str, Any] = {
            "variant": table.variant,
            "creative": table.creative,
            "deck": table.deck,
            "turn": None if turn is None else {"seat": turn.seat, "stage": PLAY,
                                               "things_played": turn.things_played, "actions_played": 0},
            "players": [self._player_view(state, seat.seat, viewer) for seat in state.seats],
            "teams": teams(state),
            "draw_pile": {"count": len(table.draw_pile)},
            "discard_pile": [card_json(table.cards[card_id]) for card_id in table.discard_pile],
            "blank_cards": table.blank_cards,
            "rules": table.base_rules,
            "modifiers": [],
            "special_rules": [{"id": r["id"], "title": r["title"], "text": r["text"]} for r in table.special_rules],
            "proposals": [],
            "rejected": [],
        }
        if table.started:
            removal = table.removal
            view.update({"phase": table.phase, "reply": table.reply, "acting": acting_seat(state),
                         "removal": None if removal is None else {
                             key: removal[key] for key in ("seat", "target", "cause", "from")},
                         "results": table.results, "outcome": table.outcome})
            if table.parties:
                view["match"] = self._match_view(state)
        return view

    def _match_view(self, state: Seen) -> dict[str, Any]:
        """The party Variation's match: which of the four games is being played, each party's members and
        points (its members' sum), each player's points, and the games already over."""
        table = state.table
        return {
            "variation": PARTIES, "election": table.election, "elections": PARTIES_GAMES,
            "parties": [{"name": name, "seats": list(seats), "points": sum(table.points[s] for s in seats)}
                        for name, seats in table.parties.items()],
            "points": [{"seat": seat, "points": points} for seat, points in enumerate(table.points)],
            "history": list(table.elections),
        }

    def _player_view(self, state: Seen, seat: int, viewer: int | None) -> dict[str, Any]:
        table, person = state.table, state.seat(seat)
        player = table.player(seat)
        view: dict[str, Any] = {
            "seat": seat, "username": person.username, "team": person.team, "hand_count": player.hand_count(),
            "in_play": [{**card_json(table.cards[c]), "attached": []} for c in player.in_play],
            "counters": dict(player.counters), "status": person.status,
        }
        if seat == viewer:
            view["hand"] = [card_json(table.cards[card_id]) for card_id in player.hand]
        if table.started:
            card_id = style_card(state, seat)
            view["style"] = None
            if card_id is not None:
                style = effect_of(table.cards[card_id]).style
                assert style is not None, "style_card names a card with a style"
                view["style"] = {"card": card_id, "title": table.cards[card_id].title, "name": style.value}
            view["role"] = table.roles[seat]
        return view

    def redact_event(self, event: Event, shown: dict[str, Any], viewer: int | None, before: GameState | None,
                     after: GameState) -> dict[str, Any]:
        visible = cards_visible_to(after, viewer)
        if before is not None and before.table is not None:
            visible |= cards_visible_to(before, viewer)
        result: dict[str, Any] = hide_unseen_cards(shown, after.table.cards, visible)
        return result

    @redacts("game.created")
    def view_game_created(self, event: Event, shown: dict[str, Any], viewer: int | None, before: GameState | None,
                          after: GameState) -> dict[str, Any]:
        return shown
