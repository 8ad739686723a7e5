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
import json
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


class GameTail:
    """One per event loop (a server process) and game followed there: the game's state at the latest version the
    process has read, and its last ``KEEP`` events with the states before and after each. Every reader of the game
    in the process (websockets, streams) shares one read of the store and one fold per new event, and each event is
    shown once per viewer (a seat, or the spectators), not once per reader: a thousand sockets of one seat cost one
    redaction. A reader keeps only its version; no reader holds a copy of the game's state.

    A reader further behind than ``KEEP`` events (one opened with an old ``after``) catches up on its own once,
    from the store, then follows the tail like the others.

    A tail whose game has not moved for ``LIVE_TAIL_IDLE_SECONDS`` lets its state go (the idle resync's pass sees
    to it), keeping its version: the next event reads the state at that version again (a snapshot and a few
    events) before it folds on. A process following thousands of games keeps the states of those being played."""

    KEEP = 32

    _by_loop: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def __init__(self, stream_id: str):
        self.stream_id = stream_id
        self.version = -1  # nothing read yet
        self.state = None
        self.steps: dict[int, tuple[Any, Any, Any]] = {}  # version: (recorded event, state before, state after)
        self.shown: dict[tuple[int, int | None], dict] = {}  # (version, viewer): the event as that viewer sees it
        self.encoded: dict[tuple[str, int, int | None], Any] = {}  # (encoding, version, viewer): its frame
        self.lock = asyncio.Lock()
        self.readers = 0
        self.cold = True  # no state held: read it (at ``version``, once known) before folding
        self.moved_at = 0.0  # when it last read something (the event loop's clock)

    @classmethod
    def acquire(cls, stream_id: str) -> "GameTail":
        tails = cls._by_loop.setdefault(asyncio.get_running_loop(), {})
        tail = tails.get(stream_id)
        if tail is None:
            tail = tails[stream_id] = cls(stream_id)
        tail.readers += 1
        return tail

    def release(self) -> None:
        self.readers -= 1
        if self.readers <= 0:
            tails = self._by_loop.get(asyncio.get_running_loop(), {})
            if tails.get(self.stream_id) is self:
                del tails[self.stream_id]

    async def advance(self, until: int | None = None) -> None:
        """Read and fold what the store has after the tail's version: once, or (``until``) until that version at
        least, a few reads at most (a read may begin before the commit of the version a notice names)."""
        async with self.lock:
            if self.cold:
                self.version, self.state = await database_sync_to_async(self._load)(self.version)
                self.cold = False
                self.moved_at = asyncio.get_running_loop().time()
            for _ in range(3):
                if until is not None and self.version >= until:
                    break
                steps = await database_sync_to_async(self._read_and_fold)(self.version, self.state)
                for step in steps:
                    self.steps[step[0].version] = step
                if steps:
                    self.version, self.state = steps[-1][0].version, steps[-1][2]
                    self._forget_before(self.version - self.KEEP)
                    self.moved_at = asyncio.get_running_loop().time()
                if until is None:
                    break

    def _load(self, version: int):
        """The state at ``version``, or (-1: a new tail) at the game's current version."""
        if version < 0:
            version = store.current_version(self.stream_id)
        return version, services.state_at(self.stream_id, version) if version else None

    def cool(self) -> None:
        """Let the state go (keeping the version), if the tail is not being read just now."""
        if not self.cold and not self.lock.locked():
            self.state, self.cold = None, True
            self.steps.clear()
            self.shown.clear()
            self.encoded.clear()

    @classmethod
    def cool_idle(cls, idle_seconds: float) -> int:
        """Cool this process's tails whose game has not moved for ``idle_seconds``; how many were cooled."""
        loop = asyncio.get_running_loop()
        now, cooled = loop.time(), 0
        for tail in list(cls._by_loop.get(loop, {}).values()):
            if not tail.cold and now - tail.moved_at >= idle_seconds:
                tail.cool()
                cooled += 1
        return cooled

    def _read_and_fold(self, version: int, state) -> list[tuple[Any, Any, Any]]:
        steps = []
        for recorded in store.read(self.stream_id, after=version):
            after = engine.evolve(state, services.to_engine_event(recorded))
            steps.append((recorded, state, after))
            state = after
        return steps

    def _forget_before(self, version: int) -> None:
        for old in [v for v in self.steps if v <= version]:
            del self.steps[old]
        for key in [key for key in self.shown if key[0] <= version]:
            del self.shown[key]
        for key in [key for key in self.encoded if key[1] <= version]:
            del self.encoded[key]

    def shown_after(self, version: int, user_id) -> list[tuple[int, int | None]] | None:
        """The events after ``version`` as ``user_id`` sees them, as keys of ``shown``; None when the tail no longer
        holds them all (the reader is too far behind)."""
        if version >= self.version:
            return []
        if version + 1 not in self.steps:
            return None
        keys = []
        for number in range(version + 1, self.version + 1):
            recorded, before, after = self.steps[number]
            viewer = engine.seat_of(after, user_id)
            key = (number, viewer)
            if key not in self.shown:
                self.shown[key] = services.event_json(recorded, viewer, before, after)
            keys.append(key)
        return keys

    def frame(self, encoding: str, key: tuple[int, int | None], encode) -> Any:
        """``encode(event)`` for the event ``key`` names, made once per encoding and viewer."""
        full = (encoding, *key)
        frame = self.encoded.get(full)
        if frame is None:
            frame = self.encoded[full] = encode(self.shown[key])
        return frame


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
                GameTail.cool_idle(settings.LIVE_TAIL_IDLE_SECONDS)
            except Exception:  # the database away for a moment: try again next time
                logger.exception("The idle resync of live sockets failed")

    async def resync_idle(self, interval: float) -> None:
        now = asyncio.get_running_loop().time()
        idle = [s for s in list(self.sockets) if now - s.last_heard >= interval]
        if not idle:
            return
        versions = await database_sync_to_async(store.current_versions)({s.stream_id for s in idle})
        for socket in idle:
            socket.last_heard = now
        # Only the readers with something to do get a task: behind their game, or their group membership due for
        # renewal. The thousands that are up to date cost a comparison each, not a coroutine.
        renew_after = getattr(idle[0].channel_layer, "group_expiry", 86400) / 2
        due = [s for s in idle if versions.get(s.stream_id, 0) > s.version or now - s.joined_at > renew_after]
        for socket in due:
            if versions.get(socket.stream_id, 0) > socket.version:
                logger.info("live resync: an idle reader of %s was at version %s of %s (a notice lost or still on its"
                            " way); catching up", socket.group, socket.version, versions[socket.stream_id])
        await asyncio.gather(*(s.resync(versions.get(s.stream_id, 0)) for s in due), return_exceptions=True)


