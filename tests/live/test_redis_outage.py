"""Redis stopped in the middle of a game (8 s in `make test`, half a minute in `make soak`), on a real ASGI server: the API does not notice.

The test runs its own ``redis-server`` on a free port (never the machine's shared one) and a daphne process whose
cache, channel layer and Celery broker are that Redis. Two players play through the REST API while it is
stopped; every valid command answers 201 and every read 200. When Redis is back on the same port (empty: it keeps
nothing on disk), the event list has every command's events with versions 1, 2, 3… without a gap, the sockets
opened before and during the outage have each sent every event in order, and throttling counts on Redis again.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from dvorak_kit.outage import Outage
from tests.engine.test_legal_moves import filled
from tests.live.streaming import daphne as live_daphne
from tests.redisserver import own_redis, wait_until
from tests.sizes import size
from tests.wsclient import WebsocketClient

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

# Half a minute in `make soak`; in `make test` long enough for the cache's retries (every 2 s) to fail several times.
OUTAGE_SECONDS = size("REDIS_OUTAGE_SECONDS", 8, 30)
# Between two commands: a person's pace, well above the machine's, and a game of a few hundred events.
PACE_SECONDS = 0.2
ANON_RATE = 5
CACHE_RETRY_SECONDS = Outage("the cache").retry_seconds  # the fail-open cache's interval between retries (its default)
STARTUP_SECONDS = 60


@pytest.fixture
def private_redis(tmp_path):
    with own_redis(tmp_path) as server:
        yield server


@contextmanager
def daphne(tmp_path: Path, redis_url: str) -> Iterator[tuple[str, Path]]:
    """The app in one daphne process on the test database, with ``redis_url`` for everything Redis does."""
    with live_daphne(tmp_path, REDIS_URL=redis_url, THROTTLE_ANON=f"{ANON_RATE}/min",
                     CELERY_TASK_ALWAYS_EAGER="0") as served:
        yield served


class Table:
    """The players of one game, each with an HTTP client on the server; every answer's status is kept."""

    def __init__(self, base: str, game_id: str, tokens: list[str]):
        self.game_id = game_id
        self.clients = [
            httpx.Client(
                base_url=f"{base}/api/v1/games/{game_id}/",
                timeout=30,
                headers={"Authorization": f"Token {token}"},
            )
            for token in tokens
        ]
        self.chooser = random.Random(7)
        self.read_statuses: list[int] = []
        self.command_statuses: list[int] = []
        self.command_events: dict[int, str] = {}  # version → type, from the answers to commands

    def read(self, client: httpx.Client, path: str) -> dict:
        response = client.get(path)
        self.read_statuses.append(response.status_code)
        assert response.status_code == 200, response.text
        return response.json()

    def play_one(self) -> None:
        """One listed move of whoever has one, with its choices made; and a read of the state by every seat."""
        for client in self.clients:
            self.read(client, "")
        offers = [(client, move) for client in self.clients for move in self.read(client, "moves/")["moves"]
                  if move["type"] != "abandon"]  # giving the game up is each player's own choice
        assert offers, "nobody has a move"
        client, move = self.chooser.choice(offers)
        response = client.post("commands/", json=filled(move, self.chooser))
        self.command_statuses.append(response.status_code)
        assert response.status_code == 201, response.text
        for event in response.json()["events"]:
            self.command_events[event["version"]] = event["type"]

    def play_for(self, seconds: float) -> int:
        played, deadline = 0, time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.play_one()
            played += 1
            time.sleep(PACE_SECONDS)
        return played

    def events(self) -> list[dict]:
        return self.read(self.clients[0], "events/?after=0")["events"]


def versions_sent(socket: WebsocketClient, up_to: int, seen: list[int]) -> list[int]:
    """Read the socket until it has sent version ``up_to``; every version it sent, in order."""
    while not seen or seen[-1] < up_to:
        message = socket.receive_json(timeout=30)
        assert message["type"] == "event", message
        seen.append(message["event"]["version"])
    return seen


def test_a_redis_outage_mid_game_answers_every_valid_command_and_loses_no_event(
    private_redis, table, tmp_path, capsys
):
    game_id, seated = table(2)
    tokens = [user.api_token for user, _ in seated]
    with daphne(tmp_path, private_redis.url) as (base, log):
        players = Table(base, game_id, tokens)
        ws_url = base.replace("http://", "ws://") + f"/ws/games/{game_id}/?token={tokens[1]}"
        before_socket = WebsocketClient(f"{ws_url}&after=0")
        before_seen: list[int] = []

        started_at = len(players.events())
        for _ in range(10):
            players.play_one()
        events_before = len(players.events())
        versions_sent(before_socket, events_before, before_seen)

        private_redis.stop()
        commands_before = len(players.command_statuses)
        played = players.play_for(OUTAGE_SECONDS / 2)
        during_socket = WebsocketClient(f"{ws_url}&after={len(players.events())}")
        played += players.play_for(OUTAGE_SECONDS / 2)
        outage_statuses = players.command_statuses[commands_before:]
        events_in_outage = len(players.events())

        private_redis.start()
        wait_until(
            lambda: httpx.get(f"{base}/api/v1/health/ready/").json()["status"] == "ok", 30, "Redis to be ready again"
        )
        for _ in range(10):
            players.play_one()

        events = players.events()
        final = events[-1]["version"]
        assert [e["version"] for e in events] == list(range(1, final + 1))
        recorded = {e["version"]: e["type"] for e in events}
        assert all(recorded[version] == kind for version, kind in players.command_events.items())
        assert set(players.command_events) == set(range(started_at + 1, final + 1))

        # The sockets: the one open all along, and the one opened while Redis was away.
        assert versions_sent(before_socket, final, before_seen) == list(range(1, final + 1))
        during_seen = versions_sent(during_socket, final, [])
        assert during_seen == list(range(during_seen[0], final + 1))
        before_socket.close()
        during_socket.close()

        # Throttling counts on Redis again: the anonymous rate is used up, and the count is in Redis. While Redis
        # was away the cache asked it again at most once per retry interval (`Outage.retry_seconds`), counting in
        # the process meanwhile; the counts are back on Redis once the interval after its last failure has passed.
        # On a fast machine all of the above can fit inside that interval, so wait it out.
        time.sleep(CACHE_RETRY_SECONDS + 0.5)
        statuses = [
            httpx.post(
                f"{base}/api/v1/auth/token/", json={"username": "nobody", "password": "wrong"}
            ).status_code
            for _ in range(ANON_RATE + 1)
        ]
        assert statuses[:ANON_RATE] == [401] * ANON_RATE and statuses[-1] == 429
        assert private_redis.keys("*throttle_anon_*")

        text = log.read_text()
    assert played == len(outage_statuses) and set(outage_statuses) == {201}
    assert set(players.read_statuses) == {200}
    for what in ("Redis (the cache: throttle counts)", "Redis (the channel layer: live updates)"):
        assert text.count(f"{what} is unreachable") == 1, text
        assert text.count(f"{what} answers again") == 1, text
    assert "Traceback" not in text, text
    with capsys.disabled():
        print(
            f"\nRedis outage: {len(outage_statuses)} commands during it (statuses {sorted(set(outage_statuses))}), "
            f"events {events_before} before, {events_in_outage} at its end, {final} after; "
            f"{len(players.read_statuses)} reads, all 200."
        )
