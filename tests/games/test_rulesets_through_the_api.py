"""A deck with its own procedure (Article II) plays through the same API, store, views and websocket."""

import json

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator

from dvorak_engine.rulesets.article_ii import acting_seat
from dvorak_kit.eventstore import store
from dvorak_site.asgi import application
from games import services
from tests.engine.test_article_ii import legal_commands
from tests.seeds import seed_deck_json


@pytest.fixture
def article_ii(db):
    from decks import services as deck_services

    [deck] = deck_services.deck_import(author=None, text=seed_deck_json("article-ii-updated"), format="json")
    return deck


@pytest.mark.django_db(transaction=True)
def test_article_ii_is_played_to_a_president_through_the_api(article_ii, make_user, client_for):
    clients = [client_for(make_user(name)) for name in ("ann", "bob", "cy")]
    created = clients[0].post("/api/v1/games/", {"deck": article_ii.slug, "max_players": 3}, format="json")
    assert created.status_code == 201, created.content
    game = created.json()
    assert game["ruleset"] == "article_ii"
    game_id = game["id"]
    for client in clients[1:]:
        assert client.post(f"/api/v1/games/{game_id}/join/", {}, format="json").status_code == 200
    assert clients[0].post(f"/api/v1/games/{game_id}/start/").status_code == 200
    stream_id = f"game-{game_id}"

    for _ in range(400):
        state = services.state_at(stream_id, store.current_version(stream_id))
        if state.status != "active":
            break
        seat = acting_seat(state)
        for command in legal_commands(state, seat):
            response = clients[seat].post(f"/api/v1/games/{game_id}/commands/", command, format="json")
            if response.status_code == 201:
                break
            assert response.status_code in {400, 409}, response.content
        else:
            pytest.fail(f"seat {seat} had no accepted command")

    final = clients[1].get(f"/api/v1/games/{game_id}/").json()
    assert final["status"] == "finished"
    assert final["phase"] == "general" or "results" in final
    assert all({"electability", "affiliation"} <= set(p["counters"]) for p in final["players"])
    assert "hand" in final["players"][1] and all("hand" not in p for p in final["players"] if p["seat"] != 1)

    # Replaying the stored events gives the state the server played to.
    _, replayed = store.load(stream_id, services.FOLDER, use_snapshots=False)
    assert replayed == services.state_at(stream_id, store.current_version(stream_id))

    # The websocket serves this ruleset's events like any other.
    async def all_events_over_the_socket(token: str, count: int) -> list[dict]:
        socket = WebsocketCommunicator(application, f"/ws/games/{game_id}/?token={token}")
        assert (await socket.connect(timeout=5))[0]
        events = [(await socket.receive_json_from(timeout=5))["event"] for _ in range(count)]
        await socket.disconnect()
        return events

    version = store.current_version(stream_id)
    token = clients[2]._credentials["HTTP_AUTHORIZATION"].split()[1]
    events = async_to_sync(all_events_over_the_socket)(token, version)
    assert [e["version"] for e in events] == list(range(1, version + 1))
    assert events[-1]["type"] == "game.finished"
    rest = clients[2].get(f"/api/v1/games/{game_id}/events/").json()["events"]
    assert json.loads(json.dumps(events)) == rest
