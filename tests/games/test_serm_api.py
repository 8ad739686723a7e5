"""S.E.R.M., played by the server through the real API: a game from the seed deck plays it without naming a
ruleset, options are checked when it is created, a refused command appends nothing, the table is the same for
players and spectators, and the stored events replay to the state the game was played to."""

from __future__ import annotations

import pytest

from dvorak_kit.eventstore import store
from games import services
from tests.seeds import seed_deck_json

SLUG = "simplistic-wargame-with-four-stats-s-e-r-m"


@pytest.fixture
def serm_deck(db):
    from decks import services as deck_services

    [deck] = deck_services.deck_import(author=None, text=seed_deck_json(SLUG), format="json")
    return deck


@pytest.fixture
def serm_game(serm_deck, make_user, client_for):
    ann, bob = (client_for(make_user(name)) for name in ("ann", "bob"))
    created = ann.post("/api/v1/games/", {"deck": SLUG}, format="json")
    assert created.status_code == 201, created.content
    game = created.json()
    assert game["ruleset"] == "serm" and game["board"] is None
    game_id = game["id"]
    assert bob.post(f"/api/v1/games/{game_id}/join/", {}, format="json").status_code == 200
    assert ann.post(f"/api/v1/games/{game_id}/start/").status_code == 200
    return game_id, [ann, bob]


@pytest.mark.django_db
def test_a_game_from_the_seed_deck_plays_serm_with_one_of_each_soldier_a_side(serm_game, make_user, client_for):
    game_id, (ann, bob) = serm_game
    state = ann.get(f"/api/v1/games/{game_id}/").json()
    board = state["board"]
    assert board["phase"] == "battle" and board["field"] == {"width": 12, "height": 12}
    assert [p["counters"]["soldiers"] for p in state["players"]] == [8, 8]
    assert {(s["seat"], s["y"], s["facing"]) for s in board["soldiers"]} == {(0, 0, "N"), (1, 11, "S")}
    # Nothing is hidden: the other player and a spectator see the same table.
    spectator = client_for(make_user("cat"))
    assert bob.get(f"/api/v1/games/{game_id}/").json()["board"] == board
    assert spectator.get(f"/api/v1/games/{game_id}/").json()["board"] == board
    assert spectator.get(f"/api/v1/games/{game_id}/moves/").json()["moves"] == []


@pytest.mark.django_db
def test_a_refused_command_appends_nothing(serm_game):
    game_id, (ann, bob) = serm_game
    acting = ann.get(f"/api/v1/games/{game_id}/").json()["board"]["waiting_for"][0]
    waiting, other = (ann, bob) if acting == 0 else (bob, ann)
    before = ann.get(f"/api/v1/games/{game_id}/").json()["version"]
    refusals = [
        (other, {"type": "turn", "soldier": f"{1 - acting}-ranger", "facing": "E"}, 409, "not_your_turn"),
        (waiting, {"type": "turn", "soldier": f"{1 - acting}-ranger", "facing": "E"}, 400, "invalid"),
        (waiting, {"type": "advance", "soldier": f"{acting}-ranger", "direction": "UP"}, 400, "invalid"),
        (waiting, {"type": "step", "direction": "N"}, 409, "wrong_stage"),
        (waiting, {"type": "pass"}, 409, "denied"),
        (waiting, {"type": "draw"}, 400, "unknown_command"),
    ]
    for client, body, status, code in refusals:
        response = client.post(f"/api/v1/games/{game_id}/commands/", body, format="json")
        assert response.status_code == status, (body, response.content)
        assert response.json()["error"]["code"] == code
    assert ann.get(f"/api/v1/games/{game_id}/").json()["version"] == before


