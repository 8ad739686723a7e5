"""Cards the server understands, played through the API: a Victory-style win refused until its condition holds,
an effect move its card does not allow refused, claims accepted and disputed, replay, and `trust` as before."""

from __future__ import annotations

import pytest

from dvorak_core.deckdata import DeckData
from dvorak_kit.eventstore import store
from games import services

pytestmark = pytest.mark.django_db

VICTORY = {"title": "Victory", "text": "If a player controls three or more Ministries, they win the game."}
PROPHECY = {"title": "Prophecy", "text": "The stars decide who triumphs."}
HAND_CARE = {"title": "Hand Care", "text": "Discard a card from your hand."}


@pytest.fixture
def ministries_game(make_user, client_for):
    """A started two-player game of a deck of Ministries (empty Things), with the Special Rules above."""
    from decks import services as deck_services

    cards = [{"title": f"Ministry of Thing {n:02d}", "type": "Thing", "text": ""} for n in range(30)]
    deck = deck_services.deck_create(author=None, data=DeckData.from_dict(
        {"slug": "ministries", "title": "Ministries", "special_rules": [VICTORY, PROPHECY, HAND_CARE],
         "cards": cards}))

    def make(options: dict | None = None):
        seated = [(user, client_for(user)) for user in (make_user() for _ in range(2))]
        created = seated[0][1].post("/api/v1/games/", {"deck": deck.slug, "max_players": 2,
                                                       "options": options or {}}, format="json")
        assert created.status_code == 201, created.content
        game_id = created.json()["id"]
        assert seated[1][1].post(f"/api/v1/games/{game_id}/join/", {}, format="json").status_code == 200
        assert seated[0][1].post(f"/api/v1/games/{game_id}/start/").status_code == 200
        return Game(game_id, [client for _, client in seated])

    return make


class Game:
    def __init__(self, game_id, clients):
        self.id, self.clients = game_id, clients

    def state(self, seat: int = 0) -> dict:
        return self.clients[seat].get(f"/api/v1/games/{self.id}/").json()

    def send(self, seat: int, command: dict):
        return self.clients[seat].post(f"/api/v1/games/{self.id}/commands/", command, format="json")

    def moves(self, seat: int) -> list[dict]:
        return self.clients[seat].get(f"/api/v1/games/{self.id}/moves/").json()["moves"]

    def rule(self, title: str) -> str:
        return next(r["id"] for r in self.state()["special_rules"] if r["title"] == title)

    def play_a_turn(self) -> int:
        """The player whose turn it is draws, plays a Ministry and ends the turn; their seat."""
        seat = self.state()["turn"]["seat"]
        assert self.send(seat, {"type": "draw"}).status_code == 201
        card = self.state(seat)["players"][seat]["hand"][0]["id"]
        assert self.send(seat, {"type": "play", "card": card}).status_code == 201
        return seat

    def end_turn(self, seat: int) -> None:
        assert self.send(seat, {"type": "end_turn"}).status_code == 201

    def replays_to_what_was_played(self) -> bool:
        stream_id = f"game-{self.id}"
        played = services.state_at(stream_id, store.current_version(stream_id))
        services.STATE_CACHE.clear()
        _, replayed = store.load(stream_id, services.FOLDER, use_snapshots=False)
        return replayed == played


def test_a_victory_win_is_refused_until_three_ministries_are_in_play(ministries_game):
    game = ministries_game({"unread_effects": "claim"})
    victory = game.rule("Victory")
    for _ in range(4):
        seat = game.play_a_turn()
        refused = game.send(seat, {"type": "win", "cause": victory})
        assert refused.status_code == 409
        assert refused.json()["error"]["code"] == "win_condition_not_met"
        game.end_turn(seat)
    # The fifth turn's player has played three Ministries, one each turn of theirs.
    seat = game.play_a_turn()
    won = game.send(seat, {"type": "win", "cause": victory})
    assert won.status_code == 201, won.content
    assert game.state()["status"] == "finished" and game.state()["winners"] == [seat]
    assert game.replays_to_what_was_played()


def test_set_rule_citing_a_special_rule_with_no_rule_effect_is_refused(ministries_game):
    game = ministries_game({"unread_effects": "claim"})
    refused = game.send(0, {"type": "set_rule", "cause": game.rule("Hand Care"), "param": "hand_limit",
                            "value": 9})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "effect_not_allowed"
    assert game.state()["modifiers"] == []


