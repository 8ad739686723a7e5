"""Live updates sent together: what each socket receives is what channels-redis's own group_send gives it, in
fewer round trips.

The publisher hands every update waiting to ``ResilientRedisChannelLayer.group_send_many``: one script reads the
groups' members, and one more adds the messages to the members' channels. These run on real Redis and compare with
channels-redis's ``group_send``, message for message."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
import uuid
from concurrent.futures import wait

import pytest
from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from redis.asyncio.connection import AbstractConnection

from dvorak_kit import publisher
from dvorak_kit.channel_layer import ResilientRedisChannelLayer

pytestmark = [
    pytest.mark.redis,
    pytest.mark.skipif(isinstance(get_channel_layer(), InMemoryChannelLayer), reason="needs the Redis channel layer"),
]


def a_group() -> str:
    return f"many-{uuid.uuid4().hex}"


def notice(version: int) -> dict:
    return {"type": "game.advanced", "version": version, "after": version - 1}


def joined(layer, *groups: str) -> str:
    channel = async_to_sync(layer.new_channel)()
    for group in groups:
        async_to_sync(layer.group_add)(group, channel)
    return channel


def received(layer, channel: str, count: int) -> list[dict]:
    return [async_to_sync(layer.receive)(channel) for _ in range(count)]


def all_sent(futures) -> None:
    """Every update handed over has been sent, none failed."""
    done, pending = wait(futures, timeout=30)
    assert not pending and all(future.exception() is None for future in done)


def nothing_waiting(layer, channel: str) -> bool:
    """Whether the channel has no message waiting (its sorted set in Redis is empty)."""

    name = layer.non_local_name(channel)

    async def count() -> int:
        return await layer.connection(layer.consistent_hash(name)).zcard(layer.prefix + name)

    return async_to_sync(count)() == 0


@pytest.fixture
def round_trips(monkeypatch):
    """Writes to Redis's sockets by the async client (a pipeline's commands go in one)."""
    sent: list[int] = []
    send = AbstractConnection.send_packed_command

    async def counted(self, command, check_health=True):
        sent.append(1)
        return await send(self, command, check_health)

    monkeypatch.setattr(AbstractConnection, "send_packed_command", counted)
    return sent


def test_every_member_gets_its_groups_messages_in_order_and_a_group_with_none_costs_no_send():
    layer = get_channel_layer()
    watched, also_watched, unwatched = a_group(), a_group(), a_group()
    both = joined(layer, watched, also_watched)  # one socket in two groups
    one = joined(layer, watched)
    sends = [(watched, notice(1)), (unwatched, notice(1)), (also_watched, notice(7)), (watched, notice(2))]
    async_to_sync(layer.group_send_many)(sends)
    assert [m["version"] for m in received(layer, both, 3)] == [1, 7, 2]
    assert [m["version"] for m in received(layer, one, 2)] == [1, 2]
    assert nothing_waiting(layer, both) and nothing_waiting(layer, one)
    # The same messages as channels-redis's own group_send leaves.
    async_to_sync(layer.group_send)(watched, notice(3))
    async_to_sync(layer.group_send_many)([(watched, notice(3))])
    first, second = received(layer, one, 2)
    assert first == second == notice(3)


def test_many_updates_take_two_round_trips_and_none_watched_takes_one(round_trips):
    layer = get_channel_layer()
    groups = [a_group() for _ in range(10)]
    channel = joined(layer, *groups[:3])
    counted: list[int] = []

    async def sends() -> None:  # in one event loop, so on one connection pool, made before counting
        await layer.group_send(groups[0], notice(0))
        round_trips.clear()
        await layer.group_send_many([(group, notice(n)) for n, group in enumerate(groups, start=1)])
        counted.append(len(round_trips))
        round_trips.clear()
        await layer.group_send_many([(a_group(), notice(1)) for _ in range(10)])
        counted.append(len(round_trips))

    async_to_sync(sends)()
    # channels-redis's group_send: 2 round trips for each unwatched group, 4 for each watched one.
    assert counted == [2, 1]
    assert [m["version"] for m in received(layer, channel, 4)] == [0, 1, 2, 3]


def test_a_full_channel_is_logged_and_the_others_still_get_theirs(caplog):
    layer = ResilientRedisChannelLayer(**_config(capacity=2))
    group = a_group()
    full, free = joined(layer, group), joined(layer, a_group())
    async_to_sync(layer.group_add)(group, free)
    with caplog.at_level(logging.INFO, logger="dvorak.channel_layer"):
        async_to_sync(layer.group_send_many)([(group, notice(n)) for n in range(1, 4)])
    assert [m["version"] for m in received(layer, full, 2)] == [1, 2]  # the third found the channel full
    assert [m["version"] for m in received(layer, free, 2)] == [1, 2]
    assert nothing_waiting(layer, full)
    assert any("over capacity" in record.getMessage() and group in record.getMessage() for record in caplog.records)


def _config(**overrides) -> dict:
    from django.conf import settings

    config = dict(settings.CHANNEL_LAYERS["default"]["CONFIG"])
    config.update(overrides)
    return config


def watched_sends(monkeypatch, layer, note) -> None:
    """Each ``group_send_many`` of ``layer``'s class noted (``note(sends)``) before it is carried out."""
    original = type(layer).group_send_many

    async def noted(self, sends):
        note(sends)
        await original(self, sends)

    monkeypatch.setattr(type(layer), "group_send_many", noted)


