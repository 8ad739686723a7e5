"""Live updates sent after commit without the request waiting for Redis.

A command's answer does not depend on its live update (sockets catch up from the store by version), so on the
Redis channel layer each process hands its group messages to one background thread running its own event loop:
the request only puts the message on a list that the loop's sender takes, all at once, and sends together
(``ResilientRedisChannelLayer.group_send_many``). A message that cannot be sent is logged and dropped, never raised
into the request that committed it. The in-memory layer (development, tests without Redis) is sent to at once:
its queues belong to the loop of the process's server, so another thread may not touch them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import threading
from concurrent.futures import Future
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings

from dvorak_kit import metrics

logger = logging.getLogger("dvorak.publisher")

# The most updates sent together (one ``group_send_many``); more wait for the next batch.
BATCH = 200
# On a channel layer without ``group_send_many``, the group sends in flight at once per process; the rest wait their
# turn. channels-redis takes a pooled connection for each send in flight and opens a new one whenever none is free,
# and its pools never shrink: unbounded, a burst of commands left a server process holding one connection to Redis per
# update that had been waiting (160 in one worker under the bench).
SENDS_IN_FLIGHT = 4
# The sender sends at most one batch in each such interval: an update handed over when the last batch left longer
# ago than this goes at once, and one handed over sooner waits for the interval's end with those that come meanwhile.
# An idle server adds no wait to its live updates; a busy one sends several a batch (bench/cards.py: the server's CPU
# a card command 0.97-0.99 ms sending each at once; less, gathering, bench/README.md), and the wait is small beside
# the live updates' aim (commit to socket within 50 ms at the 99th percentile).
GATHER_SECONDS = settings.PUBLISH_INTERVAL_SECONDS


class BackgroundPublisher:
    """One task per process that sends what has been handed to it, all that is waiting at once, on an ASGI server's
    own event loop (``send_from``) or else on a loop in a daemon thread of its own (started on first use, again after
    a fork): a request hands its update over without waiting, and wakes the loop only if it is not already due to
    look; the sender sends at most one batch each ``GATHER_SECONDS``, so that under load updates gather. Each send had been
    a task of its own, woken from the request's thread, with two to four round trips to Redis: about a quarter of a
    server process's CPU under the card commands' bench (bench/README.md)."""

    def __init__(self):
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._adopted = False  # the loop is a server's (``send_from``), not a thread's of this publisher's own
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task | None = None
        self._waiting: list[tuple[Any, str, dict, Future]] = []
        self._woken = False  # a wake is on its way, or the sender will look again before it waits
        self._pid = 0

    def _forget_a_parents(self) -> None:
        if self._pid != os.getpid():  # a forked child: nothing of its parent's loop or updates is its own
            self._loop, self._waiting = None, []

    def _started(self) -> asyncio.AbstractEventLoop:
        """The loop to send from: the server's while it runs, else a thread's of this process's own."""
        self._forget_a_parents()
        if self._loop is not None and self._adopted and not self._loop.is_running():
            self._loop = None  # the server's loop has ended (a test's): the updates waiting go on from a thread
        if self._loop is None:
            loop = asyncio.new_event_loop()
            self._begin(loop, adopted=False)
            threading.Thread(target=loop.run_forever, name="dvorak-publisher", daemon=True).start()
        return self._loop

    def _begin(self, loop: asyncio.AbstractEventLoop, *, adopted: bool) -> None:
        self._loop, self._adopted, self._pid, self._wake = loop, adopted, os.getpid(), asyncio.Event()
        self._woken = bool(self._waiting)
        if self._waiting:
            self._wake.set()
        self._task = loop.create_task(self._sender(self._wake))  # a thread's loop runs it once started

    def send_from(self, loop: asyncio.AbstractEventLoop) -> None:
        """Send from ``loop``, the running loop of an ASGI server process (call it from there), rather than from a
        thread of the publisher's own: that loop is awake anyway as each command's answer comes back to it, where
        the thread had to be woken for each update. Only before the first update: once a thread sends, it goes on."""
        with self._lock:
            self._forget_a_parents()
            if self._loop is None:
                self._begin(loop, adopted=True)

    def server_loop(self) -> asyncio.AbstractEventLoop | None:
        """The ASGI server's running loop adopted by ``send_from`` in this process, if any."""
        loop = self._loop
        if loop is None or not self._adopted or self._pid != os.getpid() or not loop.is_running():
            return None
        return loop

    def close(self, timeout: float = 10) -> None:
        """The sender stopped, and the publisher's own loop with it (tests: a server process's publisher lasts as
        long as the process). A server's loop goes on."""
        with self._lock:
            loop, task, adopted, self._loop = self._loop, self._task, self._adopted, None
        if loop is None or self._pid != os.getpid() or loop.is_closed():
            return
        if adopted:
            loop.call_soon_threadsafe(task.cancel)
            return
        done = threading.Event()

        async def stopped() -> None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            loop.stop()
            done.set()

        asyncio.run_coroutine_threadsafe(stopped(), loop)
        done.wait(timeout)

    def send(self, layer, group: str, message: dict) -> Future:
        """Hand ``message`` for ``group`` to the sender; the future is done once it has been sent (or has failed,
        which is logged)."""
        future: Future = Future()
        with self._lock:
            loop, wake = self._started(), self._wake
            self._waiting.append((layer, group, message, future))
            woken, self._woken = self._woken, True
        if not woken:
            loop.call_soon_threadsafe(wake.set)
        return future

    async def _sender(self, wake: asyncio.Event) -> None:
        loop = asyncio.get_running_loop()
        last_taken = float("-inf")
        while True:
            await wake.wait()
            due = last_taken + GATHER_SECONDS - loop.time()
            if due > 0:  # a batch left within the interval: the updates gather until its end
                await asyncio.sleep(due)
            wake.clear()
            last_taken = loop.time()
            with self._lock:
                batch, self._waiting = self._waiting[:BATCH], self._waiting[BATCH:]
                if self._waiting:
                    wake.set()  # more than a batch: look again at once
                else:
                    self._woken = False
            by_layer: dict[int, list] = {}
            for item in batch:
                by_layer.setdefault(id(item[0]), []).append(item)
            for items in by_layer.values():
                await _send_logging_failure(items)


