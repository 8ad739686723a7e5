"""Legal moves: every move listed for a seat is accepted as listed (its choices filled at random), the structural
commands the rules accept were listed, and no move names a card its seat may not see.

Games are played with the project's seed decks, by ``dvorak`` (2 to 5 players, every Variant, creative or not)
and by ``article_ii`` (2 to 4 players).
"""

from __future__ import annotations

import copy
import itertools
import json
import random
from dataclasses import replace
from typing import Any

import pytest

from dvorak_engine import Actor, DomainError, SeededRng, create_game, decide, evolve, legal_moves
from dvorak_engine.rulesets import get_ruleset
from dvorak_engine.rulesets.article_ii.ruleset import cards_visible_to as article_ii_visible
from dvorak_engine.rulesets.dvorak.state import CCG, TEAM, VARIANTS
from dvorak_engine.rulesets.dvorak.state import cards_visible_to as dvorak_visible
from tests.engine.dvorak_games import card_set_and_player_decks, legal_commands, team_of
from tests.seeds import SEED_DATA
from tests.sizes import size

# Decks with cards (the CCG set and the Virtues of the Drake list none).
DVORAK_DECKS = ["socialism", "rock-paper-scissors-extreme-deck", "article-ii-updated",
                "simplistic-wargame-with-four-stats-s-e-r-m"]
ARTICLE_II_DECKS = ["article-ii-updated", "article-ii"]
STRUCTURAL = {"start", "draw", "play", "use", "discard", "end_turn", "vote", "withdraw", "give", "end_rule_effect"}


def seed_deck(slug: str) -> dict:
    deck = json.loads((SEED_DATA / f"{slug}.json").read_text(encoding="utf-8"))
    for number, rule in enumerate(deck.get("special_rules", []), start=1):
        rule["id"] = f"rule-{number}"
    return deck


def filled(move: dict[str, Any], chooser: random.Random) -> dict[str, Any]:
    """A listed move with each of its choices made at random."""
    command = {}
    for key, value in move.items():
        if isinstance(value, dict) and "choose" in value:
            picked = chooser.sample(value["from"], value["choose"])
            command[key] = picked if value["list"] else picked[0]
        else:
            command[key] = value
    return command


def matches(command: dict[str, Any], move: dict[str, Any]) -> bool:
    """Whether a command is one of the commands a listed move stands for."""
    if set(command) != set(move):
        return False
    for key, value in move.items():
        if isinstance(value, dict) and "choose" in value:
            picked = command[key] if value["list"] else [command[key]]
            if (not isinstance(picked, list) or len(picked) != value["choose"] or len(set(picked)) != len(picked)
                    or not set(picked) <= set(value["from"])):
                return False
        elif command[key] != value:
            return False
    return True


def card_ids_named(moves: list[dict[str, Any]]) -> set[str]:
    named = set()
    for move in moves:
        for key, value in move.items():
            if key == "type":
                continue
            values = value["from"] if isinstance(value, dict) and "choose" in value else [value]
            named.update(v for v in values if isinstance(v, str))
    return named


class Game:
    def __init__(self, ruleset: str, deck: dict, players: int, *, seed: int, variant: str = "standard",
                 creative: bool = False):
        self.rng, self.chooser = SeededRng(seed), random.Random(seed)
        self.people = [Actor(user_id=100 + seat, username=f"player{seat}") for seat in range(players)]
        joins: list[dict[str, Any]] = [{} for _ in self.people]
        if variant == TEAM:
            joins = [{"team": team_of(seat)} for seat in range(players)]
        if variant == CCG:
            deck, player_decks = card_set_and_player_decks(players)
            joins = [{"player_deck": player_deck} for player_deck in player_decks]
        self.state = None
        self.apply(create_game(ruleset=ruleset, deck=deck, variant=variant, creative=creative,
                               max_players=players, options={**joins[0], **({"blank_cards": 40} if creative else {})},
                               creator=self.people[0],
                               rng=self.rng))
        for person, join in zip(self.people[1:], joins[1:], strict=True):
            self.apply(decide(self.state, {"type": "join", **join}, actor=person, rng=self.rng))

    def apply(self, events):
        for event in events:
            self.state = evolve(self.state, event)

    def accepts(self, seat: int, command: dict[str, Any]) -> bool:
        try:
            decide(self.state, command, actor=self.people[seat], rng=SeededRng(0))
        except DomainError:
            return False
        return True

    def send(self, seat: int, command: dict[str, Any]) -> None:
        self.apply(decide(self.state, command, actor=self.people[seat], rng=self.rng))


