"""The HTTP streams as a client reads them from a real server (one daphne process for the module): a game's events
as NDJSON and as Server-Sent Events, resumed by ``Last-Event-ID``, kept alive; the account feed announcing an
invitation, the start, each turn and the end of a game; refusals in the API's JSON error shape."""

from __future__ import annotations

import json
from contextlib import ExitStack

import httpx
import pytest
from django.conf import settings

from tests.live.streaming import Stream, api, daphne, server_sent_events, started_game, turn_passed

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ACCOUNT = "/api/v1/account/stream/"


def game_stream(game_id: str, query: str = "") -> str:
    return f"/api/v1/games/{game_id}/stream/{query}"


@pytest.fixture(scope="module")
def server(django_db_setup, django_db_blocker, tmp_path_factory):
    """The app in one daphne process on the test database; on the suite's Redis when it has one, as in production
    (the feed's and the games' group messages go through it)."""
    redis = {"REDIS_URL": settings.REDIS_URL} if settings.REDIS_URL else {}
    with ExitStack() as stack:
        with django_db_blocker.unblock():
            base, log = stack.enter_context(daphne(tmp_path_factory.mktemp("streams"), **redis))
        yield base
        assert "Traceback" not in log.read_text(), log.read_text()


def test_an_ndjson_stream_shows_every_event_then_the_other_players_draw_without_its_card(
        server, make_user, archive_deck):
    ann, bob = make_user(), make_user()
    game_id = started_game(server, ann, bob, archive_deck(40).slug)
    with api(server, ann) as ann_api, api(server, bob) as bob_api:
        state = ann_api.get(f"/games/{game_id}/").json()
        mover, watcher = (ann_api, bob_api) if state["turn"]["seat"] == 0 else (bob_api, ann_api)
        with Stream(server, game_stream(game_id), headers={"Authorization": watcher.headers["Authorization"]}) as stream:
            assert stream.response.status_code == 200
            assert stream.response.headers["Content-Type"] == "application/x-ndjson"
            caught_up = stream.objects_until(lambda event: event["version"] == state["version"])
            assert caught_up == watcher.get(f"/games/{game_id}/events/").json()["events"]

            drawn = mover.post(f"/games/{game_id}/commands/", json={"type": "draw"})
            assert drawn.status_code == 201, drawn.text
            card = next(e for e in drawn.json()["events"] if e["type"] == "card.drawn")["data"]["card"]
            line = stream.until(lambda line: '"card.drawn"' in line)[-1]
            assert json.loads(line)["data"] == {"seat": state["turn"]["seat"]}
            assert card["id"] not in line and card["title"] not in line


def test_server_sent_events_carry_each_version_as_their_id_and_resume_after_last_event_id(
        server, make_user, archive_deck):
    ann, bob = make_user(), make_user()
    game_id = started_game(server, ann, bob, archive_deck(40).slug)
    with api(server, bob) as bob_api:
        shown = bob_api.get(f"/games/{game_id}/events/").json()["events"]
    last = shown[-1]["version"]
    sse = {"Accept": "text/event-stream"}
    with Stream(server, game_stream(game_id), user=bob, headers=sse) as stream:
        assert stream.response.headers["Content-Type"] == "text/event-stream"
        lines = stream.until(lambda line: line == f"id: {last}")
        lines += stream.until(lambda line: line == "")
    events = [event for event in server_sent_events(lines) if "data" in event]
    assert [int(event["id"]) for event in events] == list(range(1, last + 1))
    assert [json.loads(event["data"]) for event in events] == shown

    # An EventSource that reconnects sends the id of the last event it had; that wins over `after`.
    with Stream(server, game_stream(game_id, "?after=1"), user=bob, headers={**sse, "Last-Event-ID": "3"}) as resumed:
        assert resumed.until(lambda line: line.startswith("id: "))[-1] == "id: 4"


def test_a_stream_with_nothing_to_say_keeps_the_connection_alive(server, make_user, archive_deck):
    ann, bob = make_user(), make_user()
    with Stream(server, ACCOUNT, user=ann) as quiet:
        assert quiet.until(lambda line: True) == [""]  # NDJSON: an empty line
    game_id = started_game(server, ann, bob, archive_deck(40).slug)
    with api(server, ann) as ann_api:
        version = ann_api.get(f"/games/{game_id}/").json()["version"]
    with Stream(server, game_stream(game_id, f"?after={version}"), user=ann,
                headers={"Accept": "text/event-stream"}) as quiet:
        assert quiet.until(lambda line: line == "") == [": keep-alive", ""]  # SSE: a comment


