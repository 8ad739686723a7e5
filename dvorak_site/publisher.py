"""Live updates sent after commit without the request waiting for Redis.

A command's answer does not depend on its live update (sockets catch up from the store by version), so on the
Redis channel layer each process hands its group messages to one background thread running its own event loop:
the request only puts the message on that loop. A message that cannot be sent is logged and dropped, never raised
into the request that committed it. The in-memory layer (development, tests without Redis) is sent to at once:
its queues belong to the loop of the process's server, so another thread may not touch them.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

logger = logging.getLogger("dvorak.publisher")

# Group sends in flight at once per process; the rest wait their turn. channels-redis takes a pooled connection for
# each send in flight and opens a new one whenever none is free, and its pools never shrink: unbounded, a burst of
# commands left a server process holding one connection to Redis per update that had been waiting (160 in one
# worker under the bench). A send is two or three round trips to Redis, so a few in flight keep up with a process's
# commands.
SENDS_IN_FLIGHT = 4


class BackgroundPublisher:
    """One event loop in a daemon thread per process (started on first use, again after a fork)."""

    def __init__(self):
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._turns: asyncio.Semaphore | None = None
        self._pid = 0

    def loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None or self._pid != os.getpid():
                loop = asyncio.new_event_loop()
                threading.Thread(target=loop.run_forever, name="dvorak-publisher", daemon=True).start()
                self._loop, self._turns, self._pid = loop, asyncio.Semaphore(SENDS_IN_FLIGHT), os.getpid()
            return self._loop

    def send(self, layer, group: str, message: dict) -> asyncio.Future:
        loop = self.loop()
        return asyncio.run_coroutine_threadsafe(_send_logging_failure(layer, group, message, self._turns), loop)


async def _send_logging_failure(layer, group: str, message: dict, turns: asyncio.Semaphore) -> None:
    """Logged inside the coroutine, so the failure is on record before anyone waiting on the future wakes."""
    try:
        async with turns:
            await layer.group_send(group, message)
    except Exception as error:
        logger.warning("A live update could not be sent: %r", error)
        raise


PUBLISHER = BackgroundPublisher()


def group_send(group: str, message: dict):
    """Send ``message`` to ``group``; on Redis, in the background (returns the future, for tests to wait on)."""
    layer = get_channel_layer()
    if layer is None:
        return None
    if isinstance(layer, InMemoryChannelLayer):
        # Its groups live in this process: with no socket of this game here (a REST worker, a test without one),
        # there is nobody to tell, and a send would start an event loop in a new thread for nothing.
        if layer.groups.get(group):
            async_to_sync(layer.group_send)(group, message)
        return None
    return PUBLISHER.send(layer, group, message)
