"""Random games of random cards the server understands (and a few it does not) never leave the server in a state
its rules forbid, whatever the game's ``unread_effects`` option.

The decks are drawn from real card texts (the archive's seed and sample decks, the rulebook's example cards) that
the reader understands in full, plus a few it does not (so claims are opened); the Special Rules from ones that
set rule parameters ("Hand size is three instead of five.") and win conditions. Each step a random seat sends a
random command from ``legal_moves``, or an effect move citing a random card it can see (which may be refused).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dvorak_core.effects import read_card, read_special_rule
from dvorak_engine import (
    DomainError,
    SeededRng,
    create_game,
    decide,
    evolve,
    legal_moves,
    replay,
    state_from_json,
    state_to_json,
    view_event,
    view_state,
)
from dvorak_engine.rulesets.dvorak.effects import ALLOWED, MOVE_KINDS, UNSURE, effect_of, verdict
from dvorak_engine.rulesets.dvorak.precedence import rule_value
from dvorak_engine.rulesets.dvorak.state import (
    BASIC_RULES,
    all_discard_piles,
    all_draw_piles,
    cards_in_the_deck,
    cards_in_zones,
    cards_visible_to,
)
from dvorak_engine.state import ACTIVE, FINISHED, PLAYING, VOTING, GameState, seats_standing
from tests.engine.dvorak_games import actors, legal_commands
from tests.sizes import size

from .conftest import Table

ROOT = Path(__file__).resolve().parents[2]
CLAIM_ANSWERS = {"accept", "dispute", "vote"}
STEPS = 90

# Texts the reader does not understand: citing such a card under claim/vote opens a claim.
UNREAD = [
    {"title": "Moonbeam", "type": "Thing", "text": "Glows faintly under a harvest sky, mysteriously."},
    {"title": "Omen", "type": "Action", "text": "The stars decide who triumphs."},
    {"title": "Riddle", "type": "Thing", "text": "Whoever answers the riddle of the sphinx may do as they please."},
]
# Common Action texts (the rulebook's "Draw a card" and the like) the server carries out when played.
ACTIONS = [
    {"title": "Windfall", "type": "Action", "text": "Draw two cards."},
    {"title": "Tax Refund", "type": "Action", "text": "Gain 2 gold."},
    {"title": "Scribble", "type": "Action", "text": "Draw a card."},
    {"title": "Butterfingers", "type": "Action", "text": "Discard a card from your hand."},
    # Carried out whole by the server, with their choices in the legal moves.
    {"title": "Feast", "type": "Action", "text": "Each player draws a card."},
    {"title": "Favour", "type": "Action", "text": "A player of your choice draws two cards."},
    {"title": "Purge", "type": "Action", "text": "Discard two cards at random."},
    {"title": "Riot", "type": "Action", "text": "Each opponent discards a card at random."},
    {"title": "Smite", "type": "Action", "text": "Destroy target Thing."},
    {"title": "Earthquake", "type": "Action", "text": "Destroy all Ministries."},
    {"title": "Grave Digging", "type": "Action", "text": "Take a card from the discard pile."},
    {"title": "Charity", "type": "Action", "text": "Give two cards from your hand to an opponent."},
    {"title": "Fine", "type": "Action", "text": "A player of your choice loses 5 points."},
    {"title": "Dice", "type": "Action", "text": "Roll two dice."},
    {"title": "Reshuffle", "type": "Action", "text": "Shuffle the discard pile into the draw pile."},
    {"title": "Swap", "type": "Action", "text": "Discard a card, then draw two cards."},
    {"title": "Again", "type": "Action", "text": "Take an extra turn."},
    {"title": "Box", "type": "Thing", "text": "When this card comes into play, draw two cards."},
    {"title": "Mint", "type": "Thing", "text": "When this card comes into play, gain 3 gold."},
    {"title": "Greedy Goblin", "type": "Thing", "text": "Your hand limit is 7."},
    {"title": "Ministry of Magic", "type": "Thing", "text": ""},
    {"title": "Ministry of Truth", "type": "Thing", "text": ""},
    {"title": "Ministry of Silly Walks", "type": "Thing", "text": ""},
]
HAND_RULES = [
    {"title": "Small Hands", "text": "Hand size is three instead of five."},
    {"title": "Big Hands", "text": "Hand size is seven instead of five."},
    {"title": "Four Cards", "text": "The hand limit is four."},
]
OTHER_RULES = [
    {"title": "Victory", "text": "If a player controls three or more Ministries, they win the game."},
    {"title": "Busy Hands", "text": "Each player may play two Actions per turn."},
    {"title": "Prophecy", "text": "The stars decide who triumphs."},  # not understood
]


@cache
def understood_pool() -> list[dict[str, str]]:
    """Card texts of the archive's seed and sample decks and of the rulebook's examples that the reader
    understands in full (each text once), with the Actions above; a Thing's text also as an Action, so the server
    has Actions of real text to carry out."""
    found: list[dict[str, str]] = []
    sources = [*sorted((ROOT / "decks" / "seed_data").glob("*.json")),
               *sorted((ROOT / "decks" / "sample_data").glob("*.json"))]
    cards = [card for path in sources for card in json.loads(path.read_text(encoding="utf-8")).get("cards", [])]
    cards += json.loads((ROOT / "tests" / "fixtures" / "rulebook_example_cards.json").read_text(encoding="utf-8"))
    seen: set[tuple[str, str, str]] = set()
    for card in [*cards, *ACTIONS]:
        for kind in {str(card.get("type") or "Thing"), "Action"}:
            key = (str(card["title"]), kind, str(card.get("text") or ""))
            if key in seen or not read_card(*key).understood:
                continue
            seen.add(key)
            found.append({"title": key[0], "type": key[1], "text": key[2]})
    return found


def test_the_pool_holds_understood_cards_of_every_kind_and_the_rules_read_as_meant():
    pool = understood_pool()
    assert len(pool) > 60
    assert {"Windfall", "Grassroots Tour", "Espionage", "Big Brother"} <= {card["title"] for card in pool}
    assert not any(read_card(c["title"], c["type"], c["text"]).understood for c in UNREAD)
    assert all(read_special_rule(r["title"], r["text"]).understood for r in [*HAND_RULES, *OTHER_RULES[:2]])
    assert not read_special_rule(OTHER_RULES[2]["title"], OTHER_RULES[2]["text"]).understood


def deck_of(picks: list[int], unread: list[int], rules: list[dict]) -> dict:
    pool = understood_pool()
    chosen = [pool[i % len(pool)] for i in picks] + [UNREAD[i] for i in unread]
    cards = [{**card, "flavor": "", "copies": 1, "corner_value": "", "creator": "", "stats": {}} for card in chosen]
    special_rules = [{"id": str(number), **rule} for number, rule in enumerate(rules, start=1)]
    return {"slug": "effect-deck", "title": "Effect Deck", "ruleset": "dvorak", "special_rules": special_rules,
            "cards": cards}


# --- the game -----------------------------------------------------------------------------------------------------


class Game:
    def __init__(self, seed: int, players: int, mode: str, deck: dict, creative: bool = False):
        self.rng = SeededRng(seed)
        self.chooser = random.Random(seed)
        self.mode = mode
        self.people = actors(players)
        self.events = []
        self.state: GameState | None = None
        self.record(create_game(ruleset="dvorak", deck=deck, variant="standard", creative=creative,
                                max_players=players, options={"unread_effects": mode}, creator=self.people[0],
                                rng=self.rng))
        for person in self.people[1:]:
            self.record(decide(self.state, {"type": "join"}, actor=person, rng=self.rng))
        self.record(decide(self.state, {"type": "start"}, actor=self.people[0], rng=self.rng))

    def record(self, events) -> list[GameState]:
        states = []
        for event in events:
            before = self.state
            self.state = evolve(self.state, event)
            self.events.append(event)
            states.append((event, before, self.state))
        return states

    def send(self, seat: int, command: dict) -> list | None:
        """The command's events once applied, or None when refused (a DomainError with a code, nothing changed)."""
        frozen = state_to_json(self.state)
        try:
            events = decide(self.state, command, actor=self.people[seat], rng=self.rng)
        except DomainError as error:
            assert error.code and 400 <= error.status < 500, (command, error)
            assert state_to_json(self.state) == frozen, command
            return None
        assert state_to_json(self.state) == frozen, f"deciding {command} changed the state"
        return events


