"""The account feed's lines, in the server's process: which player is told what after each command (games/feed.py),
and what the two streams answer where no ASGI server keeps them open (the test client: what a stream sends on
opening, then its end). tests/live/test_streams.py reads the same streams live from a real server."""

from __future__ import annotations

import json

import pytest

from games import feed, services

pytestmark = pytest.mark.django_db


@pytest.fixture
def told(monkeypatch):
    """Every line sent to a user's feed group, as (user id, line), in order; only the feed follows a command here."""
    sent: list[tuple[int, dict]] = []

    def group_send(group: str, message: dict) -> None:
        if group.startswith("user."):
            sent.append((int(group.removeprefix("user.")), message["line"]))

    monkeypatch.setattr("dvorak_kit.publisher.group_send", group_send)
    monkeypatch.setattr(services, "AFTER_COMMIT", [feed.after_commit])
    return sent


def kinds(sent: list[tuple[int, dict]]) -> list[tuple[int, str]]:
    return [(user_id, line["type"]) for user_id, line in sent]


def test_each_player_is_told_of_the_start_of_their_turn_and_of_the_end_and_no_one_else_is(
        table, told, django_capture_on_commit_callbacks):
    game_id, seated = table(2, start=False)
    (ann, ann_client), (bob, bob_client) = seated
    with django_capture_on_commit_callbacks(execute=True):
        assert ann_client.post(f"/api/v1/games/{game_id}/start/").status_code == 200
    state = ann_client.get(f"/api/v1/games/{game_id}/").json()
    first = state["turn"]["seat"]
    users, clients = (ann, bob), (ann_client, bob_client)
    assert kinds(told) == [(ann.pk, "game_started"), (bob.pk, "game_started"), (users[first].pk, "your_turn")]
    assert told[0][1] == {"type": "game_started", "game": game_id, "ruleset": "dvorak", "seat": 0,
                          "version": state["version"]}
    assert told[2][1] == {"type": "your_turn", "game": game_id, "ruleset": "dvorak", "seat": first,
                          "version": state["version"]}

    # Their own draw leaves them to play on: told again; the other player is told nothing.
    told.clear()
    with django_capture_on_commit_callbacks(execute=True):
        drawn = clients[first].post(f"/api/v1/games/{game_id}/commands/", {"type": "draw"}, format="json")
    assert kinds(told) == [(users[first].pk, "your_turn")]
    assert told[0][1]["version"] == drawn.json()["version"]

    told.clear()
    with django_capture_on_commit_callbacks(execute=True):
        conceded = clients[1 - first].post(f"/api/v1/games/{game_id}/commands/", {"type": "concede"}, format="json")
    assert kinds(told) == [(ann.pk, "game_finished"), (bob.pk, "game_finished")]
    assert told[0][1] == {"type": "game_finished", "game": game_id, "ruleset": "dvorak", "status": "finished",
                          "winners": [first], "version": conceded.json()["version"]}


def test_a_computer_players_seat_is_told_nothing(archive_deck, make_user, client_for, told,
                                                django_capture_on_commit_callbacks):
    ann = make_user()
    client = client_for(ann)
    game_id = client.post("/api/v1/games/", {"deck": archive_deck(40).slug}, format="json").json()["id"]
    assert client.post(f"/api/v1/games/{game_id}/bots/", {"level": "random"}, format="json").status_code == 201
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(f"/api/v1/games/{game_id}/start/").status_code == 200
    assert {user_id for user_id, _ in told} == {ann.pk}


def test_an_invitation_and_its_notice_go_to_the_invited_players_feed(archive_deck, make_user, client_for, told,
                                                                   django_capture_on_commit_callbacks):
    ann, bob = make_user(), make_user()
    with django_capture_on_commit_callbacks(execute=True):
        created = client_for(ann).post("/api/v1/games/", {"deck": archive_deck(40).slug, "invite": [bob.username]},
                                       format="json")
    game = created.json()
    notices = client_for(bob).get("/api/v1/notifications/").json()
    assert sorted(told, key=lambda sent: sent[1]["type"]) == [
        (bob.pk, {"type": "invited", "game": game["id"], "ruleset": "dvorak", "by": ann.username,
                  "version": game["version"]}),
        (bob.pk, {"type": "notice", "notice": notices[0]})]


def test_without_a_live_server_each_stream_answers_what_it_sends_on_opening(table):
    """The test client (as a WSGI server) cannot keep a stream open: it gets the catch-up and the end."""
    game_id, seated = table(2)
    (ann, ann_client), (bob, bob_client) = seated
    answer = bob_client.get(f"/api/v1/games/{game_id}/stream/?after=2")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/x-ndjson"
    lines = answer.content.decode().splitlines()
    assert [json.loads(line) for line in lines] == \
        bob_client.get(f"/api/v1/games/{game_id}/events/?after=2").json()["events"]

    state = ann_client.get(f"/api/v1/games/{game_id}/").json()
    waiting = (ann_client, bob_client)[state["turn"]["seat"]]
    answer = waiting.get("/api/v1/account/stream/", HTTP_ACCEPT="text/event-stream")
    assert answer["Content-Type"] == "text/event-stream"
    events = [event for event in answer.content.decode().split("\n\n") if event]
    assert [json.loads(event.removeprefix("data: "))["type"] for event in events] == ["game_started", "your_turn"]


def test_a_page_of_the_site_signed_in_opens_a_stream_by_its_session(table, api_client):
    game_id, seated = table(2)
    api_client.force_login(seated[1][0])
    assert api_client.get(f"/api/v1/games/{game_id}/stream/").status_code == 200
    api_client.logout()
    assert api_client.get(f"/api/v1/games/{game_id}/stream/").status_code == 401
