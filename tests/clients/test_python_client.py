"""The Python client (``clients/python``) and its example bot, as a bot author meets them.

The client's own behaviour is checked against a mock transport: a command or a new game sent again after a 5xx or
a dropped connection carries the same Idempotency-Key (so the server does it once), a 429's ``Retry-After`` is
waited out, attempts are bounded, a POST that is not safe to repeat is not repeated, an error is an ``ApiError``
with the API's code, and the streams skip keep-alives and, dropped, resume after the last version seen.

Then the whole thing against a real server: ``examples/random_bot.py`` in a process of its own follows its account
stream, joins the game it is invited to and plays it from ``/moves/`` alone against the test, which plays the other
seat through the client, until the game is over; the bot then stops by itself (``--games 1``).
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path

import httpx
import pytest
from dvorak_client import ApiError, Client, fill

from tests.browser.conftest import PROJECT
from tests.live.streaming import daphne as live_daphne
from tests.redisserver import wait_until
from tests.seeds import seed_deck_json

BOT = PROJECT / "clients" / "python" / "examples" / "random_bot.py"
GAME = "11111111-2222-3333-4444-555555555555"


# --- the client against a mock transport ---------------------------------------------------------------------


class Server:
    """A mock server: answers from a script, one per request, and keeps each request."""

    def __init__(self, *answers: httpx.Response | Exception | Callable[[httpx.Request], httpx.Response]):
        self.answers = list(answers)
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer(request) if callable(answer) else answer

    def keys(self) -> list[str | None]:
        return [request.headers.get("Idempotency-Key") for request in self.requests]


def client_of(server: Server, sleeps: list[float], **options) -> Client:
    return Client("http://dvorak.test", "t0ken", transport=httpx.MockTransport(server), sleep=sleeps.append,
                  **options)


def error(status: int, code: str, message: str = "No.", details=None, headers=None) -> httpx.Response:
    body = {"error": {"code": code, "message": message, **({"details": details} if details else {})}}
    return httpx.Response(status, json=body, headers=headers)


CREATED = httpx.Response(201, json={"version": 9, "events": [{"version": 9, "type": "card.drawn", "actor": "ann",
                                                               "at": "2026-11-23T05:28:08Z", "data": {"seat": 0}}]})


def test_a_command_sent_again_after_a_5xx_or_a_dropped_connection_keeps_its_idempotency_key():
    server = Server(error(503, "unavailable"), httpx.ReadError("connection reset"), CREATED, CREATED)
    sleeps: list[float] = []
    with client_of(server, sleeps) as client:
        answer = client.command(GAME, {"type": "draw"}, if_match=8)
        assert answer["version"] == 9
        first = server.keys()
        assert len(first) == 3 and first[0] and len(set(first)) == 1, first  # one key for one command, retries and all
        assert all(request.headers["If-Match"] == '"8"' for request in server.requests)
        assert all(json.loads(request.content) == {"type": "draw"} for request in server.requests)
        assert server.requests[0].headers["Authorization"] == "Token t0ken"
        assert len(sleeps) == 2
        client.command(GAME, {"type": "draw"})
        assert server.keys()[3] not in first  # the next command is another: a new key


def test_a_new_game_is_created_with_a_key_its_retry_repeats():
    game = httpx.Response(201, json={"id": GAME, "status": "open", "version": 2})
    server = Server(httpx.RemoteProtocolError("server disconnected"), game)
    with client_of(server, []) as client:
        assert client.create_game(deck="socialism", ruleset="odds_and_evens")["id"] == GAME
    assert [request.url.path for request in server.requests] == ["/api/v1/games/"] * 2
    assert server.keys()[0] and server.keys()[0] == server.keys()[1]


def test_a_429_waits_as_retry_after_says_in_seconds_or_as_a_date():
    later = format_datetime(datetime.now(UTC) + timedelta(seconds=30), usegmt=True)
    moves = httpx.Response(200, json={"version": 4, "moves": [{"type": "pass"}]})
    server = Server(error(429, "throttled", headers={"Retry-After": "7"}),
                    error(429, "throttled", headers={"Retry-After": later}), moves)
    sleeps: list[float] = []
    with client_of(server, sleeps) as client:
        assert client.moves(GAME)["moves"] == [{"type": "pass"}]
    assert sleeps[0] == 7
    assert 25 < sleeps[1] <= 30


def test_attempts_are_bounded_and_the_last_refusal_is_raised():
    server = Server(*[error(502, "bad_gateway")] * 10)
    sleeps: list[float] = []
    with client_of(server, sleeps, retries=3, backoff=1.0) as client, pytest.raises(ApiError) as raised:
        client.game(GAME)
    assert len(server.requests) == 4 and len(sleeps) == 3
    assert (raised.value.status, raised.value.code) == (502, "bad_gateway")
    assert all(0 < sleep <= 2 ** attempt for attempt, sleep in enumerate(sleeps))  # 1 s doubling, less jitter


def test_a_post_without_a_key_is_sent_again_only_when_it_cannot_have_arrived():
    joined = httpx.Response(200, json={"id": GAME, "you": 1})
    server = Server(error(429, "throttled", headers={"Retry-After": "1"}), httpx.ConnectError("refused"), joined,
                    error(500, "server_error"))
    with client_of(server, []) as client:
        assert client.join(GAME)["you"] == 1  # a 429 and an unopened connection: sent again
        with pytest.raises(ApiError) as raised:
            client.start(GAME)  # a 500 may have come after the start was done: not sent again
    assert raised.value.status == 500
    assert [request.url.path for request in server.requests] == [f"/api/v1/games/{GAME}/join/"] * 3 + [
        f"/api/v1/games/{GAME}/start/"]
    assert server.keys() == [None] * 4


def test_an_api_error_carries_the_apis_code_message_and_details():
    details = {"expected_version": 7, "current_version": 9}
    server = Server(error(412, "version_conflict", "The game is at version 9, not 7.", details),
                    httpx.Response(502, text="<html>Bad Gateway</html>"))
    with client_of(server, [], retries=0) as client:
        with pytest.raises(ApiError) as raised:
            client.command(GAME, {"type": "draw"}, if_match=7)
        assert (raised.value.status, raised.value.code, raised.value.details) == (412, "version_conflict", details)
        assert raised.value.message == "The game is at version 9, not 7."
        with pytest.raises(ApiError) as raised:
            client.deck("sampler")
        assert (raised.value.status, raised.value.code) == (502, "http_502")
    assert len(server.requests) == 2  # a refusal of the rules is not sent again


def test_an_api_error_names_the_request_in_the_servers_logs():
    body = {"error": {"code": "not_your_turn", "message": "It is not your turn.", "request_id": "4f1c2a9e"}}
    server = Server(httpx.Response(409, json=body, headers={"X-Request-ID": "4f1c2a9e"}),
                    httpx.Response(502, text="<html>Bad Gateway</html>", headers={"X-Request-ID": "from-the-proxy"}))
    with client_of(server, [], retries=0) as client:
        with pytest.raises(ApiError) as raised:
            client.command(GAME, {"type": "draw"})
        assert raised.value.request_id == "4f1c2a9e" and "4f1c2a9e" in str(raised.value)
        with pytest.raises(ApiError) as raised:
            client.deck("sampler")
        assert raised.value.request_id == "from-the-proxy"


def test_a_429_that_asks_for_a_longer_wait_than_allowed_is_raised_at_once():
    """Too many failed sign-ins: the server asks for 15 minutes. Retrying sooner would be refused again (and, for
    a sign-in, would count as one more failure)."""
    server = Server(error(429, "throttled", headers={"Retry-After": "900"}))
    sleeps: list[float] = []
    with client_of(server, sleeps, max_wait=120) as client, pytest.raises(ApiError) as raised:
        client.moves(GAME)
    assert (raised.value.status, raised.value.code, sleeps, len(server.requests)) == (429, "throttled", [], 1)


def test_signing_out_revokes_the_clients_token_and_forgets_it():
    server = Server(httpx.Response(204), error(401, "not_authenticated"))
    with client_of(server, [], retries=0) as client:
        client.sign_out()
        with pytest.raises(ApiError):
            client.deck("sampler")
    assert (server.requests[0].method, server.requests[0].url.path) == ("DELETE", "/api/v1/auth/token/")
    assert server.requests[0].headers["Authorization"] == "Token t0ken"
    assert "Authorization" not in server.requests[1].headers


def test_lists_are_read_to_their_end_page_after_page():
    def event(version):
        return {"version": version, "type": "choice.made", "actor": "ann", "at": "…", "data": {"seat": 0}}

    next_events = f"http://dvorak.test/api/v1/games/{GAME}/events/?after=2&limit=2"
    server = Server(
        httpx.Response(200, json={"count": 3, "next": "http://dvorak.test/api/v1/decks/?page=2&search=rock",
                                  "previous": None, "results": [{"slug": "a"}, {"slug": "b"}]}),
        httpx.Response(200, json={"count": 3, "next": None, "previous": "…", "results": [{"slug": "c"}]}),
        httpx.Response(200, json={"version": 3, "events": [event(1), event(2)]},
                       headers={"Link": f'<{next_events}>; rel="next"'}),
        httpx.Response(200, json={"version": 3, "events": [event(3)]}),
    )
    with client_of(server, []) as client:
        assert [deck["slug"] for deck in client.decks(search="rock")] == ["a", "b", "c"]
        assert [event["version"] for event in client.events(GAME, limit=2)] == [1, 2, 3]
    assert [str(request.url) for request in server.requests] == [
        "http://dvorak.test/api/v1/decks/?search=rock", "http://dvorak.test/api/v1/decks/?page=2&search=rock",
        f"http://dvorak.test/api/v1/games/{GAME}/events/?after=0&limit=2", next_events]


class Dropping(httpx.SyncByteStream):
    """A streamed body that sends its chunks, then loses the connection."""

    def __init__(self, *chunks: bytes):
        self.chunks = chunks

    def __iter__(self) -> Iterator[bytes]:
        yield from self.chunks
        raise httpx.ReadError("connection lost")


def ndjson(*objects) -> bytes:
    return b"".join(b"\n" if item is None else json.dumps(item, ensure_ascii=False).encode() + b"\n"
                    for item in objects)


def test_the_game_stream_skips_keep_alives_and_resumes_after_the_last_version_seen():
    def event(version, **data):
        return {"version": version, "type": "choice.made", "actor": "bob", "at": "…", "data": data}

    # JSON may hold U+2028 as it is: the line is still one event.
    said = event(2, text="one\u2028two")
    server = Server(
        httpx.Response(200, headers={"Content-Type": "application/x-ndjson"},
                       stream=Dropping(ndjson(event(1), None), ndjson(said)[:20], ndjson(said)[20:], b"\n")),
        httpx.Response(200, headers={"Content-Type": "application/x-ndjson"},
                       stream=Dropping(ndjson(said, None, event(3)))),
    )
    sleeps: list[float] = []
    with client_of(server, sleeps) as client:
        stream = client.game_stream(GAME)
        seen = [next(stream) for _ in range(3)]
        stream.close()
    assert seen == [event(1), said, event(3)]  # version 2, sent again after the reconnection, is not given twice
    assert [request.url.params["after"] for request in server.requests] == ["0", "2"]
    assert all(request.headers["Accept"] == "application/x-ndjson" for request in server.requests)
    assert len(sleeps) == 1


def test_the_account_stream_opens_again_when_dropped_and_a_refusal_is_raised():
    started = {"type": "game_started", "game": GAME, "ruleset": "odds_and_evens", "seat": 1, "version": 4}
    turn = {"type": "your_turn", "game": GAME, "ruleset": "odds_and_evens", "seat": 1, "version": 4}
    server = Server(httpx.Response(200, stream=Dropping(ndjson(None, started))),
                    error(503, "unavailable", headers={"Retry-After": "2"}),
                    httpx.Response(200, stream=Dropping(ndjson(started, turn))),
                    error(401, "not_authenticated", "Invalid token."))
    sleeps: list[float] = []
    with client_of(server, sleeps) as client:
        stream = client.account_stream()
        assert [next(stream) for _ in range(3)] == [started, started, turn]
        with pytest.raises(ApiError) as raised:
            next(stream)
    assert raised.value.code == "not_authenticated"
    assert [request.url.path for request in server.requests] == ["/api/v1/account/stream/"] * 4
    assert 2 in sleeps


def test_fill_makes_each_choice_of_a_listed_move():
    move = {"type": "discard", "cards": {"choose": 2, "from": ["a", "b", "c"], "list": True},
            "fingers": {"choose": 1, "from": [1, 2, 3, 4, 5], "list": False}, "onto": None}
    for seed in range(20):
        command = fill(move, random.Random(seed))
        assert command["type"] == "discard" and command["onto"] is None
        assert len(set(command["cards"])) == 2 and set(command["cards"]) <= {"a", "b", "c"}
        assert command["fingers"] in {1, 2, 3, 4, 5}


# --- the example bot against a real server -------------------------------------------------------------------

PASSWORD = "blank-cards-forever"
# Far more than a game of Odds and Evens to three takes (five rounds at most): a game still going after it is stuck.
MAX_HOST_MOVES = 30
WAIT_SECONDS = 20
# What the host leaves alone among its listed moves (as the bot does): cancelling or giving up the game.
AVOIDED = {"leave", "cancel", "abandon", "concede"}


@contextmanager
def daphne(tmp_path: Path) -> Iterator[str]:
    """The app in one daphne process on the test database, as the stream tests serve it: its URL."""
    with live_daphne(tmp_path) as (base, _log):
        yield base


@contextmanager
def bot_process(tmp_path: Path, *args: str) -> Iterator[tuple[subprocess.Popen, Path]]:
    log = tmp_path / "bot.log"
    with log.open("w") as output:
        bot = subprocess.Popen([sys.executable, str(BOT), *args], cwd=tmp_path, stdout=output,
                               stderr=subprocess.STDOUT, start_new_session=True)
    try:
        yield bot, log
    finally:
        if bot.poll() is None:
            os.killpg(bot.pid, signal.SIGKILL)
            bot.wait()


@pytest.mark.system
@pytest.mark.django_db(transaction=True)
def test_the_example_bot_joins_the_game_it_is_invited_to_and_plays_it_to_the_end(tmp_path):
    from decks import services as deck_services

    deck_services.deck_import(author=None, text=seed_deck_json("socialism"), format="json")
    with daphne(tmp_path) as base, Client.register(base, "hostess", PASSWORD) as host:
        Client.register(base, "robo", PASSWORD).close()
        with bot_process(tmp_path, "--url", base, "--username", "robo", "--password", PASSWORD,
                         "--games", "1", "--seed", "3") as (bot, log):
            game = host.create_game(deck="socialism", ruleset="odds_and_evens", max_players=2, invite=["robo"],
                                    options={"target": 3})["id"]

            def joined() -> bool:
                assert bot.poll() is None, log.read_text()
                return len(host.game(game)["players"]) == 2

            wait_until(joined, WAIT_SECONDS, "the bot to join")
            assert host.game(game)["players"][1]["username"] == "robo"
            host.start(game)

            chooser = random.Random(5)
            for _ in range(MAX_HOST_MOVES):
                listed = host.moves(game)
                moves = [move for move in listed["moves"] if move["type"] not in AVOIDED]
                if not moves:
                    if host.game(game)["status"] == "finished":
                        break

                    def moved(since=listed["version"]) -> bool:
                        assert bot.poll() is None, log.read_text()
                        return host.moves(game)["version"] != since

                    wait_until(moved, WAIT_SECONDS, f"the bot to move\n{log.read_text()}")
                    continue
                try:
                    host.command(game, fill(chooser.choice(moves), chooser), if_match=listed["version"])
                except ApiError as refused:
                    assert refused.status in (409, 412), refused  # the bot moved first: read again
            state = host.game(game)
            assert state["status"] == "finished", state
            assert bot.wait(timeout=WAIT_SECONDS) == 0, log.read_text()

        events = host.events(game)
        throws = [event for event in events if event["type"] == "choice.made"]
        assert {event["actor"] for event in throws} == {"hostess", "robo"}, throws
        assert [event["version"] for event in events] == list(range(1, state["version"] + 1))
        said = log.read_text()
        assert f"{game[:8]} joined" in said and f"{game[:8]} finished" in said, said

        # The game's stream shows the host the same events, the bot's throws among them, as /events/ does.
        with Client(base, host.token, stream_timeout=10, retries=1) as reader:
            streamed = []
            for event in reader.game_stream(game):
                streamed.append(event)
                if event["version"] == state["version"]:
                    break
        assert streamed == events

        # Signed out, the host's token is refused; the error names the request for the server's logs.
        token = host.token
        host.sign_out()
        with Client(base, token, retries=0) as stale, pytest.raises(ApiError) as refused:
            stale.game(game)
        assert (refused.value.status, refused.value.code) == (401, "not_authenticated")
        assert refused.value.request_id and len(refused.value.request_id) >= 16