def effect_moves(state: GameState, seat: int, chooser: random.Random) -> list[dict[str, Any]]:
    """Effect moves citing a random card the seat can see (or a Special Rule): many are not the card's effect."""
    table = state.table
    causes = sorted(cards_visible_to(state, seat) - set(table.player(seat).hand)) + [r.id for r in table.special_rules]
    if not causes:
        return []
    cause = chooser.choice(causes)
    hand = table.player(seat).hand
    others = [s for s in seats_standing(state) if s != seat]
    things = [c for p in table.players for c in p.in_play]
    moves: list[dict[str, Any]] = [
        {"type": "counter", "cause": cause, "seat": seat, "name": "gold", "delta": chooser.randint(1, 3)},
        {"type": "set_rule", "cause": cause, "param": "hand_limit", "value": chooser.randint(2, 7), "seat": seat},
        {"type": "roll", "cause": cause, "dice": "2d6"},
        {"type": "shuffle", "cause": cause, "pile": "draw"},
    ]
    if hand:
        moves.append({"type": "discard", "cause": cause, "cards": [chooser.choice(hand)]})
    if others:
        moves.append({"type": "take_random", "cause": cause, "from": chooser.choice(others)})
    if things:
        moves.append({"type": "destroy", "cause": cause, "card": chooser.choice(things)})
    if all_discard_piles(state):
        moves.append({"type": "move", "cause": cause, "card": all_discard_piles(state)[-1], "to": "hand"})
    # Ends are rarer, so games run long enough to matter.
    if chooser.random() < 0.15:
        moves.append({"type": "win", "cause": cause})
    if others and chooser.random() < 0.03:
        moves.append({"type": "eliminate", "cause": cause, "seat": chooser.choice(others)})
    return moves


