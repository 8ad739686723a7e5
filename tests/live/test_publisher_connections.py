"""A burst of live updates keeps the process's Redis connections few, and every update arrives.

When each live update was a task of its own on the publisher's loop, channels-redis took a pooled connection for
each group send in flight, opening a new one whenever none was free; its pools never shrink. Under the bench's card
commands a worker held 160 connections to Redis, and the servers near a thousand between them, all left from such
bursts. The publisher now sends what waits together, a batch at a time (a layer without ``group_send_many``: a few
sends in flight at once)."""

from __future__ import annotations

import uuid
from concurrent.futures import wait

import pytest
import redis
from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings

from dvorak_kit import publisher

pytestmark = [
    pytest.mark.redis,
    pytest.mark.skipif(isinstance(get_channel_layer(), InMemoryChannelLayer), reason="needs the Redis channel layer"),
]

UPDATES = 80  # under the channel's capacity (100), so that none is dropped for want of room


def connected_clients() -> int:
    return int(redis.Redis.from_url(settings.REDIS_URL).info("clients")["connected_clients"])


def test_a_burst_of_live_updates_opens_a_few_connections_and_every_update_arrives():
    layer = get_channel_layer()
    group = f"burst-{uuid.uuid4().hex}"
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(group, channel)
    sender = publisher.BackgroundPublisher()  # a loop, and so a connection pool, of its own
    before = connected_clients()
    futures = [sender.send(layer, group, {"type": "game.advanced", "version": n, "after": n - 1})
               for n in range(1, UPDATES + 1)]
    done, pending = wait(futures, timeout=60)
    assert not pending and all(future.exception() is None for future in done)
    opened = connected_clients() - before
    received = [async_to_sync(layer.receive)(channel)["version"] for _ in range(UPDATES)]
    sender.close()
    assert sorted(received) == list(range(1, UPDATES + 1))
    assert opened <= publisher.SENDS_IN_FLIGHT + 4  # was one per update in flight: tens
