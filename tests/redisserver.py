"""A redis-server of a test's own, on a free port, that the test stops and starts: never the machine's shared
Redis (the suite's REDIS_URL), which other runs use at the same time."""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.conftest import IN_CI

REDIS_SERVER = shutil.which("redis-server")


def cache_on(url: str) -> dict:
    """``CACHES`` of production's kind (the fail-open Redis cache) on ``url``, under a key prefix of its own."""
    return {
        "default": {
            "BACKEND": "dvorak_kit.cache.FailOpenRedisCache",
            "LOCATION": url,
            "KEY_PREFIX": f"dvorak-test-{uuid.uuid4().hex}",
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def need_redis_server() -> None:
    """Skip the calling test, with the reason, where redis-server is not installed; CI must have it."""
    if REDIS_SERVER is None:
        if IN_CI:
            pytest.fail("CI must run the Redis outage tests: no redis-server on PATH")
        pytest.skip("needs the redis-server binary (apt-get install redis-server)")


def wait_until(condition: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"Gave up after {seconds}s waiting for {what}."
        time.sleep(0.2)


class PrivateRedis:
    """redis-server on ``port``, keeping nothing on disk: started again, it has forgotten everything."""

    def __init__(self, port: int, log: Path):
        self.port, self.log, self.process = port, log, None
        self.url = f"redis://127.0.0.1:{port}/0"

    def start(self) -> None:
        with self.log.open("a") as output:
            self.process = subprocess.Popen(
                [
                    REDIS_SERVER,
                    "--port",
                    str(self.port),
                    "--bind",
                    "127.0.0.1",
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                    "--daemonize",
                    "no",
                ],
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        wait_until(self.answers, 20, f"redis-server on port {self.port}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=20)
        self.process = None

    def answers(self) -> bool:
        import redis

        try:
            return redis.Redis(port=self.port, socket_connect_timeout=1).ping()
        except redis.exceptions.ConnectionError:
            return False

    def keys(self, pattern: str) -> list[bytes]:
        import redis

        return redis.Redis(port=self.port).keys(pattern)


@contextmanager
def own_redis(log_dir: Path, *, port: int | None = None) -> Iterator[PrivateRedis]:
    """A started PrivateRedis (on a free port unless given), stopped at the end; the calling test is skipped
    where redis-server is missing."""
    need_redis_server()
    server = PrivateRedis(port or free_port(), log_dir / "redis.log")
    server.start()
    try:
        yield server
    finally:
        server.stop()
