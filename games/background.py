"""The server's own players: its clock and its computer players, which send commands through the one command
pipeline as any client does, with nobody connected.

Where they run (``settings.LIVE_TABLES_RUNNER``):

- ``thread`` (the embedded default of ``make run``, where Celery runs eagerly): one thread of the server's own
  process, started with it, runs each job when it falls due: the clock's sweep every ``CLOCK_SWEEP_SECONDS``, and a
  computer player's move ``BOT_THINK_SECONDS`` after the command that gave it one;
- ``celery`` (production): the same jobs as Celery tasks on the worker (games/tasks.py): beat sends the sweep every
  second, and a computer player's move is a task sent with the think time as its countdown.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import os
import threading
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings

logger = logging.getLogger("dvorak.games")


def runner() -> str:
    """``thread`` or ``celery``: by ``LIVE_TABLES_RUNNER``, else ``thread`` where Celery runs eagerly."""
    chosen = getattr(settings, "LIVE_TABLES_RUNNER", "")
    if chosen:
        return chosen
    return "thread" if settings.CELERY_TASK_ALWAYS_EAGER else "celery"


class Jobs:
    """Jobs run at a time by one daemon thread of this process, each once (a job already waiting under the same key
    is not added again). Started on first use, again after a fork."""

    def __init__(self) -> None:
        self._lock = threading.Condition()
        self._heap: list[tuple[float, int, str, Callable[[], None]]] = []
        self._waiting: set[str] = set()
        self._pid = 0
        self._count = itertools.count()
        self.running = 0

    def add(self, key: str, at: float, job: Callable[[], None]) -> None:
        with self._lock:
            self._started()
            if key in self._waiting:
                return
            self._waiting.add(key)
            heapq.heappush(self._heap, (at, next(self._count), key, job))
            self._lock.notify()

    def _started(self) -> None:
        if self._pid != os.getpid():
            self._heap, self._waiting, self._pid = [], set(), os.getpid()
            threading.Thread(target=self._run, name="dvorak-live-tables", daemon=True).start()

    def idle(self) -> bool:
        """Whether nothing is due now or running (tests wait on it)."""
        with self._lock:
            return not self.running and not any(at <= time.time() for at, *_ in self._heap)

    def _run(self) -> None:
        from django.db import close_old_connections

        while True:
            with self._lock:
                while not self._heap or self._heap[0][0] > time.time():
                    self._lock.wait(timeout=(self._heap[0][0] - time.time()) if self._heap else None)
                _, _, key, job = heapq.heappop(self._heap)
                self._waiting.discard(key)
                self.running += 1
            try:
                close_old_connections()
                job()
            except Exception:
                logger.exception("The server's job %s failed.", key)
            finally:
                close_old_connections()
                with self._lock:
                    self.running -= 1


JOBS = Jobs()


def start() -> None:
    """At a server's start, in the thread runner: the clock's sweep begins, so that a game whose time runs out is
    ended with nobody connected (games stored before the start included)."""
    if runner() == "thread" and settings.CLOCK_SWEEP_SECONDS > 0:
        _sweep_later()


def _sweep_later(after: float | None = None) -> None:
    """The next sweep, ``CLOCK_SWEEP_SECONDS`` after the last one began (``after``), or from now."""
    if settings.CLOCK_SWEEP_SECONDS <= 0:  # switched off meanwhile
        return

    def sweep() -> None:
        from games import clocks

        began = time.time()
        try:
            clocks.expire_due()
        finally:
            _sweep_later(after=began)

    JOBS.add("clock-sweep", (after if after is not None else time.time()) + settings.CLOCK_SWEEP_SECONDS, sweep)


def bot_turn(game_id, after: float, play: Callable[[Any], Any]) -> None:
    """A computer player of the game looks at it ``after`` seconds from now: ``play(game_id)`` here, or its task
    (``games.play_computer_players``, games/tasks.py) on the worker."""
    if runner() == "celery":
        from celery import current_app

        current_app.send_task("games.play_computer_players", (str(game_id),), countdown=after)
        return
    JOBS.add(f"bots:{game_id}", time.time() + after, lambda: play(game_id))
