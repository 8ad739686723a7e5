"""The rulebook's words through the API, as a client plays them: a Special Rule in effect with the default
options, a Basic Rule number the server stops holding players to, a card presented to the *other* players, and the
Blank Card Pile topped up with a fresh pack."""

from __future__ import annotations

import pytest

from dvorak_core.deckdata import DeckData
from tests.api.test_card_effects_api import Game as SeatedGame

pytestmark = pytest.mark.django_db

THINGS = [{"title": f"Widget {n:02d}", "type": "Thing", "text": ""} for n in range(30)]


@pytest.fixture
def play(make_user, client_for):
    """A started game of a deck of plain Things with the given Special Rules, for two players (or more)."""
    from decks import services as deck_services

    made = iter(range(1000))

    def make(*special_rules: dict, players: int = 2, creative: bool = False, options: dict | None = None):
        slug = f"house-rules-{next(made)}"
        deck_services.deck_create(author=None, data=DeckData.from_dict(
            {"slug": slug, "title": "House rules", "special_rules": list(special_rules), "cards": THINGS}))
        clients = [client_for(make_user()) for _ in range(players)]
        created = clients[0].post("/api/v1/games/", {"deck": slug, "max_players": players, "creative": creative,
                                                     "options": options or {}}, format="json")
        assert created.status_code == 201, created.content
        game = Game(created.json()["id"], clients)
        for client in clients[1:]:
            assert client.post(f"/api/v1/games/{game.id}/join/", {}, format="json").status_code == 200
        assert clients[0].post(f"/api/v1/games/{game.id}/start/").status_code == 200
        return game

    return make


class Game(SeatedGame):
    """A started game as its seated clients see it (``state``, ``send``, ``moves``), with the turn and a hand."""

    def turn(self) -> int:
        return self.state()["turn"]["seat"]

    def hand(self, seat: int) -> list[str]:
        return [card["id"] for card in self.state(seat)["players"][seat]["hand"]]


def test_a_deck_saying_hand_size_is_seven_lets_a_player_end_a_turn_holding_six(play):
    """"Hand size is three instead of five." is the rulebook's alteration; Special Rules "are in effect throughout
    the game"."""
    game = play({"title": "Big Hands", "text": "Hand size is seven instead of five."})
    seat = game.turn()
    assert game.state(seat)["rules"]["hand_limit"] == 7 and game.state(seat)["unenforced"] == []
    assert game.send(seat, {"type": "draw"}).status_code == 201
    assert len(game.hand(seat)) == 6
    assert {"type": "end_turn"} in game.moves(seat)
    assert game.send(seat, {"type": "end_turn"}).status_code == 201
    assert game.turn() != seat


def test_a_special_rule_the_server_cannot_read_suspends_the_basic_rule_number_it_names(play):
    game = play({"title": "Moon Hands", "text": "Your hand limit is the number of moons in the sky tonight."})
    seat = game.turn()
    assert game.state(seat)["unenforced"] == ["hand_limit"]
    assert game.send(seat, {"type": "draw"}).status_code == 201
    # Six cards in hand and a Basic Rule limit of five: the server leaves it to the players, as the rule does.
    assert game.send(seat, {"type": "end_turn"}).status_code == 201
    # Told the number, citing the rule, the server holds the players to it again.
    rule_id = game.state()["special_rules"][0]["id"]
    other = game.turn()
    answer = game.send(other, {"type": "set_rule", "cause": rule_id, "param": "hand_limit", "value": 3})
    assert answer.status_code == 201, answer.content
    assert game.state()["unenforced"] == []


def test_a_proposer_is_not_offered_a_vote_on_their_own_card(play):
    """"After a card has been created, it is presented to the other players for their immediate judgment"."""
    game = play(players=3, creative=True)
    proposed = game.send(1, {"type": "propose", "kind": "card",
                             "card": {"title": "Armageddon", "type": "Action", "text": "Destroy all Things."}})
    assert proposed.status_code == 201, proposed.content
    number = game.state()["proposals"][0]["number"]
    assert not [m for m in game.moves(1) if m["type"] == "vote"]
    assert {"type": "vote", "proposal": number, "approve": True} in game.moves(0)
    refused = game.send(1, {"type": "vote", "proposal": number, "approve": True})
    assert refused.status_code >= 400 and refused.json()["error"]["code"] == "denied"
    for seat in (0, 2):
        assert game.send(seat, {"type": "vote", "proposal": number, "approve": True}).status_code == 201
    assert game.state()["proposals"][0]["status"] == "accepted"


def test_with_proposer_votes_the_proposer_is_offered_a_vote(play):
    game = play(creative=True, options={"proposer_votes": True})
    game.send(0, {"type": "propose", "kind": "card", "card": {"title": "Dud", "type": "Thing", "text": ""}})
    assert {"type": "vote", "proposal": 1, "approve": True} in game.moves(0)


def test_an_empty_blank_card_pile_is_topped_up_with_a_fresh_pack(play):
    """"If the Blank Card Pile ever runs empty, it can be topped up with a fresh pack of blank cards"."""
    game = play(creative=True, options={"blank_cards": 1})
    game.send(0, {"type": "propose", "kind": "card", "card": {"title": "Dud", "type": "Thing", "text": ""}})
    assert game.send(1, {"type": "vote", "proposal": 1, "approve": True}).status_code == 201
    assert game.state()["blank_cards"] == 0
    assert {"type": "top_up_blank_cards"} in game.moves(1)
    assert game.send(1, {"type": "top_up_blank_cards"}).status_code == 201
    assert game.state()["blank_cards"] == 1


def test_a_bad_option_of_the_readings_is_refused_and_no_game_is_made(make_user, client_for):
    client = client_for(make_user())
    from decks import services as deck_services

    deck_services.deck_create(author=None, data=DeckData.from_dict(
        {"slug": "plain-things", "title": "Plain", "cards": THINGS}))
    for options, field in (({"proposer_votes": "yes"}, "options.proposer_votes"),
                           ({"any_time_actions_count": 1}, "options.any_time_actions_count"),
                           ({"blank_cards_top_up": "always"}, "options.blank_cards_top_up")):
        answer = client.post("/api/v1/games/", {"deck": "plain-things", "options": options}, format="json")
        assert answer.status_code == 400 and answer.json()["error"]["details"]["field"] == field
    assert client.get("/api/v1/games/").json()["count"] == 0