class GameFollower:
    """What a live reader of one game does, whatever carries its events to the client (a websocket here, an HTTP
    stream in dvorak_site/streams.py): joins the game's group before it catches up from the store, so that nothing
    in between is missed; then, on each notice, on the idle resync and when the channel layer has put it back in its
    group after a Redis outage, sends the events after its version, each as its own user sees it. The reading,
    folding and redacting are the game's ``GameTail``'s, shared by the process's readers of the game: a reader
    holds its version, not a state.

    The consumer it is mixed into sets ``user``, ``game_id`` and ``stream_id`` before ``follow``, and sends the
    events in ``send_events`` (and, to share frames between readers, ``send_shown``)."""

    user: Any
    game_id: Any
    stream_id: str

    async def follow(self, after: int) -> None:
        self.sending = asyncio.Lock()
        self.group = services.group_name(self.game_id)
        # Join the group before catching up, so nothing that happens in between is missed.
        await self.channel_layer.group_add(self.group, self.channel_name)
        self.joined_at = self.last_heard = asyncio.get_running_loop().time()
        self.tail = GameTail.acquire(self.stream_id)
        # Read only when the tail is new or behind the version the reader says it has seen: a thousand readers
        # opening on one game read it once.
        await self.tail.advance(until=max(after, 0))
        self.version = max(0, min(after, self.tail.version))
        await self.catch_up()
        self.idle_resync = IdleResync.of_this_loop()
        self.idle_resync.add(self)

    async def unfollow(self) -> None:
        if getattr(self, "idle_resync", None):
            self.idle_resync.discard(self)
        if getattr(self, "tail", None):
            self.tail.release()
            self.tail = None
        if getattr(self, "group", None):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def send_events(self, events: list[dict]) -> None:
        raise NotImplementedError

    async def send_shown(self, tail: GameTail, keys: list[tuple[int, int | None]]) -> None:
        """Send the tail's events ``keys`` name; a reader that frames them itself overrides this to share frames."""
        await self.send_events([tail.shown[key] for key in keys])

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
        await self.catch_up(until=None)

    async def catch_up(self, until: int | None = 0):
        """Send the events after the reader's version, from the game's shared tail once it holds ``until`` (None:
        whatever the store has now). A reader too far behind for the tail catches up alone first."""
        tail = self.tail
        if tail is None:
            return
        async with self.sending:
            if until is None or until > tail.version:
                await tail.advance(until)
            keys = tail.shown_after(self.version, self.user.id)
            if keys is None:
                shown = await self.replay_alone(self.version)
                if shown:
                    await self.send_events(shown)
                    self.version = shown[-1]["version"]
                keys = tail.shown_after(self.version, self.user.id) or []
            if keys:
                await self.send_shown(tail, keys)
                self.version = keys[-1][0]

    @database_sync_to_async
    def replay_alone(self, after: int) -> list[dict]:
        """The events after ``after`` as this reader's user sees them, read and folded for this reader alone."""
        state = services.state_at(self.stream_id, after) if after else None
        events = store.read(self.stream_id, after=after)
        _, shown = services.fold_and_view(state, events, lambda s: engine.seat_of(s, self.user.id))
        return shown


def websocket_frame(event: dict) -> str:
    return json.dumps({"type": "event", "event": event})


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

    async def send_shown(self, tail: GameTail, keys) -> None:
        for key in keys:  # one encoding of each event per viewer, shared by the process's sockets
            await self.send(text_data=tail.frame("websocket", key, websocket_frame))

    @database_sync_to_async
    def find_stream(self, user) -> tuple[str | None, bool]:
        """The game's stream, and whether ``user`` may watch it (`options.spectators`)."""
        game = Game.objects.filter(pk=self.game_id).first()
        return (game.stream_id, services.may_watch(game, user)) if game else (None, False)
