"""A few random games of cards the server understands (and some it does not), played through the HTTP API: the
moves come from ``/moves/`` and now and then an effect move citing a random card, under ``unread_effects``
claim, vote and trust. No answer is a server error, a refusal is the error shape of docs/api.md and changes
nothing, a listed move is never refused, no view shows a hidden card, and the game replays to what was played."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from dvorak_core.deckdata import DeckData
from dvorak_engine.rulesets.dvorak.state import (
    all_discard_piles,
    all_draw_piles,
    cards_in_the_deck,
    cards_in_zones,
    cards_visible_to,
)
from dvorak_kit.eventstore import store
from games import services
from tests.engine.test_effect_properties import HAND_RULES, OTHER_RULES, UNREAD, filled, understood_pool

pytestmark = pytest.mark.django_db

STEPS = 45


def hidden_from(state, seat: int) -> set[str]:
    hidden = set(all_draw_piles(state))
    for player in state.table.players:
        if player.seat != seat:
            hidden.update(player.hand)
    return hidden


class ApiGame:
    def __init__(self, game_id: str, clients: list):
        self.id, self.clients = game_id, clients
        self.stream = f"game-{game_id}"

    def true_state(self):
        return services.state_at(self.stream, store.current_version(self.stream))

    def view(self, seat: int) -> dict:
        response = self.clients[seat].get(f"/api/v1/games/{self.id}/")
        assert response.status_code == 200
        return response.json()

    def moves(self, seat: int) -> list[dict]:
        response = self.clients[seat].get(f"/api/v1/games/{self.id}/moves/")
        assert response.status_code == 200
        return response.json()["moves"]

    def send(self, seat: int, command: dict) -> bool:
        """True when accepted; a refusal must be a 4xx in the error shape and leave the game as it was."""
        before = self.view(seat)
        response = self.clients[seat].post(f"/api/v1/games/{self.id}/commands/", command, format="json")
        assert response.status_code < 500, response.content
        if response.status_code == 201:
            return True
        assert 400 <= response.status_code < 500, response.content
        error = response.json()["error"]
        assert error["code"] and error["message"], error
        assert self.view(seat) == before, f"refused {command} changed the game"
        return False


def effect_move(state, seat: int, chooser: random.Random, mode: str) -> dict | None:
    table = state.table
    causes = sorted(cards_visible_to(state, seat) - set(table.player(seat).hand)) + [r.id for r in table.special_rules]
    if not causes:
        return None
    cause = chooser.choice(causes)
    hand = table.player(seat).hand
    moves = [{"type": "counter", "cause": cause, "seat": seat, "name": "gold", "delta": 1},
             {"type": "set_rule", "cause": cause, "param": "hand_limit", "value": chooser.randint(2, 7), "seat": seat}]
    if mode != "trust":  # trusted, any win ends the game at once
        moves.append({"type": "win", "cause": cause})
    if hand:
        moves.append({"type": "discard", "cause": cause, "cards": [chooser.choice(hand)]})
    return chooser.choice(moves)


@pytest.fixture
def effect_game(make_user, client_for, unthrottled):
    from decks import services as deck_services

    def make(seed: int, mode: str, players: int) -> ApiGame:
        chooser = random.Random(seed)
        pool = understood_pool()
        cards = [{key: card[key] for key in ("title", "type", "text")} for card in chooser.sample(pool, 26)]
        cards += [dict(card) for card in UNREAD]
        rules = [HAND_RULES[seed % len(HAND_RULES)], *OTHER_RULES]
        deck = deck_services.deck_create(author=None, data=DeckData.from_dict(
            {"slug": f"effects-{seed}", "title": f"Effects {seed}", "special_rules": rules, "cards": cards}))
        seated = [client_for(make_user()) for _ in range(players)]
        created = seated[0].post("/api/v1/games/", {"deck": deck.slug, "max_players": players,
                                                    "options": {"unread_effects": mode}}, format="json")
        assert created.status_code == 201, created.content
        game_id = created.json()["id"]
        for client in seated[1:]:
            assert client.post(f"/api/v1/games/{game_id}/join/", {}, format="json").status_code == 200
        assert seated[0].post(f"/api/v1/games/{game_id}/start/").status_code == 200
        return ApiGame(game_id, seated)

    return make


@pytest.mark.parametrize(("seed", "mode", "players"), [(1, "claim", 3), (2, "vote", 2), (3, "trust", 3)])
def test_random_games_of_understood_cards_through_the_api(effect_game, seed, mode, players):
    game = effect_game(seed, mode, players)
    chooser = random.Random(seed)
    seen: Counter = Counter()
    for _ in range(STEPS):
        state = game.true_state()
        if state.status not in ("active", "voting"):
            break
        seats = [s.seat for s in state.seats if s.status == "playing"]
        seat = chooser.choice(seats)
        command = effect_move(state, seat, chooser, mode) if state.status == "active" and chooser.random() < 0.3 else None
        if command is None:
            if state.status == "active" and chooser.random() < 0.7:
                seat = state.table.turn.seat
            moves = [m for m in game.moves(seat) if m["type"] not in ("concede", "abandon")]
            if not moves:
                seat = next(s for s in seats if played_on(game.moves(s)))
                moves = played_on(game.moves(seat))
            command = filled(chooser.choice(moves), chooser)
        accepted = game.send(seat, command)
        seen[(command["type"], accepted)] += 1
        if not accepted:
            assert "cause" in command, f"listed move {command} refused"
            continue
        after = game.true_state()
        # Every card in exactly one place.
        placed = Counter(cards_in_zones(after))
        assert max(placed.values()) == 1 and set(placed) == set(cards_in_the_deck(after))
        assert set(all_discard_piles(after)) <= set(placed)
        # While a claim is open, a move that is not an answer to it is refused.
        if after.table.open_claim() is not None and after.table.turn is not None:
            assert not game.send(after.table.turn.seat, {"type": "draw"})
        # No player's view holds the id of a card hidden from them.
        for viewer in range(players):
            text = json.dumps(game.view(viewer))
            leaked = [card for card in hidden_from(after, viewer) if card in text]
            assert not leaked, f"seat {viewer} sees hidden cards {leaked}"
    final = game.true_state()
    if mode != "trust" and not final.table.claims and final.status == "active":
        # The random walk cited no card the server does not understand (the server's shuffles differ each run):
        # cite the Special Rule it cannot read, which must be put to the table.
        prophecy = next(rule.id for rule in final.table.special_rules if rule.title == "Prophecy")
        seat = final.table.turn.seat
        assert game.send(seat, {"type": "counter", "cause": prophecy, "seat": seat, "name": "gold", "delta": 1})
        final = game.true_state()
        assert final.status == "voting" and final.table.open_claim() is not None
    if final.status == "finished":
        assert final.winners and all(game.moves(seat) == [] for seat in range(players))
    if mode == "trust":
        assert not final.table.claims
    # The game as stored replays to the state that was played.
    services.STATE_CACHE.clear()
    _, replayed = store.load(game.stream, services.FOLDER, use_snapshots=False)
    assert replayed == final
    if mode != "trust":  # a card the server does not understand was cited and put to the table
        assert final.table.claims, seen
    # Played on, unless a win (a claim of one accepted by the table, say) ended it early.
    assert sum(n for (_, accepted), n in seen.items() if accepted) >= 15 or final.status == "finished", seen


def played_on(moves: list[dict]) -> list[dict]:
    """The listed moves but giving the game up (``abandon``), each player's own choice: these play it on."""
    return [move for move in moves if move["type"] != "abandon"]