def choose(game: Game) -> tuple[int, dict[str, Any]]:
    state, chooser = game.state, game.chooser
    seats = [s.seat for s in state.seats if s.status == PLAYING]
    if state.status == ACTIVE and chooser.random() < 0.3:
        seat = chooser.choice(seats)
        moves = effect_moves(state, seat, chooser)
        if moves:
            return seat, chooser.choice(moves)
    if state.status == ACTIVE and state.table.creative and chooser.random() < 0.06:
        seat = chooser.choice(seats)
        proposals = [c for c in legal_commands(state, seat) if c["type"] == "propose"]
        if proposals:
            return seat, chooser.choice(proposals)
    if state.status == ACTIVE and chooser.random() < 0.7:
        seat = state.table.turn.seat
    else:
        seat = chooser.choice(seats)
    # Giving the game up (``abandon``) is each player's own choice, tested on its own: these players play on.
    listed = [m for m in legal_moves(state, seat) if m["type"] != "abandon"]
    moves = [m for m in listed if m["type"] != "concede" or chooser.random() < 0.05]
    if not moves:
        seat = next(s for s in seats if [m for m in legal_moves(state, s) if m["type"] != "abandon"])
        moves = [m for m in legal_moves(state, seat) if m["type"] != "abandon"]
    return seat, filled(chooser.choice(moves), chooser)


def filled(move: dict[str, Any], chooser: random.Random) -> dict[str, Any]:
    """A listed move with its choices (``{"choose": k, "from": [...], "list": bool}``) made at random."""
    body = {}
    for key, value in move.items():
        if isinstance(value, dict) and "choose" in value and "from" in value:
            picked = chooser.sample(list(value["from"]), value["choose"])
            value = picked if value.get("list", True) else picked[0]
        body[key] = value
    return body


# --- the rules that must hold -------------------------------------------------------------------------------------


def hidden_from(state: GameState, viewer: int | None) -> set[str]:
    """Ids of cards the viewer may not see: other players' hands and the draw piles."""
    hidden = set(all_draw_piles(state))
    for player in state.table.players:
        if player.seat != viewer:
            hidden.update(player.hand)
    return hidden


def assert_hides(view: dict, hidden: set[str], what: str) -> None:
    text = json.dumps(view)
    leaked = [card for card in hidden if card in text]
    assert not leaked, f"{what} shows hidden card ids {leaked}"