async def _send_logging_failure(items: list[tuple[Any, str, dict, Future]]) -> None:
    """One layer's updates sent; a failure logged, on record before anyone waiting on a future wakes, and never
    raised further: the next batch goes on."""
    layer = items[0][0]
    try:
        if hasattr(layer, "group_send_many"):
            await layer.group_send_many([(group, message) for _, group, message, _ in items])
        else:
            turns = asyncio.Semaphore(SENDS_IN_FLIGHT)

            async def one(group: str, message: dict) -> None:
                async with turns:
                    await layer.group_send(group, message)

            await asyncio.gather(*(one(group, message) for _, group, message, _ in items))
    except Exception as error:
        metrics.channel_dropped("send_failed", len(items))
        logger.warning("%d live update(s) could not be sent: %r", len(items), error)
        for *_, future in items:
            future.set_exception(error)
    else:
        for *_, future in items:
            future.set_result(None)


PUBLISHER = BackgroundPublisher()


def _running_here(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


def group_send(group: str, message: dict):
    """Send ``message`` to ``group``; on Redis, in the background (returns the future, for tests to wait on)."""
    layer = get_channel_layer()
    if layer is None:
        return None
    if isinstance(layer, InMemoryChannelLayer):
        # Its groups live in this process: with no socket of this game here (a REST worker, a test without one),
        # there is nobody to tell, and a send would start an event loop in a new thread for nothing.
        if layer.groups.get(group):
            loop = PUBLISHER.server_loop()
            if loop is not None and not _running_here(loop):
                # Its queues belong to the server's loop: sent there, from a thread that is not asgiref's (the fast
                # path's command threads), and waited for, as async_to_sync waits.
                asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop).result(timeout=10)
            else:
                async_to_sync(layer.group_send)(group, message)
        return None
    return PUBLISHER.send(layer, group, message)