def check_listed_moves(game: Game, visible) -> dict[int, list[dict]]:
    """Every seat's listed moves are accepted as listed and name only cards the seat may see."""
    listed = {}
    for seat in range(len(game.people)):
        moves = legal_moves(game.state, seat)
        assert card_ids_named(moves) <= visible(game.state, seat), moves
        before = copy.deepcopy(game.state)
        for move in moves:
            for _ in range(2 if any(isinstance(v, dict) for v in move.values()) else 1):
                command = filled(move, game.chooser)
                # The move is a body as its command declares it (the API's schema and first check say the same).
                get_ruleset(game.state.ruleset).bodies[command["type"]].checked(command)
                try:
                    decide(game.state, command, actor=game.people[seat], rng=SeededRng(0))
                except DomainError as refused:
                    pytest.fail(f"seat {seat} was offered {move} but {command} was refused: {refused.code} "
                                f"{refused.message}")
        assert game.state == before
        listed[seat] = moves
    return listed


def structural_candidates(game: Game, seat: int) -> list[dict[str, Any]]:
    """Structural commands a client might send, legal or not: each check below tries them all."""
    table = game.state.table
    hand = list(table.player(seat).hand)
    in_play = [c for player in table.players for c in player.in_play]
    candidates: list[dict[str, Any]] = [{"type": "start"}, {"type": "draw"}, {"type": "end_turn"}]
    for card_id in hand:
        candidates.append({"type": "play", "card": card_id})
        candidates += [{"type": "play", "card": card_id, "onto": host} for host in in_play]
        candidates += [{"type": "give", "card": card_id, "to": other} for other in range(len(game.people))]
    candidates += [{"type": "use", "card": card_id} for card_id in table.player(seat).in_play]
    for count in range(1, min(len(hand), 3) + 1):
        candidates.append({"type": "discard", "cards": hand[:count]})
    candidates += [{"type": "end_rule_effect", "effect": modifier.order} for modifier in table.modifiers]
    for proposal in table.proposals:
        candidates += [{"type": "vote", "proposal": proposal.number, "approve": True},
                       {"type": "vote", "proposal": proposal.number, "approve": False},
                       {"type": "withdraw", "proposal": proposal.number}]
    return candidates


def check_accepted_structural_commands_were_listed(game: Game, listed: dict[int, list[dict]]) -> None:
    for seat in range(len(game.people)):
        for command in structural_candidates(game, seat):
            if not game.accepts(seat, command):
                continue
            if command["type"] == "discard":
                # Discarding part of the excess is accepted too; the list offers the discard down to the limit.
                assert any(move["type"] == "discard" for move in listed[seat]), (command, listed[seat])
                continue
            assert any(matches(command, move) for move in listed[seat]), \
                f"seat {seat} may send {command}, which is not listed in {listed[seat]}"


def play_dvorak(seed: int, deck: str, players: int, variant: str, creative: bool, steps: int = 120) -> Game:
    game = Game("dvorak", seed_deck(deck), players, seed=seed, variant=variant, creative=creative)
    chooser = game.chooser
    for _ in range(steps):
        listed = check_listed_moves(game, dvorak_visible)
        check_accepted_structural_commands_were_listed(game, listed)
        if game.state.status == "open" and not listed[0]:
            # A creative game starts once players have created enough cards: a proposal, then everyone's yes.
            title = f"Card {game.state.version}"
            game.send(0, {"type": "propose", "kind": "card", "card": {"title": title, "type": "Thing"}})
            continue
        if game.state.status not in ("open", "active", "voting"):
            break
        # Giving the game up (``abandon``), or the table before it starts (``leave``, ``cancel``), is each player's
        # own choice: these players play it to its end.
        choices = [(seat, move) for seat, moves in listed.items() for move in moves
                   if move["type"] not in ("abandon", "leave", "cancel")]
        if chooser.random() < 0.15 and game.state.status == "active":
            seat = chooser.randrange(players)
            # Now and then a card's effect or a proposal, so the legal moves meet the states those make.
            effects = [c for c in legal_commands(game.state, seat) if c["type"] not in STRUCTURAL
                       and c["type"] not in ("win", "eliminate", "concede")]
            if effects:
                game.send(seat, chooser.choice(effects))
                continue
        seat, move = chooser.choice(choices)
        game.send(seat, filled(move, chooser))
    return game


GAMES = [
    (seed, DVORAK_DECKS[seed % len(DVORAK_DECKS)], 2 + seed % 4, VARIANTS[seed % len(VARIANTS)], seed % 3 == 1)
    for seed in range(size("LEGAL_MOVES_GAMES", 8, 48))
]


@pytest.mark.parametrize(("seed", "deck", "players", "variant", "creative"), GAMES)
def test_dvorak_every_listed_move_is_accepted_and_every_accepted_structural_move_listed(
        seed, deck, players, variant, creative):
    if variant == TEAM:
        players = max(players, 3)
    game = play_dvorak(seed, deck, players, variant, creative)
    assert game.state.version > 40


