"""Live updates: a websocket per viewer, catching up from the store, then following the game's group. The HTTP
streams of a game (dvorak_site/streams.py) follow it the same way, with the same code (``GameFollower``).

The group message only says that the game has moved on; each socket reads the new events from the store and
redacts them for its own viewer, so nothing secret travels to a socket, and a missed group message (they are
at-most-once) is made good by the next one: the store is the truth. While Redis is away the socket stays open
and quiet; when it answers again the channel layer puts the socket back in its group and says so
(``channel_layer.rejoined``), and the socket sends every event it missed, in order.

Resync by version: a notice says which version the game moved from (``after``) and to (``version``). A notice whose
``after`` is beyond what the socket has sent means an earlier notice was lost (channels-redis drops group
messages to a channel over its capacity), and the catch-up from the store sends the missed events first. A lost
notice with no later one is made good by the idle resync: every ``LIVE_RESYNC_SECONDS`` each process reads, in
one query, the versions of the games whose sockets have heard nothing for that long, and the sockets that are
behind catch up. Either way the client sees versions 1, 2, 3… without a gap.
"""

import asyncio
import logging
import weakref
from typing import Any
from urllib.parse import parse_qs

import structlog
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings

import dvorak_engine as engine
from dvorak_kit import metrics
from dvorak_kit.eventstore import store
from dvorak_kit.logs import request_id_of
from games import services
from games.models import Game

CLOSE_NOT_AUTHENTICATED = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_INVALID = 4400

logger = logging.getLogger("dvorak.live")
socket_log = structlog.get_logger("dvorak.live")  # a socket's lines, with what its context binds (its request id)


class SharedReads:
    """One per event loop: the sockets of a game that a notice wakes at the same version read its new events from
    the store once between them (each then folds and redacts them for its own viewer)."""

    _by_loop: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def __init__(self):
        self.pending: dict[tuple[str, int], asyncio.Future] = {}

    @classmethod
    def of_this_loop(cls) -> "SharedReads":
        loop = asyncio.get_running_loop()
        reads = cls._by_loop.get(loop)
        if reads is None:
            reads = cls._by_loop[loop] = cls()
        return reads

    async def read(self, stream_id: str, after: int) -> list:
        key = (stream_id, after)
        future = self.pending.get(key)
        if future is None:
            future = self.pending[key] = asyncio.ensure_future(
                database_sync_to_async(store.read)(stream_id, after=after))
            future.add_done_callback(lambda _: self.pending.pop(key, None))
        return await asyncio.shield(future)


class IdleResync:
    """One per event loop (a server process): wakes every ``LIVE_RESYNC_SECONDS`` and has each socket that has
    heard nothing meanwhile and is behind its game's version catch up, reading every version in one query."""

    _by_loop: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def __init__(self):
        self.sockets: weakref.WeakSet[GameFollower] = weakref.WeakSet()
        self.task: asyncio.Task | None = None

    @classmethod
    def of_this_loop(cls) -> "IdleResync":
        loop = asyncio.get_running_loop()
        resync = cls._by_loop.get(loop)
        if resync is None:
            resync = cls._by_loop[loop] = cls()
        return resync

    def add(self, socket: "GameFollower") -> None:
        self.sockets.add(socket)
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self.run())

    def discard(self, socket: "GameFollower") -> None:
        self.sockets.discard(socket)
        if not self.sockets and self.task is not None:
            self.task.cancel()
            self.task = None

    async def run(self) -> None:
        while self.sockets:
            interval = settings.LIVE_RESYNC_SECONDS
            await asyncio.sleep(interval)
            try:
                await self.resync_idle(interval)
            except Exception:  # the database away for a moment: try again next time
                logger.exception("The idle resync of live sockets failed")

    async def resync_idle(self, interval: float) -> None:
        now = asyncio.get_running_loop().time()
        idle = [s for s in list(self.sockets) if now - s.last_heard >= interval]
        if not idle:
            return
        versions = await database_sync_to_async(store.current_versions)({s.stream_id for s in idle})
        behind = [s for s in idle if versions.get(s.stream_id, 0) > s.version]
        for socket in idle:
            socket.last_heard = now
        for socket in behind:
            logger.info("live resync: an idle socket of %s was at version %s of %s (a notice lost or still on its way);"
                        " catching up",
                        socket.group, socket.version, versions[socket.stream_id])
        await asyncio.gather(*(s.resync(versions.get(s.stream_id, 0)) for s in idle), return_exceptions=True)