@pytest.mark.django_db
@pytest.mark.parametrize(("options", "field"), [
    ({"react_stop": "nowhere"}, "options.react_stop"),
    ({"react_turn": "always"}, "options.react_turn"),
    ({"terrain": [{"x": 0, "y": 0, "width": 1, "height": 1}]}, "options.terrain"),
    ({"width": 100}, "options.width"),
])
def test_options_out_of_range_are_refused_with_the_option_named(serm_deck, make_user, client_for, options, field):
    ann = client_for(make_user("ann"))
    response = ann.post("/api/v1/games/", {"deck": SLUG, "options": options}, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["error"]["code"] == "invalid"
    assert response.json()["error"]["details"]["field"] == field


@pytest.mark.django_db
def test_the_stored_events_replay_to_the_state_played_to(serm_game):
    game_id, (ann, bob) = serm_game
    clients = [ann, bob]
    for _ in range(30):
        state = ann.get(f"/api/v1/games/{game_id}/").json()
        if state["status"] != "active":
            break
        seat = state["board"]["waiting_for"][0]
        move = clients[seat].get(f"/api/v1/games/{game_id}/moves/").json()["moves"][0]
        body = {key: value["from"][0] if isinstance(value, dict) else value for key, value in move.items()}
        assert clients[seat].post(f"/api/v1/games/{game_id}/commands/", body, format="json").status_code == 201
    stream_id = f"game-{game_id}"
    _, replayed = store.load(stream_id, services.FOLDER, use_snapshots=False)
    assert replayed == services.state_at(stream_id, store.current_version(stream_id))
    events = ann.get(f"/api/v1/games/{game_id}/events/").json()["events"]
    rolls = [e["data"]["roll"] for e in events if e["type"] in ("serm.move_rolled", "serm.reacted")]
    assert all(roll["total"] == sum(map(sum, roll["dice"])) for roll in rolls)


@pytest.mark.django_db
def test_a_new_game_writes_its_react_choices_and_shows_them_under_rules(serm_game):
    game_id, (ann, _) = serm_game
    state = ann.get(f"/api/v1/games/{game_id}/").json()
    assert state["rules"] == {"budget": None, "react_stop": "reactor_chooses", "reacts": "one", "blast": "partly",
                              "react_turn": "turned"}
    [created] = [e for e in ann.get(f"/api/v1/games/{game_id}/events/").json()["events"] if e["type"] == "game.created"]
    assert created["data"]["options"]["react_stop"] == "reactor_chooses"
    assert created["data"]["options"]["react_turn"] == "turned"


@pytest.mark.django_db
def test_a_turn_in_sight_may_be_reacted_to_and_the_reacting_player_names_the_point(serm_game):
    """"Turning counts as the start and end of a Move"; "if the React roll is greater than the Move roll, the moving
    soldier is stopped anywhere along its move path": at the start every soldier stands in the enemy's sight, so a
    turn waits for the enemy's React, which names a square of the path (here the turning soldier's own)."""
    game_id, clients = serm_game
    seat = clients[0].get(f"/api/v1/games/{game_id}/").json()["board"]["waiting_for"][0]
    mover, enemy = clients[seat], clients[1 - seat]
    soldier = f"{seat}-guardsman"
    turned = mover.post(f"/api/v1/games/{game_id}/commands/", {"type": "turn", "soldier": soldier, "facing": "E"},
                        format="json")
    assert turned.status_code == 201, turned.content
    assert [e["type"] for e in turned.json()["events"]] == ["serm.move_rolled", "serm.react_offered"]
    board = enemy.get(f"/api/v1/games/{game_id}/").json()["board"]
    here = next(f"{s['x']},{s['y']}" for s in board["soldiers"] if s["id"] == soldier)
    assert board["phase"] == "react" and board["move"]["path"] == [here]
    assert mover.get(f"/api/v1/games/{game_id}/moves/").json()["moves"] == []
    react, passing = enemy.get(f"/api/v1/games/{game_id}/moves/").json()["moves"]
    assert react["stop"] == {"choose": 1, "from": [here], "list": False} and passing == {"type": "pass"}
    reactor = react["soldier"]["from"][0]
    version = enemy.get(f"/api/v1/games/{game_id}/").json()["version"]
    # A square off the path, one that is no square, none at all: 400 invalid, the field named, nothing appended.
    for stop in ("5,5", "nowhere", None):
        refused = enemy.post(f"/api/v1/games/{game_id}/commands/",
                             {"type": "react", "soldier": reactor, "stop": stop}, format="json")
        assert refused.status_code == 400, refused.content
        error = refused.json()["error"]
        assert error["code"] == "invalid" and (error["details"].get("field") == "stop" or "stop" in error["details"])
    assert enemy.get(f"/api/v1/games/{game_id}/").json()["version"] == version
    reacted = enemy.post(f"/api/v1/games/{game_id}/commands/", {"type": "react", "soldier": reactor, "stop": here},
                         format="json")
    assert reacted.status_code == 201, reacted.content
    events = {e["type"]: e["data"] for e in reacted.json()["events"]}
    assert events["serm.moved"]["to"] == here and events["serm.moved"]["facing"] == "E"
    if events["serm.reacted"]["stopped"]:
        assert events["serm.initiative"] == {"seat": 1 - seat, "soldier": reactor}
    else:
        assert events["serm.moved"]["stopped_by"] is None
