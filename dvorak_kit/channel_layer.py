"""The channel layer on Redis, for sockets that outlive a Redis outage.

channels-redis raises when Redis is away: a ``group_send`` after a command has committed would fail the request,
and a socket's receive loop would end the socket. This layer drops group messages meanwhile (they are
at-most-once anyway: the event store is the truth), keeps each socket waiting, and when Redis answers again puts
this process's sockets back in their groups (a restarted Redis has forgotten them) and sends each one a
``channel_layer.rejoined`` message, on which it catches up from the store by version.

The messages dropped are counted (``dvorak_channel_layer_dropped_total``): while Redis is away, and those a full
channel refused (``CHANNELS_CAPACITY``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import defaultdict
from contextlib import suppress
from typing import Any

from channels.exceptions import ChannelFull
from channels_redis.core import RedisChannelLayer
from redis.exceptions import RedisError

from dvorak_kit import metrics
from dvorak_kit.outage import Outage

REJOINED = "channel_layer.rejoined"
LAYER_ERRORS = (RedisError, OSError)

logger = logging.getLogger("dvorak.channel_layer")

# What channels-redis's group_send does for each channel's key, for several keys at once: the message added to the
# channel's sorted set (scored by the time, as channels-redis's receive reads it) unless the channel is full, and
# the set's expiry renewed. KEYS are the channels' keys; ARGV their messages, then their capacities, then the time
# and the expiry. Answers how many channels were full.
ADD_TO_CHANNELS = """
local full = 0
local now, expiry = ARGV[#ARGV - 1], ARGV[#ARGV]
for i = 1, #KEYS do
    if redis.call('ZCOUNT', KEYS[i], '-inf', '+inf') < tonumber(ARGV[i + #KEYS]) then
        redis.call('ZADD', KEYS[i], now, ARGV[i])
        redis.call('EXPIRE', KEYS[i], expiry)
    else
        full = full + 1
    end
end
return full
"""


# What channels-redis's group_send reads of each group first, for several groups at once: the members whose
# membership has expired dropped, and the rest read. KEYS are the groups' keys; ARGV[1] the last expired score.
# Answers each group's members, in KEYS' order. One command for them all, where a pipeline of two a group had cost
# the publisher a command to build and an answer to read for each (most of a busy server's live-update CPU).
GROUP_MEMBERS = """
local members = {}
for i = 1, #KEYS do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, ARGV[1])
    members[i] = redis.call('ZRANGE', KEYS[i], 0, -1)
end
return members
"""


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
            metrics.channel_dropped("redis_unavailable")
            self.lost(error)
        else:
            self.outage.answered()

    async def group_send_many(self, sends: list[tuple[str, dict]]) -> None:
        """Each ``(group, message)`` sent as ``group_send`` sends it, in order, in two round trips to each Redis
        host for them all instead of two to four for each: the groups' expired members dropped and their members
        read in one script (``GROUP_MEMBERS``); then, for the groups that have any, the channels' expired messages dropped and the
        message added to each channel in another. A publisher with many updates waiting (a busy server process)
        sends them together; an update to a game nobody watches costs its share of one round trip."""
        try:
            await self._group_send_many(sends)
        except LAYER_ERRORS as error:
            metrics.channel_dropped("redis_unavailable", len(sends))
            self.lost(error)
        else:
            self.outage.answered()

    async def _group_send_many(self, sends: list[tuple[str, dict]]) -> None:
        for group, _ in sends:
            assert self.require_valid_group_name(group), "Group name not valid"
        oldest_member = int(time.time()) - self.group_expiry
        reads: dict[int, list[int]] = defaultdict(list)  # host index -> the sends whose groups live there
        for number, (group, _) in enumerate(sends):
            reads[self.consistent_hash(group)].append(number)
        members: dict[int, list[str]] = {}
        for index, numbers in reads.items():
            keys = [self._group_key(sends[number][0]) for number in numbers]
            answers = await self.connection(index).eval(GROUP_MEMBERS, len(keys), *keys, oldest_member)
            for number, names in zip(numbers, answers, strict=True):
                if names:
                    members[number] = [name.decode("utf8") for name in names]
        if not members:
            return
        pipelines: dict[int, tuple[Any, list]] = {}  # host index -> its pipeline, and for each script in it:
        oldest_message = int(time.time()) - int(self.expiry)  # (its place in the pipeline, group, members)
        for number in sorted(members):
            group, message = sends[number]
            keys_of, messages, capacities = self._map_channel_keys_to_connection(members[number], message)
            for index, keys in keys_of.items():
                if index not in pipelines:
                    pipelines[index] = (self.connection(index).pipeline(transaction=False), [])
                pipeline, scripts = pipelines[index]
                for key in keys:
                    pipeline.zremrangebyscore(key, min=0, max=oldest_message)
                scripts.append((len(pipeline), group, len(members[number])))
                pipeline.eval(ADD_TO_CHANNELS, len(keys), *keys, *(messages[key] for key in keys),
                              *(capacities[key] for key in keys), time.time(), self.expiry)
        for pipeline, scripts in pipelines.values():
            answers = await pipeline.execute()
            for place, group, count in scripts:
                if answers[place]:
                    metrics.channel_dropped("channel_full", answers[place])
                    logger.info("%s of %s channels over capacity in group %s", answers[place], count, group)

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
