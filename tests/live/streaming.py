"""What the stream tests share: the app in a daphne process of its own, on the test database, and a client that
reads one open stream line by line, as a bot or a browser's EventSource reads it."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from tests.browser.conftest import PROJECT, server_environment
from tests.engine.test_legal_moves import filled
from tests.redisserver import free_port, wait_until

STARTUP_SECONDS = 60
# Short, so that a test sees one soon; the default (8 s) is the setting's.
KEEPALIVE_SECONDS = 0.3


@contextmanager
def daphne(tmp_path: Path, **settings: str) -> Iterator[tuple[str, Path]]:
    """The app in one daphne process on the test database (the environment's ``settings`` on top): its URL and log."""
    env = server_environment(tmp_path, debug=True)
    env.update(STREAM_KEEPALIVE_SECONDS=str(KEEPALIVE_SECONDS), THROTTLE_USER="100000/min", **settings)
    port, log = free_port(), tmp_path / "daphne.log"
    with log.open("w") as output:
        server = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "dvorak_site.asgi:application"],
            cwd=PROJECT, env=env, stdout=output, stderr=subprocess.STDOUT, start_new_session=True,
        )
    base = f"http://127.0.0.1:{port}"

    def ready() -> bool:
        assert server.poll() is None, log.read_text()
        try:
            return httpx.get(f"{base}/api/v1/health/", timeout=2).status_code in (200, 503)
        except httpx.HTTPError:
            return False

    try:
        wait_until(ready, STARTUP_SECONDS, "daphne to answer")
        yield base, log
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


def api(base: str, user) -> httpx.Client:
    """An API client of ``user`` on the server, by token."""
    return httpx.Client(base_url=f"{base}/api/v1", timeout=10, headers={"Authorization": f"Token {user.api_token}"})


class Stream:
    """One open stream: its answer's status and headers at once, then its lines (keep-alives too) as they come."""

    def __init__(self, base: str, path: str, *, user=None, headers: dict | None = None):
        headers = dict(headers or {})
        if user is not None:
            headers["Authorization"] = f"Token {user.api_token}"
        self.client = httpx.Client(base_url=base, timeout=10)
        self.response = self.client.send(self.client.build_request("GET", path, headers=headers), stream=True)
        self.lines = self.response.iter_lines()

    def until(self, found: Callable[[str], bool], seconds: float = 15) -> list[str]:
        """Every line read up to and including the first that ``found`` accepts (a keep-alive comes at least every
        ``KEEPALIVE_SECONDS``, so the deadline is looked at that often)."""
        read: list[str] = []
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            line = next(self.lines)
            read.append(line)
            if found(line):
                return read
        raise AssertionError(f"Gave up after {seconds}s; read {read}")

    def objects_until(self, found: Callable[[dict], bool], seconds: float = 15) -> list[dict]:
        """The NDJSON objects read up to and including the first that ``found`` accepts (keep-alives left out)."""
        lines = self.until(lambda line: bool(line) and found(json.loads(line)), seconds)
        return [json.loads(line) for line in lines if line]

    def close(self) -> None:
        self.response.close()
        self.client.close()

    def __enter__(self) -> Stream:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def server_sent_events(lines: list[str]) -> list[dict]:
    """The events of ``lines`` of a text/event-stream: each ``{"id"?, "data"?, "comment"?}``, ended by a blank line."""
    events, current = [], {}
    for line in lines:
        if line == "":
            if current:
                events.append(current)
            current = {}
        elif line.startswith(":"):
            current["comment"] = line[1:].strip()
        else:
            field, _, value = line.partition(":")
            current[field] = value.removeprefix(" ")
    return events


def started_game(base: str, ann, bob, deck: str, **body) -> str:
    """A game of ``deck`` that ann creates, bob joins and ann starts, through the server's API: its id."""
    with api(base, ann) as ann_api, api(base, bob) as bob_api:
        created = ann_api.post("/games/", json={"deck": deck, "max_players": 2, **body})
        assert created.status_code == 201, created.text
        game_id = created.json()["id"]
        assert bob_api.post(f"/games/{game_id}/join/", json={}).status_code == 200
        assert ann_api.post(f"/games/{game_id}/start/").status_code == 200
    return game_id


def turn_passed(client: httpx.Client, game_id: str) -> None:
    """The player whose turn it is (``client``'s) plays it out from its listed moves: draw, discard down to the hand
    limit where asked, end the turn."""
    seat, chooser = client.get(f"/games/{game_id}/").json()["turn"]["seat"], random.Random(7)
    for _ in range(20):
        moves = client.get(f"/games/{game_id}/moves/").json()["moves"]
        kinds = {move["type"]: move for move in moves}
        move = kinds.get("end_turn") or kinds.get("draw") or kinds.get("discard")
        assert move is not None, moves
        answer = client.post(f"/games/{game_id}/commands/", json=filled(move, chooser))
        assert answer.status_code == 201, answer.text
        if client.get(f"/games/{game_id}/").json()["turn"]["seat"] != seat:
            return
    raise AssertionError("the turn did not pass")