def test_dvorak_lists_the_discard_down_to_the_hand_limit_as_a_choice_of_cards():
    game = Game("dvorak", seed_deck("socialism"), 2, seed=5)
    game.send(0, {"type": "start"})
    seat = game.state.table.turn.seat
    game.send(seat, {"type": "draw"})
    # Six cards against a hand limit of five: the turn cannot end before one is discarded.
    moves = legal_moves(game.state, seat)
    hand = list(game.state.table.player(seat).hand)
    assert {"type": "discard", "cards": {"choose": 1, "from": hand, "list": True}} in moves
    assert {"type": "end_turn"} not in moves
    # Out of turn: only a card playable at any time, and giving the game up.
    assert legal_moves(game.state, 1 - seat) == [m for m in legal_moves(game.state, 1 - seat)
                                                 if m["type"] == "play" or m == {"type": "abandon"}]


def test_a_spectator_and_a_finished_game_have_no_moves():
    game = Game("dvorak", seed_deck("socialism"), 2, seed=2)
    assert legal_moves(game.state, None) == []
    assert legal_moves(game.state, 1) == [{"type": "leave"}]  # only seat 0 starts a game; the others may leave it
    assert legal_moves(game.state, 0) == [{"type": "start"}, {"type": "cancel"}]
    game.send(0, {"type": "start"})
    game.send(1, {"type": "concede"})
    assert game.state.status == "finished"
    assert legal_moves(game.state, 0) == legal_moves(game.state, 1) == []


def test_dvorak_lists_ending_the_rule_changes_a_seat_made_and_plays_within_the_turns_limits():
    deck = {**seed_deck("socialism"), "cards": [
        {"title": "Golden Goose", "type": "Thing", "text": "Your hand limit is 7.", "copies": 1},
        {"title": "Sudden Reply", "type": "Action", "text": "Play this card at any time.", "copies": 1},
        {"title": "Plain Action", "type": "Action", "text": "", "copies": 1},
        {"title": "Filler", "type": "Thing", "text": "", "copies": 20},
    ]}
    game = Game("dvorak", deck, 2, seed=3)
    game.send(0, {"type": "start"})
    seat, other = game.state.table.turn.seat, 1 - game.state.table.turn.seat
    cards = {card.title: card.id for card in game.state.table.cards.values()}
    hands = {seat: (cards["Sudden Reply"], cards["Plain Action"]), other: ()}
    game.state = game.state.with_table(players=tuple(
        replace(player, hand=hands[player.seat], in_play=(cards["Golden Goose"],) if player.seat == seat else ())
        for player in game.state.table.players), turn=replace(game.state.table.turn, stage="play"))
    game.send(seat, {"type": "set_rule", "cause": cards["Golden Goose"], "param": "hand_limit", "value": 7})
    effect = game.state.table.modifiers[-1].order
    assert {"type": "end_rule_effect", "effect": effect} in legal_moves(game.state, seat)
    assert legal_moves(game.state, other) == [{"type": "abandon"}]
    game.send(seat, {"type": "play", "card": cards["Plain Action"]})
    # The turn's Action is played; the one playable "at any time" is not the turn's Action, so it still may be.
    assert {"type": "play", "card": cards["Sudden Reply"]} in legal_moves(game.state, seat)
    check_accepted_structural_commands_were_listed(game, {s: legal_moves(game.state, s) for s in (0, 1)})


def play_article_ii(seed: int, players: int) -> Game:
    game = Game("article_ii", seed_deck(ARTICLE_II_DECKS[seed % 2]), players, seed=seed)
    game.send(0, {"type": "start"})
    for _ in range(400):
        if game.state.status != "active":
            break
        listed = check_listed_moves(game, article_ii_visible)
        acting = [seat for seat, moves in listed.items() if moves]
        assert len(acting) == 1, listed  # exactly one seat must act, and it has something to do
        seat = acting[0]
        for command in [{"type": "pass"}, *({"type": "play", "card": c, "target": t} for c, t in itertools.product(
                game.state.table.player(seat).hand, range(players)))]:
            if game.accepts(seat, command):
                assert any(matches(command, move) for move in listed[seat]), (command, listed[seat])
        game.send(seat, filled(game.chooser.choice(listed[seat]), game.chooser))
    return game


@pytest.mark.parametrize("seed", range(9))
def test_article_ii_every_listed_move_is_accepted_and_a_game_of_them_ends(seed):
    game = play_article_ii(seed, 2 + seed % 3)
    assert game.state.status == "finished"


def test_article_ii_offers_voter_adhd_with_the_cards_it_may_remove():
    for seed in range(40):
        game = Game("article_ii", seed_deck("article-ii-updated"), 2, seed=seed)
        game.send(0, {"type": "start"})
        while game.state.status == "active":
            seat = next(s for s in range(2) if legal_moves(game.state, s))
            moves = legal_moves(game.state, seat)
            removing = [m for m in moves if "remove" in m]
            if removing:
                move = removing[0]
                in_front = set(game.state.table.player(move["target"]).in_play)
                assert move["remove"]["choose"] == 1 and move["remove"]["list"] is False
                assert set(move["remove"]["from"]) <= in_front | {move["card"]}
                return
            game.send(seat, filled(game.chooser.choice(moves), game.chooser))
    pytest.fail("no game offered a card that removes another")