def test_the_account_stream_announces_an_invitation_the_start_each_turn_and_the_end(server, make_user, archive_deck):
    ann, bob = make_user(), make_user()
    deck = archive_deck(40)
    with ExitStack() as stack:
        ann_api, bob_api = stack.enter_context(api(server, ann)), stack.enter_context(api(server, bob))
        bob_feed = stack.enter_context(Stream(server, ACCOUNT, user=bob))
        created = ann_api.post("/games/", json={"deck": deck.slug, "max_players": 2, "invite": [bob.username]})
        assert created.status_code == 201, created.text
        game_id, version = created.json()["id"], created.json()["version"]
        invited = {"type": "invited", "game": game_id, "ruleset": "dvorak", "by": ann.username, "version": version}
        seen = bob_feed.objects_until(lambda line: line == invited)
        if not any(line["type"] == "notice" for line in seen):
            seen += bob_feed.objects_until(lambda line: line["type"] == "notice")
        notice = next(line["notice"] for line in seen if line["type"] == "notice")
        assert notice["data"] == {"kind": "invitation", "game": game_id, "from": ann.username}
        # A stream opened now is told what is true now: the invitation not taken up yet.
        with Stream(server, ACCOUNT, user=bob) as later:
            assert later.objects_until(lambda line: line["type"] == "invited")[-1] == invited

        assert bob_api.post(f"/games/{game_id}/join/", json={}).status_code == 200
        ann_feed = stack.enter_context(Stream(server, ACCOUNT, user=ann))
        assert ann_api.post(f"/games/{game_id}/start/").status_code == 200
        feeds, apis = {0: ann_feed, 1: bob_feed}, {0: ann_api, 1: bob_api}
        for seat, feed in feeds.items():
            started = feed.objects_until(lambda line: line["type"] == "game_started")[-1]
            assert started == {**started, "game": game_id, "ruleset": "dvorak", "seat": seat}

        first = ann_api.get(f"/games/{game_id}/").json()["turn"]["seat"]
        assert feeds[first].objects_until(lambda line: line["type"] == "your_turn")[-1]["seat"] == first
        turn_passed(apis[first], game_id)
        second = 1 - first
        line = feeds[second].objects_until(lambda line: line["type"] == "your_turn")[-1]
        assert line["game"] == game_id and line["seat"] == second

        conceded = apis[first].post(f"/games/{game_id}/commands/", json={"type": "concede"})
        assert conceded.status_code == 201, conceded.text
        for feed in feeds.values():
            finished = feed.objects_until(lambda line: line["type"] == "game_finished")[-1]
            assert finished == {"type": "game_finished", "game": game_id, "ruleset": "dvorak", "status": "finished",
                                "winners": [second], "version": conceded.json()["version"]}


def test_a_stream_that_may_not_open_is_refused_with_the_apis_json_error(server, make_user, archive_deck):
    ann, bob, eve = make_user(), make_user(), make_user()
    game_id = started_game(server, ann, bob, archive_deck(40).slug, options={"spectators": "nobody"})
    url = f"{server}{game_stream(game_id)}"

    def refused(status: int, code: str, url: str = url, **headers) -> None:
        answer = httpx.get(url, headers=headers, timeout=10)
        assert answer.status_code == status, answer.text
        assert answer.headers["Content-Type"] == "application/json"
        assert answer.json()["error"]["code"] == code

    refused(401, "not_authenticated")
    refused(401, "not_authenticated", f"{server}{ACCOUNT}", Accept="text/event-stream")
    refused(401, "not_authenticated", f"{url}?ticket=1:forged:ticket")
    refused(403, "forbidden", Authorization=f"Token {eve.api_token}")
    refused(404, "not_found", f"{server}{game_stream('00000000-0000-0000-0000-000000000000')}",
            Authorization=f"Token {eve.api_token}")
    refused(400, "invalid", f"{url}?after=-1", Authorization=f"Token {bob.api_token}")
    refused(400, "invalid", Authorization=f"Token {bob.api_token}", **{"Last-Event-ID": "soon"})

    # A browser's EventSource sends no header: a ticket in the URL signs it in, from a page of any origin.
    with api(server, bob) as bob_api:
        ticket = bob_api.post("/auth/ticket/").json()["ticket"]
    with Stream(server, game_stream(game_id, f"?ticket={ticket}"),
                headers={"Accept": "text/event-stream", "Origin": "https://front.example"}) as stream:
        assert stream.response.status_code == 200
        assert stream.response.headers["Access-Control-Allow-Origin"] in ("*", "https://front.example")
        assert stream.until(lambda line: line.startswith("id: "))[-1] == "id: 1"
    refused(401, "not_authenticated", f"{url}?ticket={ticket}")  # a ticket opens one stream, once
