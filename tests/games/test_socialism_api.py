"""Socialism through the API: a game from the seed deck plays the ``socialism`` ruleset, its options and limits are
checked, hands stay hidden, the Sherman Act window gives several seats moves at once, and bad commands are 4xx."""

from __future__ import annotations

import pytest

from tests.seeds import seed_deck_json

pytestmark = pytest.mark.django_db


@pytest.fixture
def socialism_deck(db):
    from decks import services as deck_services

    deck_services.deck_import(author=None, text=seed_deck_json("socialism"), format="json")
    return "socialism"


def started(make_user, client_for, players: int = 3, **body) -> tuple[str, list]:
    clients = [client_for(make_user()) for _ in range(players)]
    created = clients[0].post(
        "/api/v1/games/", {"deck": "socialism", "max_players": players, **body}, format="json"
    )
    assert created.status_code == 201, created.content
    game_id = created.json()["id"]
    for client in clients[1:]:
        assert client.post(f"/api/v1/games/{game_id}/join/", {}, format="json").status_code == 200
    assert clients[0].post(f"/api/v1/games/{game_id}/start/").status_code == 200
    return game_id, clients


def test_a_game_from_the_socialism_deck_plays_socialism(socialism_deck, make_user, client_for):
    client = client_for(make_user())
    created = client.post("/api/v1/games/", {"deck": socialism_deck}, format="json")
    assert created.status_code == 201, created.content
    game = created.json()
    assert game["ruleset"] == "socialism" and game["tokens"] == 15 and game["board"] is None
    [summary] = client.get("/api/v1/games/?mine=1").json()["results"]
    assert summary["max_players"] == 5


@pytest.mark.parametrize(
    "body, field",
    [
        ({"options": {"tokens": 16}}, "options.tokens"),
        ({"max_players": 6}, "max_players"),
        ({"creative": True}, "creative"),
    ],
)
def test_a_game_socialism_cannot_play_is_refused(socialism_deck, make_user, client_for, body, field):
    client = client_for(make_user())
    refused = client.post("/api/v1/games/", {"deck": socialism_deck, **body}, format="json")
    assert refused.status_code == 400, refused.content
    assert refused.json()["error"]["code"] == "invalid"


def test_twenty_tokens_is_an_option(socialism_deck, make_user, client_for):
    game_id, clients = started(make_user, client_for, 2, options={"tokens": 20})
    state = clients[1].get(f"/api/v1/games/{game_id}/").json()
    assert state["tokens"] == 20 and [p["counters"]["tokens"] for p in state["players"]] == [20, 20]


def test_the_readings_are_options_written_into_the_game_when_it_is_created(socialism_deck, make_user, client_for):
    """OMG CAT PIC's "all of their friends", Viral Post's "moves to a new user" (its player's choice) and "a few
    basic options" (each once a turn): a new game is played by the readings it was created with, and shows them."""
    client = client_for(make_user())
    created = client.post(
        "/api/v1/games/", {"deck": socialism_deck, "options": {"viral_post": "random"}}, format="json"
    )
    assert created.status_code == 201, created.content
    readings = {"cat_pic": "all", "viral_post": "random", "invitations": "each"}
    assert created.json()["options"] == readings
    game_id = created.json()["id"]
    [first, *_] = client.get(f"/api/v1/games/{game_id}/events/").json()["events"]
    assert first["type"] == "game.created" and first["data"]["options"] == readings


@pytest.mark.parametrize(
    "name, value, choices",
    [
        ("cat_pic", "three", ["all", "up_to_two"]),
        ("viral_post", "nearest", ["chosen", "random"]),
        ("invitations", 1, ["each", "one"]),
    ],
)
def test_a_reading_with_another_value_is_refused_naming_the_option(
    socialism_deck, make_user, client_for, name, value, choices
):
    client = client_for(make_user())
    refused = client.post("/api/v1/games/", {"deck": socialism_deck, "options": {name: value}}, format="json")
    assert refused.status_code == 400, refused.content
    error = refused.json()["error"]
    assert error["code"] == "invalid" and error["details"] == {"field": f"options.{name}", "choices": choices}


def test_move_viral_post_is_refused_when_no_viral_post_of_yours_waits(socialism_deck, make_user, client_for):
    game_id, clients = started(make_user, client_for, 2)
    url = f"/api/v1/games/{game_id}/commands/"
    shape = clients[0].post(url, {"type": "move_viral_post"}, format="json")
    assert shape.status_code == 400 and shape.json()["error"]["code"] == "invalid"
    assert "user" in shape.json()["error"]["details"]
    for client in clients:
        answer = client.post(url, {"type": "move_viral_post", "user": "2bced85c5630c626"}, format="json")
        assert answer.status_code == 409 and answer.json()["error"]["code"] == "not_your_turn"


