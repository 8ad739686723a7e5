"""Resync by version: a live update the channel layer loses is made good, so a client never sees a version gap.

channels-redis drops group messages to a socket whose channel is over its capacity. The first tests drop the notice
of a command before it reaches the layer, which a socket cannot tell apart from such a drop; the last (on Redis)
has channels-redis itself drop them, every channel being at a capacity of 0.
"""

import logging

import pytest
from asgiref.sync import sync_to_async

from dvorak_kit import publisher
from tests.live.test_websocket import connect, receive_events, version_of

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def dropped_notices(monkeypatch):
    """Group messages to drop: while ``drop["on"]`` is true, the notice after a commit never leaves the server (the
    game's notice: the lines of its players' account feeds go on)."""
    drop = {"on": False, "count": 0}
    send = publisher.group_send

    def maybe_send(group, message):
        if drop["on"] and group.startswith("game."):
            drop["count"] += 1
            return None
        return send(group, message)

    monkeypatch.setattr(publisher, "group_send", maybe_send)
    return drop


def command(game_id, seated) -> int:
    """Send the first command the moves listing offers any seat (complete bodies); the game's new version."""
    client, move = next((c, m) for _, c in seated for m in c.get(f"/api/v1/games/{game_id}/moves/").json()["moves"]
                        if m["type"] in {"draw", "end_turn", "discard", "play"}
                        and not any(isinstance(v, dict) for v in m.values()))
    response = client.post(f"/api/v1/games/{game_id}/commands/", move, format="json")
    assert response.status_code == 201, response.content
    return response.json()["version"]


async def test_a_lost_notice_is_sent_with_the_next_one_in_order(table, dropped_notices, settings):
    settings.LIVE_RESYNC_SECONDS = 3600  # only the next notice can reveal the loss here
    game_id, seated = await sync_to_async(table)(2)
    socket = await connect(game_id, f"token={seated[1][0].api_token}&after=0")
    version = await sync_to_async(version_of)(game_id)
    await receive_events(socket, version)

    dropped_notices["on"] = True
    lost_up_to = await sync_to_async(command)(game_id, seated)
    assert dropped_notices["count"] == 1
    assert await socket.receive_nothing(timeout=0.3)  # the loss itself is silent

    dropped_notices["on"] = False
    new_version = await sync_to_async(command)(game_id, seated)
    assert new_version > lost_up_to > version
    live = await receive_events(socket, new_version - version)
    assert [e["version"] for e in live] == list(range(version + 1, new_version + 1))
    assert await socket.receive_nothing(timeout=0.3)
    await socket.disconnect()


async def test_a_lost_last_notice_is_made_good_by_the_idle_resync(table, dropped_notices, settings):
    settings.LIVE_RESYNC_SECONDS = 0.2
    game_id, seated = await sync_to_async(table)(3)
    sockets = [await connect(game_id, f"token={user.api_token}&after=0") for user, _ in seated]
    version = await sync_to_async(version_of)(game_id)
    for socket in sockets:
        await receive_events(socket, version)

    dropped_notices["on"] = True
    new_version = await sync_to_async(command)(game_id, seated)
    assert dropped_notices["count"] == 1
    # No notice will ever come for this command; every socket still gets its events, in order, once.
    for socket in sockets:
        live = await receive_events(socket, new_version - version)
        assert [e["version"] for e in live] == list(range(version + 1, new_version + 1))
    for socket in sockets:
        assert await socket.receive_nothing(timeout=0.5)
        await socket.disconnect()


@pytest.mark.redis
async def test_notices_channels_redis_drops_over_its_capacity_never_show_as_a_gap(table, settings, caplog):
    from channels.layers import get_channel_layer

    settings.LIVE_RESYNC_SECONDS = 0.2
    game_id, seated = await sync_to_async(table)(2)
    socket = await connect(game_id, f"token={seated[0][0].api_token}&after=0")
    version = await sync_to_async(version_of)(game_id)
    await receive_events(socket, version)

    layer = get_channel_layer()
    capacity = layer.capacity
    layer.capacity = 0  # every channel is at its capacity: channels-redis drops each group message, and says so
    try:
        with caplog.at_level(logging.INFO, logger="channels_redis"):
            versions = [await sync_to_async(command)(game_id, seated) for _ in range(2)]
            live = await receive_events(socket, versions[-1] - version)
    finally:
        layer.capacity = capacity
    assert any("over capacity" in r.getMessage() for r in caplog.records)
    assert [e["version"] for e in live] == list(range(version + 1, versions[-1] + 1))
    assert await socket.receive_nothing(timeout=0.5)
    await socket.disconnect()
