"""Abandoning a game through the API, as a client does it. The rulebook's Aftermath:

    "Once somebody has won the game, or the game has been abandoned through stalemate or boredom, any cards whose
    proposal was rejected can be reviewed and voted on again"

so a creative game that every player abandons ends ``abandoned``, with no winner, and its deck is reviewed and
published as after a win.
"""

import pytest

from tests.ccg.conftest import _tasks_run_eagerly, filibuster, filibuster_with_cards, players  # noqa: F401
from tests.ccg.test_ccg_games import build_deck, create_ccg_game

pytestmark = pytest.mark.django_db

AGREE, WITHDRAW = {"type": "abandon"}, {"type": "abandon", "withdraw": True}


def command(client, game_id, body):
    response = client.post(f"/api/v1/games/{game_id}/commands/", body, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def moves(client, game_id) -> list[dict]:
    return client.get(f"/api/v1/games/{game_id}/moves/").json()["moves"]


def abandon_moves(client, game_id) -> list[dict]:
    return [move for move in moves(client, game_id) if move["type"] == "abandon"]


def test_a_creative_game_that_every_player_abandons_ends_abandoned_and_can_be_published(
        archive_deck, make_user, client_for):
    deck = archive_deck(20)
    a, b, c = (client_for(make_user(name)) for name in ("ann", "bob", "cat"))
    game_id = a.post("/api/v1/games/", {"deck": deck.slug, "creative": True, "max_players": 3},
                     format="json").json()["id"]
    for client in (b, c):
        assert client.post(f"/api/v1/games/{game_id}/join/", {}, format="json").status_code == 200
    # A card voted down during play, "simply because someone didn't want it in the deck at the time".
    command(a, game_id, {"type": "propose", "kind": "card",
                         "card": {"title": "Second Wind", "type": "Action", "text": "Draw two cards."}})
    command(b, game_id, {"type": "vote", "proposal": 1, "approve": False})
    assert a.post(f"/api/v1/games/{game_id}/start/").status_code == 200
    # `abandon` is listed in /moves/ for every player still in the game.
    assert abandon_moves(a, game_id) == abandon_moves(b, game_id) == abandon_moves(c, game_id) == [AGREE]

    command(a, game_id, AGREE)
    assert abandon_moves(a, game_id) == [WITHDRAW]
    assert abandon_moves(b, game_id) == abandon_moves(c, game_id) == [AGREE]
    command(b, game_id, AGREE)
    state = c.get(f"/api/v1/games/{game_id}/").json()
    assert state["status"] == "active" and state["abandon"] == {"agreed": [0, 1]}

    command(b, game_id, WITHDRAW)
    version = a.get(f"/api/v1/games/{game_id}/").json()["version"]
    refused = c.post(f"/api/v1/games/{game_id}/commands/", WITHDRAW, format="json")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "denied"
    outsider = client_for(make_user("dan")).post(f"/api/v1/games/{game_id}/commands/", AGREE, format="json")
    assert outsider.status_code == 403
    assert a.get(f"/api/v1/games/{game_id}/").json()["version"] == version  # nothing applied on refusal
    early = a.post(f"/api/v1/games/{game_id}/publish/", {}, format="json")
    assert early.status_code == 409 and early.json()["error"]["code"] == "game_not_finished"

    command(b, game_id, AGREE)
    command(c, game_id, AGREE)
    state = a.get(f"/api/v1/games/{game_id}/").json()
    assert state["status"] == "abandoned" and state["winners"] == [] and state["turn"] is None
    assert state["abandon"] == {"agreed": [0, 1, 2]}
    events = [event["type"] for event in c.get(f"/api/v1/games/{game_id}/events/?after={version}").json()["events"]]
    assert events == ["abandon.agreed", "abandon.agreed", "game.abandoned"]
    listed = a.get("/api/v1/games/?status=abandoned&mine=true").json()["results"]
    assert [game["id"] for game in listed] == [game_id] and listed[0]["status"] == "abandoned"
    assert a.get("/api/v1/games/?status=finished&mine=true").json()["results"] == []

    # The Aftermath: the rejected card is reviewed and voted on again; the game returns to abandoned.
    [rejected] = state["rejected"]
    command(b, game_id, {"type": "propose", "kind": "card", "from_rejected": rejected["id"]})
    assert a.get(f"/api/v1/games/{game_id}/").json()["status"] == "voting"
    command(a, game_id, {"type": "vote", "proposal": 2, "approve": True})
    command(c, game_id, {"type": "vote", "proposal": 2, "approve": True})
    state = a.get(f"/api/v1/games/{game_id}/").json()
    assert state["status"] == "abandoned" and state["proposals"][1]["status"] == "accepted"
    assert moves(a, game_id) == []  # the game is over: nothing more to play
    refused = a.post(f"/api/v1/games/{game_id}/commands/", {"type": "draw"}, format="json")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "game_not_active"

    published = a.post(f"/api/v1/games/{game_id}/publish/", {}, format="json")
    assert published.status_code == 201, published.content
    assert published.json()["deck"] == deck.slug and published.json()["revision"] == 2
    titles = {card["title"]: card for card in a.get(f"/api/v1/decks/{deck.slug}/").json()["cards"]}
    assert titles["Second Wind"]["creator"] == "ann" and len(titles) == 21


def test_the_games_list_filters_on_abandoned_and_refuses_an_unknown_status(make_user, client_for):
    client = client_for(make_user("ann"))
    assert client.get("/api/v1/games/?status=abandoned").status_code == 200
    refused = client.get("/api/v1/games/?status=given_up")
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "invalid"


def test_a_game_open_to_players_once_over_opens_its_replay_once_abandoned(archive_deck, make_user, client_for):
    a, b = client_for(make_user("ann")), client_for(make_user("bob"))
    game_id = a.post("/api/v1/games/", {"deck": archive_deck(40).slug, "options": {"spectators": "players"}},
                     format="json").json()["id"]
    b.post(f"/api/v1/games/{game_id}/join/", {}, format="json")
    a.post(f"/api/v1/games/{game_id}/start/")
    watcher = client_for(make_user("cat"))
    assert watcher.get(f"/api/v1/games/{game_id}/").status_code == 403
    command(a, game_id, AGREE)
    command(b, game_id, AGREE)
    seen = watcher.get(f"/api/v1/games/{game_id}/")
    assert seen.status_code == 200 and seen.json()["status"] == "abandoned"


def test_an_abandoned_ccg_game_gives_the_player_decks_back_for_tuning(filibuster_with_cards, players):  # noqa: F811
    (_, ann), (_, bob) = players
    ann_deck = build_deck(ann, filibuster_with_cards, "Ann's filibusters")
    bob_deck = build_deck(bob, filibuster_with_cards, "Bob's gambits")
    game_id = create_ccg_game(ann, ann_deck["id"], formal=False).json()["id"]
    assert bob.post(f"/api/v1/games/{game_id}/join/", {"player_deck": bob_deck["id"]}, format="json").status_code == 200
    assert ann.post(f"/api/v1/games/{game_id}/start/").status_code == 200
    assert ann.get(f"/api/v1/player-decks/{ann_deck['id']}/").json()["in_game"]

    command(ann, game_id, AGREE)
    command(bob, game_id, AGREE)

    assert ann.get(f"/api/v1/games/{game_id}/").json()["status"] == "abandoned"
    for client, deck in ((ann, ann_deck), (bob, bob_deck)):
        assert not client.get(f"/api/v1/player-decks/{deck['id']}/").json()["in_game"]