def test_each_player_sees_their_own_hand_and_only_the_count_of_the_others(
    socialism_deck, make_user, client_for
):
    game_id, clients = started(make_user, client_for, 3)
    hands = {}
    for seat, client in enumerate(clients):
        players = client.get(f"/api/v1/games/{game_id}/").json()["players"]
        assert len(players[seat]["hand"]) == 3
        hands[seat] = {card["id"] for card in players[seat]["hand"]}
        assert all("hand" not in p and p["hand_count"] == 3 for p in players if p["seat"] != seat)
    for seat, client in enumerate(clients):
        text = client.get(f"/api/v1/games/{game_id}/events/").content.decode()
        others = set().union(*(hands[s] for s in hands if s != seat))
        assert not [card for card in others if card in text]
        assert all(card in text for card in hands[seat])  # dealt to this seat, named to it


def test_a_card_played_waits_for_every_other_player_at_once(socialism_deck, make_user, client_for):
    game_id, clients = started(make_user, client_for, 3)
    state = clients[0].get(f"/api/v1/games/{game_id}/").json()
    seat = state["board"]["turn"]["seat"]
    url = f"/api/v1/games/{game_id}/commands/"
    assert clients[seat].post(url, {"type": "draw"}, format="json").status_code == 201
    move = clients[seat].get(f"/api/v1/games/{game_id}/moves/").json()["moves"][0]
    move = {k: (v["from"][0] if isinstance(v, dict) else v) for k, v in move.items()}
    played = clients[seat].post(url, move, format="json")
    assert played.status_code == 201, played.content
    # At the first play the Sherman Act is in a hand or the draw pile, never on the discard pile: a window opens.
    waiting = played.json()["events"][0]["data"]["waiting"]
    others = [s for s in range(3) if s != seat]
    assert sorted(waiting) == others
    assert clients[seat].get(f"/api/v1/games/{game_id}/moves/").json()["moves"] == []
    for other in others:
        moves = clients[other].get(f"/api/v1/games/{game_id}/moves/").json()["moves"]
        assert {"type": "pass"} in moves
    refused = clients[seat].post(url, {"type": "end_turn"}, format="json")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "wrong_stage"
    for other in others:
        assert clients[other].post(url, {"type": "pass"}, format="json").status_code == 201
    after = clients[seat].get(f"/api/v1/games/{game_id}/").json()["board"]
    assert after["pending"] is None and after["turn"]["stage"] == "invite"


@pytest.mark.parametrize(
    "body, status, code",
    [
        ({"type": "use", "card": "abc"}, 400, "unknown_command"),
        ({"type": "invite", "how": "shout", "user": "x"}, 400, "invalid"),  # the body's shape first
        ({"type": "play", "card": 7}, 400, "invalid"),
        ({"type": "block", "member": "a", "friend": "b", "color": "red"}, 400, "invalid"),
    ],
)
def test_a_bad_command_is_a_4xx_and_changes_nothing(
    socialism_deck, make_user, client_for, body, status, code
):
    game_id, clients = started(make_user, client_for, 2)
    seat = clients[0].get(f"/api/v1/games/{game_id}/").json()["board"]["turn"]["seat"]
    other = clients[1 - seat]
    before = other.get(f"/api/v1/games/{game_id}/").json()["version"]
    answer = other.post(f"/api/v1/games/{game_id}/commands/", body, format="json")
    assert answer.status_code == status, answer.content
    assert answer.json()["error"]["code"] == code
    assert other.get(f"/api/v1/games/{game_id}/").json()["version"] == before


def test_an_invitation_of_the_wrong_shape_is_invalid_in_your_own_turn(socialism_deck, make_user, client_for):
    game_id, clients = started(make_user, client_for, 2)
    seat = clients[0].get(f"/api/v1/games/{game_id}/").json()["board"]["turn"]["seat"]
    url = f"/api/v1/games/{game_id}/commands/"
    me = clients[seat]
    me.post(url, {"type": "draw"}, format="json")
    move = me.get(f"/api/v1/games/{game_id}/moves/").json()["moves"][0]
    move = {k: (v["from"][0] if isinstance(v, dict) else v) for k, v in move.items()}
    me.post(url, move, format="json")
    for other in clients:
        if other is not me:
            other.post(url, {"type": "pass"}, format="json")
    for body in (
        {"type": "invite", "how": "shout", "user": "x"},
        {"type": "invite", "how": "personal", "member": "x", "friends": "y"},
        {"type": "block", "member": "x", "friend": "y", "color": "red"},
    ):
        answer = me.post(url, body, format="json")
        assert answer.status_code in (400, 409), answer.content
        assert answer.json()["error"]["code"] in ("invalid", "denied")