def expected_hand_limit(game: Game, state: GameState, seat: int) -> int | None:
    """The hand limit the rulebook's Special Rules give, when no card has changed it; None when one has."""
    for modifier in state.table.modifiers:
        if modifier.param == "hand_limit" and (modifier.by is not None or modifier.card is not None):
            return None
    for player in state.table.players:
        for card_id in player.in_play:
            effect = effect_of(state, card_id)
            if effect and "hand_limit" in json.dumps([repr(e) for e in effect]):
                return None
    limit = BASIC_RULES["hand_limit"]
    # Special Rules "are in effect throughout the game": in every mode, trust included.
    for rule in state.table.special_rules:
        reading = read_special_rule(rule.title, rule.text)
        for effect in reading.effects if reading.understood else ():
            if getattr(effect, "param", None) == "hand_limit":
                limit = effect.value
    return limit


def check_step(game: Game, seat: int, command: dict, before: GameState, steps: list) -> None:
    after = game.state
    types = [event.type for event, _, _ in steps]

    # Every card is in exactly one place: a hand, in play, a pile, or set aside by a vote (proposed or rejected).
    proposal = after.table.open_proposal()
    placed = Counter([*cards_in_zones(after), *after.table.rejected, *(proposal.cards if proposal else ())])
    assert not [c for c, n in placed.items() if n > 1], f"a card is in two places after {command}"
    assert set(placed) == set(after.table.cards), f"a card was lost or made up by {command}"
    assert set(cards_in_zones(after)) == set(cards_in_the_deck(after))

    # While a claim is open only its answers are taken.
    if before.status == VOTING and before.table.open_claim() is not None:
        assert command["type"] in CLAIM_ANSWERS and "claim" in command, command

    # Limits, at the points the rules check them.
    limit = rule_value(before, "hand_limit", seat)
    if command["type"] == "end_turn" and limit is not None:
        assert len(before.table.player(seat).hand) <= limit, "a turn ended over the hand limit"
    if command["type"] == "draw":
        draws = max(int(rule_value(before, "draws_per_turn", seat) or 0), 0)
        drawn = types[:types.index("turn.stage_changed")].count("card.drawn") if "turn.stage_changed" in types \
            else types.count("card.drawn")
        available = len(all_draw_piles(before)) + len(all_discard_piles(before))
        assert drawn == min(draws, available), (drawn, draws, available)
    for player in after.seats:
        expected = expected_hand_limit(game, after, player.seat)
        if expected is not None:
            assert rule_value(after, "hand_limit", player.seat) == expected

    # A claim is opened only for a card whose effect the server cannot judge; an effect move citing a card the
    # server understands is carried out only when the effect allows it.
    cause = command.get("cause")
    if game.mode != "trust" and cause is not None and command["type"] in MOVE_KINDS:
        judged, _ = verdict(before, seat, command["type"], command, cause)
        if "claim.opened" in types:
            assert judged == UNSURE, (command, judged)
        else:
            assert judged == ALLOWED, (command, judged)
    if game.mode == "trust":
        assert "claim.opened" not in types

    # A win: the cited card's condition held, or the table accepted the claim, or the others were all out.
    if "game.won" in types:
        won = next(event for event, _, _ in steps if event.type == "game.won")
        resolved = [event for event, _, _ in steps if event.type == "claim.resolved"]
        if won.data.get("cause") is None:
            # Not a card's win: the last player (or team) left standing.
            assert set(won.data["winners"]) <= set(seats_standing(after)) | set(after.winners), won.data
        elif game.mode != "trust":
            if resolved:
                assert resolved[0].data["status"] == "accepted"
                claim = before.table.open_claim()
                assert claim is not None and claim.move["type"] == "win"
            else:
                assert command["type"] == "win"
                assert verdict(before, seat, "win", command, command["cause"])[0] == ALLOWED

    # A finished game has winners and takes no more moves.
    if after.status == FINISHED:
        assert after.winners, "a game finished with no winner"
        for other in range(len(after.seats)):
            assert legal_moves(after, other) == []
            assert game.send(other, {"type": "end_turn"}) is None
            for rule in after.table.special_rules:
                assert game.send(other, {"type": "win", "cause": rule.id}) is None

    # The state survives a snapshot, and no view shows a hidden card.
    assert state_from_json(json.loads(json.dumps(state_to_json(after)))) == after
    for viewer in [None, *range(len(after.seats))]:
        assert_hides(view_state(after, viewer), hidden_from(after, viewer), f"view_state for {viewer}")
        for event, event_before, event_after in steps:
            # An event may show a card the viewer saw before it or sees after it, never one hidden throughout.
            assert_hides(view_event(event, viewer, event_before, event_after),
                         hidden_from(event_after, viewer) & (hidden_from(event_before, viewer) if event_before
                                                             else set()), f"{event.type} for {viewer}")


