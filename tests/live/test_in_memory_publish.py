"""A live update on the in-memory channel layer (`make run`), sent from a plain thread of the server's, reaches the
socket's channel on the server's loop.

The fast path answers commands on threads of its own, not asgiref's: ``async_to_sync`` there would start a loop of
its own, and the in-memory layer's queues belong to the server's. The publisher sends such an update on the loop it
adopted from the server (``send_from``), and waits for it as async_to_sync did."""

from __future__ import annotations

import asyncio
import uuid
from concurrent.futures import ThreadPoolExecutor

from channels.layers import InMemoryChannelLayer

from dvorak_kit import publisher


def test_an_update_sent_from_a_plain_thread_reaches_the_servers_loop(monkeypatch):
    layer = InMemoryChannelLayer()
    monkeypatch.setattr(publisher, "get_channel_layer", lambda: layer)
    sender = publisher.BackgroundPublisher()
    monkeypatch.setattr(publisher, "PUBLISHER", sender)
    group = f"memory-{uuid.uuid4().hex}"
    sent_on = []  # the loop each send ran on
    group_send = layer.group_send

    async def recorded_send(*args):
        sent_on.append(asyncio.get_running_loop())
        await group_send(*args)

    monkeypatch.setattr(layer, "group_send", recorded_send)
    threads = ThreadPoolExecutor(max_workers=1, thread_name_prefix="plain")  # as the fast path's command threads

    async def server() -> list[dict]:
        sender.send_from(asyncio.get_running_loop())
        channel = await layer.new_channel()
        await layer.group_add(group, channel)
        loop = asyncio.get_running_loop()
        for version in (1, 2, 3):
            notice = {"type": "game.advanced", "version": version, "after": version - 1}
            await loop.run_in_executor(threads, publisher.group_send, group, notice)
        received = [await asyncio.wait_for(layer.receive(channel), 5) for _ in range(3)]
        return received, loop

    try:
        received, loop = asyncio.run(server())
    finally:
        threads.shutdown()
    assert [message["version"] for message in received] == [1, 2, 3]
    assert sent_on == [loop] * 3
