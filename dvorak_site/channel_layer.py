"""The channel layer on Redis, for sockets that outlive a Redis outage.

channels-redis raises when Redis is away: a ``group_send`` after a command has committed would fail the request,
and a socket's receive loop would end the socket. This layer drops group messages meanwhile (they are
at-most-once anyway: the event store is the truth), keeps each socket waiting, and when Redis answers again puts
this process's sockets back in their groups (a restarted Redis has forgotten them) and sends each one a
``channel_layer.rejoined`` message, on which it catches up from the store by version.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from contextlib import suppress

from channels.exceptions import ChannelFull
from channels_redis.core import RedisChannelLayer
from redis.exceptions import RedisError

from dvorak_site.outage import Outage

REJOINED = "channel_layer.rejoined"
LAYER_ERRORS = (RedisError, OSError)


class ResilientRedisChannelLayer(RedisChannelLayer):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.outage = Outage("Redis (the channel layer: live updates)")
        # The groups of this process's sockets, to put them back after an outage.
        self.memberships: defaultdict[str, set[str]] = defaultdict(set)
        self.rejoin_needed = False

    async def group_add(self, group, channel):
        self.memberships[channel].add(group)
        try:
            await super().group_add(group, channel)
        except LAYER_ERRORS as error:
            self.lost(error)

    async def group_discard(self, group, channel):
        groups = self.memberships.get(channel, set())
        groups.discard(group)
        if not groups:
            self.memberships.pop(channel, None)
        try:
            await super().group_discard(group, channel)
        except LAYER_ERRORS as error:  # the membership expires in Redis by itself (group_expiry)
            self.lost(error)

    async def group_send(self, group, message):
        try:
            await super().group_send(group, message)
        except LAYER_ERRORS as error:
            self.lost(error)
        else:
            self.outage.answered()

    async def receive(self, channel):
        while True:
            if self.rejoin_needed:
                await self.rejoin()
            try:
                return await super().receive(channel)
            except LAYER_ERRORS as error:
                self.lost(error)
                await asyncio.sleep(self.outage.retry_seconds)

    def lost(self, error: BaseException) -> None:
        self.outage.failed(error)
        self.rejoin_needed = True

    async def rejoin(self) -> None:
        """Put every socket of this process back in its groups and tell it to catch up; if Redis still does not
        answer, try again on the next receive."""
        self.rejoin_needed = False
        try:
            for channel, groups in list(self.memberships.items()):
                for group in list(groups):
                    await super().group_add(group, channel)
                with suppress(ChannelFull):  # a socket with messages waiting catches up on those anyway
                    await self.send(channel, {"type": REJOINED})
        except LAYER_ERRORS as error:
            self.lost(error)
        else:
            self.outage.answered()