def probe_during_claim(game: Game) -> None:
    """While a claim is open, a move that is not an answer to it is refused and changes nothing."""
    state = game.state
    turn = state.table.turn
    if turn is not None:
        assert game.send(turn.seat, {"type": "draw"}) is None
        assert game.send(turn.seat, {"type": "end_turn"}) is None
    for player in state.table.players:
        if player.hand:
            assert game.send(player.seat, {"type": "play", "card": player.hand[0]}) is None


def play(seed: int, players: int, mode: str, deck: dict, creative: bool = False) -> Game:
    game = Game(seed, players, mode, deck, creative)
    for step in range(STEPS):
        if game.state.status not in (ACTIVE, VOTING):
            break
        if game.state.table.open_claim() is not None:
            probe_during_claim(game)
        seat, command = choose(game)
        before = game.state
        events = game.send(seat, command)
        if events is None:
            # Only effect moves (and proposals, which have their own limits) may be refused: a listed legal move
            # never is.
            assert "cause" in command or command["type"] == "propose", f"legal move {command} refused"
            continue
        steps = game.record(events)
        check_step(game, seat, command, before, steps)
        if step % 15 == 0:
            assert replay(game.events) == game.state
    assert replay(game.events) == game.state
    return game


# 25 random games a run, or EFFECT_PROPERTY_GAMES (a longer hunt).
GAMES = settings(max_examples=size("EFFECT_PROPERTY_GAMES", 15, 100), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@GAMES
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), mode=st.sampled_from(["claim", "vote", "trust"]),
       picks=st.lists(st.integers(0, 10_000), min_size=24, max_size=36),
       unread=st.lists(st.integers(0, len(UNREAD) - 1), max_size=4),
       hand_rule=st.sampled_from([None, *HAND_RULES]),
       other_rules=st.lists(st.sampled_from(OTHER_RULES), max_size=2, unique_by=lambda r: r["title"]),
       creative=st.booleans())
def test_random_games_of_understood_cards_keep_the_rules(seed, players, mode, picks, unread, hand_rule, other_rules,
                                                         creative):
    rules = ([hand_rule] if hand_rule else []) + other_rules
    play(seed, players, mode, deck_of(picks, unread, rules), creative)


def test_the_random_games_open_claims_refuse_moves_and_carry_out_actions():
    """The property test is not vacuous: over a few fixed games, claims are opened and settled, effect moves
    refused, understood Actions carried out and Special Rules' hand limits applied."""
    types: Counter = Counter()
    for seed in range(6):
        mode = ["claim", "vote"][seed % 2]
        picks = list(range(seed * 7, seed * 7 + 30))
        game = play(seed, 2 + seed % 3, mode, deck_of(picks, [0, 1, 2], [HAND_RULES[seed % 3], *OTHER_RULES]))
        types.update(event.type for event in game.events)
    assert types["claim.opened"] and types["claim.resolved"], types
    assert types["counter.changed"] and types["card.drawn"], types
    assert types["cards.discarded"] and types["thing.destroyed"], types


def test_an_amendment_of_a_rules_parameters_keeps_what_its_text_says():
    deck = deck_of(list(range(24)), [], [HAND_RULES[1]])  # "Hand size is seven instead of five."
    game = Table(players=2, deck=deck, options={"unread_effects": "claim"}, creative=True).start()
    assert rule_value(game.state, "hand_limit", 0) == 7
    game.send(game.state.table.turn.seat, {"type": "propose", "kind": "amend_rule", "rule": "1",
                                           "changes": {"title": "Bigger Hands", "params": {"vote_rule": "2/3"}}})
    for seat in range(2):
        if game.state.table.proposals[-1].status == "open":
            game.send(seat, {"type": "vote", "proposal": 1, "approve": True})
    assert game.state.table.proposals[-1].status == "accepted"
    assert game.state.table.special_rules[0].text == HAND_RULES[1]["text"]
    assert rule_value(game.state, "hand_limit", 0) == 7