def test_a_claim_is_shown_to_all_listed_as_moves_and_accepted(ministries_game):
    game = ministries_game({"unread_effects": "claim"})
    prophecy = game.rule("Prophecy")
    opened = game.send(1, {"type": "win", "cause": prophecy})
    assert opened.status_code == 201, opened.content
    [event] = opened.json()["events"]
    assert event["type"] == "claim.opened" and event["data"]["card"]["title"] == "Prophecy"
    state = game.state(0)
    assert state["status"] == "voting" and state["claims"][0]["stage"] == "claim"
    assert game.moves(0) == [{"type": "accept", "claim": 1}, {"type": "dispute", "claim": 1}]
    assert game.moves(1) == []
    refused = game.send(0, {"type": "draw"})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "vote_in_progress"
    accepted = game.send(0, {"type": "accept", "claim": 1})
    assert accepted.status_code == 201, accepted.content
    assert [e["type"] for e in accepted.json()["events"]] == ["claim.answered", "claim.resolved", "game.won"]
    assert game.state()["winners"] == [1]
    assert game.replays_to_what_was_played()


def test_a_disputed_claim_voted_down_leaves_the_game_going(ministries_game):
    game = ministries_game({"unread_effects": "claim"})
    game.send(1, {"type": "win", "cause": game.rule("Prophecy")})
    disputed = game.send(0, {"type": "dispute", "claim": 1})
    assert disputed.status_code == 201, disputed.content
    assert disputed.json()["events"][-1]["data"] == {"number": 1, "status": "rejected"}
    state = game.state()
    assert state["status"] == "active" and state["winners"] == [] and state["claims"][0]["status"] == "rejected"
    seat = game.play_a_turn()
    game.end_turn(seat)
    assert game.replays_to_what_was_played()


def test_vote_mode_and_a_claim_vote_through_the_api(ministries_game):
    game = ministries_game({"unread_effects": "vote", "vote_rule": "majority"})
    opened = game.send(1, {"type": "win", "cause": game.rule("Prophecy")})
    assert [e["type"] for e in opened.json()["events"]] == ["claim.opened", "claim.voted"]
    assert game.moves(0) == [{"type": "vote", "claim": 1, "approve": True},
                             {"type": "vote", "claim": 1, "approve": False}]
    both = game.send(0, {"type": "vote", "claim": 1, "proposal": 1, "approve": True})
    assert both.status_code == 400
    voted = game.send(0, {"type": "vote", "claim": 1, "approve": False})
    assert voted.status_code == 201, voted.content
    # One for, one against: a majority of two is not reached.
    assert game.state()["status"] == "active" and game.state()["claims"][0]["status"] == "rejected"
    assert game.replays_to_what_was_played()


@pytest.mark.parametrize("options", [{}, {"unread_effects": "trust"}])
def test_trust_keeps_the_old_behaviour(ministries_game, options):
    game = ministries_game(options)
    won = game.send(1, {"type": "win", "cause": game.rule("Victory")})
    assert won.status_code == 201 and game.state()["winners"] == [1]


def test_an_unknown_unread_effects_option_is_400(ministries_game, make_user, client_for):
    client = client_for(make_user())
    refused = client.post("/api/v1/games/", {"deck": "ministries", "options": {"unread_effects": "maybe"}},
                          format="json")
    assert refused.status_code == 400
    assert refused.json()["error"]["details"]["field"] == "options.unread_effects"


def test_a_claim_citing_a_card_in_hand_reveals_its_content_only(make_user, client_for):
    from decks import services as deck_services

    cards = [{"title": f"Omen {n:02d}", "type": "Thing", "text": "Glows faintly under a harvest sky."}
             for n in range(20)]
    deck_services.deck_create(author=None, data=DeckData.from_dict({"slug": "omens", "title": "Omens",
                                                                     "cards": cards}))
    ann, bob = client_for(make_user()), client_for(make_user())
    game_id = ann.post("/api/v1/games/", {"deck": "omens", "max_players": 2,
                                          "options": {"unread_effects": "claim"}}, format="json").json()["id"]
    bob.post(f"/api/v1/games/{game_id}/join/", {}, format="json")
    ann.post(f"/api/v1/games/{game_id}/start/")
    game = Game(game_id, [ann, bob])
    omen = game.state(1)["players"][1]["hand"][0]
    opened = game.send(1, {"type": "win", "cause": omen["id"]})
    assert opened.status_code == 201, opened.content
    # Ann reads the card claimed, but not its id, nor anything else of Bob's hand.
    events = ann.get(f"/api/v1/games/{game_id}/events/").json()
    claim_event = next(e for e in events["events"] if e["type"] == "claim.opened")
    assert claim_event["data"]["card"]["title"] == omen["title"]
    hand_ids = [c["id"] for c in game.state(1)["players"][1]["hand"]]
    seen = str(claim_event) + str(game.state(0)) + str(game.moves(0))
    assert not any(card_id in seen for card_id in hand_ids)
    others = [c["title"] for c in game.state(1)["players"][1]["hand"][1:]]
    assert not any(f"'{title}'" in str(claim_event) for title in others)
    assert game.state(0)["claims"][0]["card"]["title"] == omen["title"]
