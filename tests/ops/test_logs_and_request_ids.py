"""Running it for real: each request's id (``X-Request-ID``) on its answer, in its error bodies and in every log line
it causes; one log line a request, JSON by default; an API path's failure answered in the JSON error shape, its
exception logged once with its traceback and never shown to the client (dvorak_kit/logs.py,
dvorak_site/middleware.py, games/api/fast.py)."""

import io
import json
import logging
import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import HttpCommunicator
from django.test import Client

from dvorak_kit import logs
from dvorak_site.asgi import application
from tests.ops.raising_urls import SECRET

pytestmark = pytest.mark.django_db

HEX_ID = re.compile(r"[0-9a-f]{32}")


@pytest.fixture
def log_lines():
    """The lines every logger writes while the test runs, through the formatter of ``LOG_FORMAT`` (json unless the
    test asks for another with ``log_lines("console")``), as a function answering them so far."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    root = logging.getLogger()
    root.addHandler(handler)

    def lines() -> list[str]:
        return [line for line in stream.getvalue().splitlines() if line]

    def using(log_format: str = "json"):
        handler.setFormatter(logs.formatter(log_format))
        return lines

    handler.setFormatter(logs.formatter("json"))
    lines.using = using
    yield lines
    root.removeHandler(handler)


def records(lines, logger=None) -> list[dict]:
    parsed = [json.loads(line) for line in lines()]
    return [record for record in parsed if logger is None or record.get("logger") == logger]


def test_a_request_id_sent_is_echoed_on_the_answer_and_in_its_error_body(client):
    response = client.get("/api/v1/no-such-thing/", HTTP_X_REQUEST_ID="client-id.42_x")
    assert response.status_code == 404
    assert response["X-Request-ID"] == "client-id.42_x"
    assert response.json()["error"]["request_id"] == "client-id.42_x"


def test_a_request_id_is_made_when_none_is_sent_and_each_request_has_its_own(client):
    first, second = client.get("/api/v1/health/"), client.get("/")
    assert HEX_ID.fullmatch(first["X-Request-ID"]) and HEX_ID.fullmatch(second["X-Request-ID"])
    assert first["X-Request-ID"] != second["X-Request-ID"]


@pytest.mark.parametrize("sent", ["has spaces", "quote\"d", "x" * 201, "", "a/b", "ünïcode"])
def test_a_request_id_that_is_not_a_sane_token_is_replaced(client, sent):
    response = client.get("/api/v1/no-such-thing/", HTTP_X_REQUEST_ID=sent)
    assert HEX_ID.fullmatch(response["X-Request-ID"])
    assert response.json()["error"]["request_id"] == response["X-Request-ID"]


def test_the_request_id_header_is_exposed_to_pages_of_other_origins(client):
    response = client.get("/api/v1/health/", HTTP_ORIGIN="https://elsewhere.example")
    assert "x-request-id" in response["Access-Control-Expose-Headers"].lower()


@pytest.mark.urls("tests.ops.raising_urls")
@pytest.mark.parametrize("path", ["/api/v1/test-failing/", "/api/v1/test-failing-drf/"])
def test_an_api_path_that_fails_answers_500_json_with_the_request_id_and_logs_the_traceback_once(path, log_lines):
    response = Client(raise_request_exception=False).get(path, HTTP_X_REQUEST_ID="failing-1")
    assert response.status_code == 500
    assert response["Content-Type"].startswith("application/json")
    assert response["X-Request-ID"] == "failing-1"
    error = response.json()["error"]
    assert error["code"] == "server_error" and error["request_id"] == "failing-1" and error["message"]
    assert SECRET not in response.content.decode()
    failures = [record for record in records(log_lines) if "exception" in record]
    assert len(failures) == 1
    assert failures[0]["request_id"] == "failing-1" and failures[0]["level"] == "error"
    assert "Traceback" in failures[0]["exception"] and "RuntimeError" in failures[0]["exception"]
    [line] = records(log_lines, "dvorak.request")
    assert (line["status"], line["request_id"], line["path"]) == (500, "failing-1", path)


@pytest.mark.urls("tests.ops.raising_urls")
def test_a_page_outside_the_api_that_fails_keeps_its_html_error_page():
    response = Client(raise_request_exception=False).get("/test-failing-page/")
    assert response.status_code == 500
    assert response["Content-Type"].startswith("text/html")
    assert response["X-Request-ID"]


def test_each_request_is_one_json_line_with_its_id_method_path_status_and_duration(client, log_lines):
    client.get("/api/v1/health/", HTTP_X_REQUEST_ID="one")
    client.get("/api/v1/no-such-thing/", HTTP_X_REQUEST_ID="two")
    lines = records(log_lines, "dvorak.request")
    assert [(line["request_id"], line["method"], line["path"], line["status"]) for line in lines] == [
        ("one", "GET", "/api/v1/health/", 200), ("two", "GET", "/api/v1/no-such-thing/", 404)]
    for line in lines:
        assert line["level"] == "info" and line["duration_ms"] >= 0 and line["time"].endswith("Z")
    # Nothing else said the 404 again (Django's "Not Found" warning).
    assert [line["request_id"] for line in records(log_lines)] == ["one", "two"]


def test_a_game_command_s_lines_carry_the_user_game_ruleset_and_command_but_no_card(table, log_lines):
    game_id, seated = table(2)
    state = seated[0][1].get(f"/api/v1/games/{game_id}/").json()
    user, player = seated[state["turn"]["seat"]]
    response = player.post(f"/api/v1/games/{game_id}/commands/", {"type": "draw"}, format="json",
                           HTTP_X_REQUEST_ID="draw-1")
    assert response.status_code == 201, response.content
    [line] = [line for line in records(log_lines, "dvorak.request") if line["request_id"] == "draw-1"]
    assert (line["game"], line["ruleset"], line["command"], line["user"], line["status"]) == (
        game_id, "dvorak", "draw", user.username, 201)
    drawn = next(event for event in response.json()["events"] if event["type"] == "card.drawn")
    everything = "\n".join(log_lines())
    assert drawn["data"]["card"]["id"] not in everything and drawn["data"]["card"]["title"] not in everything


def test_log_format_console_gives_lines_for_a_person(client, log_lines):
    lines = log_lines.using("console")
    client.get("/api/v1/health/", HTTP_X_REQUEST_ID="console-1")
    logging.getLogger("dvorak.outage").warning("Redis does not answer.")
    [request_line] = [line for line in lines() if "console-1" in line]
    assert "GET /api/v1/health/ 200" in request_line
    for line in lines():
        with pytest.raises(json.JSONDecodeError):
            json.loads(line)
    assert any("Redis does not answer." in line and "dvorak.outage" in line for line in lines())


def test_an_unknown_log_format_is_refused():
    with pytest.raises(ValueError, match="LOG_FORMAT"):
        logs.formatter("xml")


@pytest.mark.django_db(transaction=True)
async def test_the_asgi_command_path_echoes_the_request_id_and_logs_the_game(table, log_lines):
    game_id, seated = await sync_to_async(table)(2)
    state = (await sync_to_async(seated[0][1].get)(f"/api/v1/games/{game_id}/")).json()
    token = seated[state["turn"]["seat"]][0].api_token
    body = json.dumps({"type": "draw"}).encode()
    headers = [(b"host", b"testserver"), (b"content-type", b"application/json"), (b"accept", b"*/*"),
               (b"authorization", f"Token {token}".encode()), (b"content-length", str(len(body)).encode()),
               (b"x-request-id", b"fast-1")]
    communicator = HttpCommunicator(application, "POST", f"/api/v1/games/{game_id}/commands/", body=body,
                                    headers=headers)
    response = await communicator.get_response(timeout=10)
    assert response["status"] == 201, response["body"]
    assert dict(response["headers"])[b"x-request-id"] == b"fast-1"
    [line] = [line for line in records(log_lines, "dvorak.request") if line["request_id"] == "fast-1"]
    assert (line["game"], line["ruleset"], line["command"], line["status"]) == (game_id, "dvorak", "draw", 201)
    # A refusal on the same path (a second draw: the turn is past its draw) carries the id in its body too.
    response = await HttpCommunicator(application, "POST", f"/api/v1/games/{game_id}/commands/", body=body,
                                      headers=headers).get_response(timeout=10)
    assert response["status"] >= 400
    assert json.loads(response["body"])["error"]["request_id"] == "fast-1"


@pytest.mark.django_db(transaction=True)
async def test_a_websocket_has_a_request_id_in_its_handshake_its_error_frames_and_its_log_lines(table, log_lines):
    from channels.testing import WebsocketCommunicator

    game_id, seated = await sync_to_async(table)(2)
    user, _ = seated[0]
    socket = WebsocketCommunicator(application, f"/ws/games/{game_id}/?token={user.api_token}",
                                   headers=[(b"x-request-id", b"socket-7.a")])
    await socket.send_input({"type": "websocket.connect"})
    accepted = await socket.receive_output(timeout=5)  # the handshake's answer, as the server sends it
    assert accepted["type"] == "websocket.accept" and (b"x-request-id", b"socket-7.a") in accepted["headers"]
    await socket.send_json_to({"type": "draw"})
    while (frame := await socket.receive_json_from(timeout=5))["type"] != "error":
        pass
    assert frame["error"]["code"] == "invalid" and frame["error"]["request_id"] == "socket-7.a"
    await socket.disconnect()
    refused = WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=[(b"x-request-id", b"nobody-1")])
    await refused.connect(timeout=5)
    assert (await refused.receive_output(timeout=5))["code"] == 4401

    lines = {record["message"]: record for record in records(log_lines, "dvorak.live")
             if record["message"].startswith("websocket")}
    assert {key: lines["websocket opened"][key] for key in ("request_id", "game", "user")} == \
        {"request_id": "socket-7.a", "game": str(game_id), "user": user.username}
    assert lines["websocket closed"]["request_id"] == "socket-7.a"
    assert (lines["websocket refused"]["request_id"], lines["websocket refused"]["code"]) == ("nobody-1", 4401)
    assert user.api_token not in "\n".join(log_lines())