class GameFollower:
    """What a live reader of one game does, whatever carries its events to the client (a websocket here, an HTTP
    stream in dvorak_site/streams.py): joins the game's group before it catches up from the store, so that nothing
    in between is missed; then, on each notice, on the idle resync and when the channel layer has put it back in its
    group after a Redis outage, sends the events after its version, each folded and redacted for its own user.

    The consumer it is mixed into sets ``user``, ``game_id`` and ``stream_id`` before ``follow``, and sends the
    events in ``send_events``."""

    user: Any
    game_id: Any
    stream_id: str

    async def follow(self, after: int) -> None:
        self.sending = asyncio.Lock()
        self.group = services.group_name(self.game_id)
        # Join the group before catching up, so nothing that happens in between is missed.
        await self.channel_layer.group_add(self.group, self.channel_name)
        self.joined_at = self.last_heard = asyncio.get_running_loop().time()
        self.version, self.state = await self.state_after(after)
        await self.catch_up()
        self.idle_resync = IdleResync.of_this_loop()
        self.idle_resync.add(self)

    async def unfollow(self) -> None:
        if getattr(self, "idle_resync", None):
            self.idle_resync.discard(self)
        if getattr(self, "group", None):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def send_events(self, events: list[dict]) -> None:
        raise NotImplementedError

    async def game_advanced(self, message):
        self.last_heard = asyncio.get_running_loop().time()
        if message.get("after", 0) > self.version:
            # The notice of an earlier move never came (dropped by the layer): the catch-up sends it first.
            logger.info("live resync: a reader of %s at version %s got the notice of %s→%s; catching up",
                        self.group, self.version, message["after"], message.get("version"))
        if message.get("version", 0) > self.version:
            await self.catch_up(until=message["version"])

    async def resync(self, current_version: int):
        """The idle resync's call: renew the group membership before it expires in Redis; catch up if behind."""
        now = asyncio.get_running_loop().time()
        if now - self.joined_at > getattr(self.channel_layer, "group_expiry", 86400) / 2:
            await self.channel_layer.group_add(self.group, self.channel_name)
            self.joined_at = now
        if current_version > self.version:
            await self.catch_up(until=current_version)

    async def channel_layer_rejoined(self, message):
        await self.catch_up()

    async def catch_up(self, until: int = 0):
        """Send the events after the reader's version; read again (a few times at most) while short of ``until``:
        a read shared with another reader may have begun before the version named by the notice committed."""
        async with self.sending:
            for _ in range(3):
                shown, self.version, self.state = await self.read_new_events(self.version, self.state)
                if shown:
                    await self.send_events(shown)
                if self.version >= until:
                    break

    @database_sync_to_async
    def state_after(self, after: int):
        current = services.version_of(services.game_uuid_of(self.game_id))
        after = min(after, current or 0)
        return after, services.state_at(self.stream_id, after) if after else None

    async def read_new_events(self, version: int, state):
        events = await SharedReads.of_this_loop().read(self.stream_id, version)
        return await self.show(events, version, state)

    @database_sync_to_async
    def show(self, events, version: int, state):
        state, shown = services.fold_and_view(state, events, lambda s: engine.seat_of(s, self.user.id))
        return shown, (events[-1].version if events else version), state


class GameConsumer(GameFollower, AsyncJsonWebsocketConsumer):
    """A socket has a request id as an HTTP request has (its handshake's ``X-Request-ID``, or a new one): in the
    handshake's answer, in every error frame, and in every log line of the socket's life (bound in its task's
    context), from the line that says it opened to the one that says it closed, and why."""

    counted = False  # in ``dvorak_open_websockets`` (from its accept to its disconnect)
    following = False

    async def connect(self):
        self.request_id = request_id_of(dict(self.scope.get("headers") or ()).get(b"x-request-id"))
        self.game_id = self.scope["url_route"]["kwargs"]["game_id"]
        user = self.scope.get("user")
        signed_in = user is not None and user.is_authenticated
        structlog.contextvars.bind_contextvars(request_id=self.request_id, game=str(self.game_id),
                                               **({"user": user.get_username()} if signed_in else {}))
        # Accept first, so that the close code tells the client why (a refused handshake carries no code).
        await self.accept(headers=[(b"x-request-id", self.request_id.encode())])
        self.counted = True
        metrics.websocket_opened()
        if not signed_in:
            await self.refuse(CLOSE_NOT_AUTHENTICATED)
            return
        query = parse_qs(self.scope.get("query_string", b"").decode())
        try:
            after = int(query.get("after", ["0"])[0])
        except ValueError:
            after = -1
        if after < 0:
            await self.refuse(CLOSE_INVALID)
            return
        self.stream_id, may_watch = await self.find_stream(user)
        if self.stream_id is None:
            await self.refuse(CLOSE_NOT_FOUND)
            return
        if not may_watch:
            await self.refuse(CLOSE_FORBIDDEN)
            return
        self.user = user
        self.following = True
        socket_log.info("websocket opened", after=after)
        await self.follow(after)

    async def refuse(self, code: int) -> None:
        socket_log.info("websocket refused", code=code)
        await self.close(code=code)

    async def disconnect(self, code):
        if self.counted:
            self.counted = False
            metrics.websocket_closed()
        if self.following:
            self.following = False
            socket_log.info("websocket closed", code=code)
        await self.unfollow()

    async def receive_json(self, content, **kwargs):
        # Commands go through the REST API (with Idempotency-Key and If-Match); a socket only listens.
        await self.send_json({"type": "error", "error": {"code": "invalid",
                              "message": "Send commands to POST /api/v1/games/{id}/commands/.",
                              "request_id": self.request_id}})

    async def send_events(self, events: list[dict]) -> None:
        for event in events:
            await self.send_json({"type": "event", "event": event})

    @database_sync_to_async
    def find_stream(self, user) -> tuple[str | None, bool]:
        """The game's stream, and whether ``user`` may watch it (`options.spectators`)."""
        game = Game.objects.filter(pk=self.game_id).first()
        return (game.stream_id, services.may_watch(game, user)) if game else (None, False)
