"""Article II through the API, as a client that knows only the API and GET /moves/ plays it: Voter ADHD's follow-up
choice, ``end_turn``, the seat to act, the stated outcome, and the party Variation's match of four games."""

from __future__ import annotations

import random

import pytest

from tests.games.test_moves_api import moves_of, play_by_moves
from tests.seeds import seed_deck_json

pytestmark = pytest.mark.django_db


@pytest.fixture
def article_ii_deck(db):
    from decks import services as deck_services

    [deck] = deck_services.deck_import(author=None, text=seed_deck_json("article-ii-updated"), format="json")
    return deck


def seat_players(article_ii_deck, make_user, client_for, players: int, *, options: dict | None = None,
                 parties: list[str | None] | None = None):
    parties = parties or [None] * players
    seated = [(user, client_for(user)) for user in (make_user() for _ in range(players))]
    body = {"deck": article_ii_deck.slug, "max_players": players,
            "options": {**(options or {}), **({"team": parties[0]} if parties[0] else {})}}
    created = seated[0][1].post("/api/v1/games/", body, format="json")
    assert created.status_code == 201, created.content
    game_id = created.json()["id"]
    for (_, client), party in zip(seated[1:], parties[1:], strict=True):
        joined = client.post(f"/api/v1/games/{game_id}/join/", {"team": party} if party else {}, format="json")
        assert joined.status_code == 200, joined.content
    assert seated[0][1].post(f"/api/v1/games/{game_id}/start/").status_code == 200
    return game_id, seated


def events_of(client, game_id) -> list[dict]:
    return client.get(f"/api/v1/games/{game_id}/events/").json()["events"]


def test_a_two_player_game_played_by_the_moves_ends_with_its_outcome_stated(article_ii_deck, make_user, client_for):
    for seed in range(3):
        game_id, seated = seat_players(article_ii_deck, make_user, client_for, 2)
        play_by_moves(game_id, seated, random.Random(seed), steps=300)
        final = seated[0][1].get(f"/api/v1/games/{game_id}/").json()
        finished = events_of(seated[1][1], game_id)[-1]
        assert final["status"] == "finished" and finished["type"] == "game.finished"
        outcome = finished["data"]["outcome"]
        assert outcome in {"president", "no_president"} and finished["data"]["reason"]
        assert final["outcome"]["outcome"] == outcome == final["results"]["general"]["outcome"]
        assert bool(final["winners"]) == (outcome == "president")


def play_until_a_voter_adhd_waits(game_id, seated, chooser: random.Random) -> dict:
    """Plays the listed moves (never naming Voter ADHD's card in the play, and playing it where there is a choice
    whenever it can) until a Voter ADHD waits for its card, or the game ends; the last state read."""
    while True:
        state = seated[0][1].get(f"/api/v1/games/{game_id}/").json()
        if state["status"] != "active" or state["removal"] is not None:
            return state
        client = seated[state["acting"]][1]
        you = client.get(f"/api/v1/games/{game_id}/").json()["players"][state["acting"]]
        voter_adhd = {card["id"] for card in you["hand"] if card["title"] == "Voter ADHD"}
        moves = [m for m in moves_of(client, game_id)["moves"]
                 if m["type"] != "play" or not any(isinstance(v, dict) for v in m.values())]
        waiting = [m for m in moves if m.get("card") in voter_adhd
                   and len(state["players"][m["target"]]["in_play"]) > 1]
        response = client.post(f"/api/v1/games/{game_id}/commands/", chooser.choice(waiting or moves), format="json")
        assert response.status_code == 201, response.content


def test_while_a_voter_adhd_waits_for_its_card_the_state_and_the_moves_say_who_names_it(
        article_ii_deck, make_user, client_for):
    chooser = random.Random(5)
    for _ in range(5):  # the deal is the server's: a game may end before a Voter ADHD has a choice to make
        game_id, seated = seat_players(article_ii_deck, make_user, client_for, 3)
        state = play_until_a_voter_adhd_waits(game_id, seated, chooser)
        if state["removal"] is not None:
            break
    removal = state["removal"]
    assert removal is not None, "no Voter ADHD waited for its card"
    assert state["acting"] == removal["seat"]
    assert set(removal["from"]) <= {c["id"] for c in state["players"][removal["target"]]["in_play"]}
    for seat, (_, client) in enumerate(seated):
        moves = moves_of(client, game_id)["moves"]
        if seat == removal["seat"]:
            assert moves == [{"type": "remove", "card": {"choose": 1, "from": removal["from"], "list": False}}]
        else:
            assert moves == []
    client = seated[removal["seat"]][1]
    wrong = client.post(f"/api/v1/games/{game_id}/commands/", {"type": "end_turn"}, format="json")
    assert (wrong.status_code, wrong.json()["error"]["code"]) == (409, "wrong_stage")
    assert wrong.json()["error"]["details"] == {"stage": "remove", "remove": removal["from"]}
    answer = client.post(f"/api/v1/games/{game_id}/commands/", {"type": "remove", "card": removal["from"][0]},
                         format="json")
    assert answer.status_code == 201, answer.content
    assert answer.json()["events"][0]["type"] == "card.removed"
    assert client.get(f"/api/v1/games/{game_id}/").json()["removal"] is None


def test_a_remove_without_its_card_is_refused_before_the_game_sees_it(article_ii_deck, make_user, client_for):
    game_id, seated = seat_players(article_ii_deck, make_user, client_for, 2)
    answer = seated[0][1].post(f"/api/v1/games/{game_id}/commands/", {"type": "remove"}, format="json")
    assert answer.status_code == 400 and "card" in answer.json()["error"]["details"]


def test_the_parties_variation_is_refused_for_other_than_four_players(article_ii_deck, make_user, client_for):
    client = client_for(make_user())
    for body, field in (({"max_players": 3, "options": {"variation": "parties"}}, "max_players"),
                        ({"max_players": 4, "options": {"variation": "bipartisan"}}, "options.variation")):
        answer = client.post("/api/v1/games/", {"deck": article_ii_deck.slug, **body}, format="json")
        assert answer.status_code == 400, answer.content
        assert answer.json()["error"]["details"]["field"] == field


def test_the_parties_variation_plays_four_games_through_the_api_to_the_player_with_most_points(
        article_ii_deck, make_user, client_for):
    game_id, seated = seat_players(article_ii_deck, make_user, client_for, 4,
                                   options={"variation": "parties", "starting_hand": 2},
                                   parties=["Whigs", None, None, "Whigs"])
    state = seated[2][1].get(f"/api/v1/games/{game_id}/").json()
    assert [p["team"] for p in state["players"]][::3] == ["Whigs", "Whigs"]
    assert sorted(len(party["seats"]) for party in state["match"]["parties"]) == [2, 2]
    play_by_moves(game_id, seated, random.Random(7), steps=400)
    final = seated[1][1].get(f"/api/v1/games/{game_id}/").json()
    assert final["status"] == "finished"
    match = final["match"]
    assert [record["election"] for record in match["history"]] == [1, 2, 3, 4]
    points = [entry["points"] for entry in match["points"]]
    assert final["winners"] == [seat for seat, p in enumerate(points) if p == max(points)]
    assert sum(party["points"] for party in match["parties"]) == sum(points)
    finished = events_of(seated[0][1], game_id)[-1]
    assert finished["data"]["outcome"] == "most_points"
    assert finished["data"]["reason"] == "After four games, the player with the most points wins."