def test_the_publisher_sends_what_waits_together_and_every_update_arrives(monkeypatch):
    layer = get_channel_layer()
    group = a_group()
    channel = joined(layer, group)
    batches: list[int] = []
    first_batch_sent = threading.Event()

    def counted(sends):
        batches.append(len(sends))
        if len(batches) == 1:  # the sender busy with the first update while the rest are handed over
            first_batch_sent.wait(10)

    watched_sends(monkeypatch, layer, counted)
    sender = publisher.BackgroundPublisher()
    try:
        futures = [sender.send(layer, group, notice(1))]
        deadline = time.monotonic() + 10
        while not batches and time.monotonic() < deadline:
            time.sleep(0.01)
        assert batches, "the first update was not sent"
        futures += [sender.send(layer, group, notice(n)) for n in range(2, 51)]
        first_batch_sent.set()
        all_sent(futures)
    finally:
        sender.close()
    assert batches == [1, 49]
    assert [m["version"] for m in received(layer, channel, 50)] == list(range(1, 51))


def test_a_servers_loop_sends_the_updates_and_when_it_ends_a_thread_goes_on(monkeypatch):
    """Under an ASGI server the updates leave from the server's own loop (games/api/fast.py hands it over);
    once that loop has ended, as a test's does, the next update goes from a thread of the publisher's own."""
    layer = get_channel_layer()
    group = a_group()
    channel = joined(layer, group)
    senders: list[str] = []
    watched_sends(monkeypatch, layer, lambda sends: senders.append(threading.current_thread().name))
    sender = publisher.BackgroundPublisher()

    async def server() -> None:
        sender.send_from(asyncio.get_running_loop())
        # Handed over from another thread, as a command's update is from the thread that ran it.
        future = await asyncio.to_thread(sender.send, layer, group, notice(1))
        await asyncio.wrap_future(future)

    try:
        asyncio.run(server())
        sender.send(layer, group, notice(2)).result(timeout=30)
    finally:
        sender.close()
    assert senders == [threading.current_thread().name, "dvorak-publisher"]
    assert [m["version"] for m in received(layer, channel, 2)] == [1, 2]


def test_updates_handed_over_in_quick_succession_go_together(monkeypatch):
    """The sender sends at most one batch each ``GATHER_SECONDS``: an update handed over to an idle sender leaves at
    once, and those handed over within the interval after it gather, so that a busy server sends several in one
    batch, not one each as they come."""
    layer = get_channel_layer()
    group = a_group()
    channel = joined(layer, group)
    batches: list[int] = []
    watched_sends(monkeypatch, layer, lambda sends: batches.append(len(sends)))
    monkeypatch.setattr(publisher, "GATHER_SECONDS", 5.0)  # wide, so that a slow machine still hands all over in it
    sender = publisher.BackgroundPublisher()
    try:
        first = sender.send(layer, group, notice(1))
        first.result(timeout=2.5)  # at once, not at the interval's end
        futures = [sender.send(layer, group, notice(n)) for n in range(2, 6)]
        all_sent(futures)
    finally:
        sender.close()
    assert batches == [1, 4]
    assert [m["version"] for m in received(layer, channel, 5)] == list(range(1, 6))
