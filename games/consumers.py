"""Live updates: a websocket per viewer, catching up from the store, then following the game. The HTTP streams of a
game (dvorak_site/streams.py) follow it the same way, with the same code (``GameFollower``).

A process follows each game once, whatever number of its readers follow it: its ``LiveHub`` has one channel on the
channel layer, in the group of every game followed in the process, and the game's ``GameTail`` reads, folds and
redacts each new event once for them all. A reader (a socket, a stream) keeps only its version; it has no channel
of its own, no group membership and no task waiting on the layer.

The group message only says that the game has moved on; the tail reads the new events from the store and each
reader is sent them as its own viewer sees them, so nothing secret travels to a process, and a missed group message
(they are at-most-once) is made good by the next one: the store is the truth. While Redis is away the readers stay
open and quiet; when it answers again the channel layer puts the hub's channel back in its groups and says so
(``channel_layer.rejoined``), and every reader is sent every event it missed, in order.

Resync by version: a notice says which version the game moved from (``after``) and to (``version``). A notice whose
``after`` is beyond the tail's version means an earlier notice was lost (channels-redis drops group messages to a
channel over its capacity), and the read from the store sends the missed events first. A lost notice with no later
one is made good by the idle pass: every ``LIVE_RESYNC_SECONDS`` the hub reads, in one query, the versions of the
games it has heard nothing of for that long, and the tails that are behind catch up. Either way the client sees
versions 1, 2, 3… without a gap.
"""

import asyncio
import json
import logging
import weakref
from typing import Any
from urllib.parse import parse_qs

import structlog
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.layers import get_channel_layer
from django.conf import settings

import dvorak_engine as engine
from dvorak_kit import collector, metrics
from dvorak_kit.channel_layer import REJOINED
from dvorak_kit.db_threads import on_db_thread
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
    """One per event loop (a server process) and game followed there: the game's version as far as the process has
    read it, its state there while the game is being played, and its last ``KEEP`` events with the states before and
    after each. Every reader of the game in the process (websockets, streams) shares one read of the store and one
    fold per new event, and each event is shown once per viewer (a seat, or the spectators), not once per reader: a
    thousand sockets of one seat cost one redaction. A reader keeps only its version; no reader holds a copy of the
    game's state.

    A new tail reads the game's version only; its state is read (a snapshot and a few events) when there is an event
    to fold onto it. A tail whose game has not moved for ``LIVE_TAIL_IDLE_SECONDS`` lets its state go again (the
    hub's idle pass sees to it), keeping its version. So a process following thousands of games keeps the states of
    those being played, not of every game a socket is open on.

    A reader further behind than ``KEEP`` events (one opened with an old ``after``) catches up on its own once,
    from the store, then follows the tail like the others."""

    KEEP = 32

    def __init__(self, stream_id: str, group: str):
        self.stream_id = stream_id
        self.group = group
        self.version = -1  # nothing read yet
        self.state = None
        self.steps: dict[int, tuple[Any, Any, Any]] = {}  # version: (recorded event, state before, state after)
        self.shown: dict[tuple[int, int | None], dict] = {}  # (version, viewer): the event as that viewer sees it
        self.encoded: dict[tuple[str, int, int | None], Any] = {}  # (encoding, version, viewer): its frame
        self.lock = asyncio.Lock()
        self.readers: set[GameFollower] = set()
        self.cold = True  # no state held: read it (at ``version``) before folding
        self.moved_at = self.heard_at = asyncio.get_running_loop().time()  # its last read; its last notice or check

    async def advance(self, until: int | None = None) -> None:
        """Read and fold what the store has after the tail's version: once, or (``until``) until that version at
        least, a few reads at most (a read may begin before the commit of the version a notice names). A new tail
        learns its game's version, and reads no state unless ``until`` is beyond it."""
        async with self.lock:
            loop = asyncio.get_running_loop()
            if self.version < 0:
                self.version = await on_db_thread(store.current_version, self.stream_id)
                self.moved_at = loop.time()
            for _ in range(3):
                if until is not None and self.version >= until:
                    break
                if self.cold:
                    self.state = await on_db_thread(self._load, self.version)
                    self.cold = False
                steps = await on_db_thread(self._read_and_fold, self.version, self.state)
                for step in steps:
                    self.steps[step[0].version] = step
                if steps:
                    self.version, self.state = steps[-1][0].version, steps[-1][2]
                    self._forget_before(self.version - self.KEEP)
                    self.moved_at = loop.time()
                if until is None:
                    break

    async def deliver(self, until: int | None = None) -> None:
        """Advance (``until``, as ``advance``), then send each reader what it has not had, each as its own viewer
        sees it; a reader whose socket fails meanwhile is left to its own disconnect."""
        if until is None or until > self.version:
            await self.advance(until)
        behind = [reader for reader in self.readers if reader.version < self.version]
        if behind:
            await asyncio.gather(*(reader.catch_up() for reader in behind), return_exceptions=True)

    def _load(self, version: int):
        """The state at ``version`` (None before the first event)."""
        return services.state_at(self.stream_id, version) if version else None

    def cool(self) -> None:
        """Let the state go (keeping the version), if the tail is not being read just now."""
        if not self.cold and not self.lock.locked():
            self.state, self.cold = None, True
            self.steps.clear()
            self.shown.clear()
            self.encoded.clear()

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


class LiveHub:
    """One per event loop (a server process): its one channel on the channel layer, in the group of each game a
    reader of the process follows, and the ``GameTail`` of each such game. A notice to a game's group reaches the
    process once and its tail once, which brings each of the game's readers up to date.

    Every ``LIVE_RESYNC_SECONDS`` its idle pass reads, in one query, the versions of the games it has heard nothing
    of for that long, and the tails that are behind catch up (a lost notice with no later one); it renews the
    channel's group memberships before they expire in Redis, and lets the states of games that have not moved for
    ``LIVE_TAIL_IDLE_SECONDS`` go. As readers open, what they keep is frozen out of the garbage collector's full
    walks, a few dozen readers at a time (dvorak_kit/collector.py). Its tasks run while the process follows a game, and stop with the last."""

    _by_loop: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def __init__(self):
        self.layer = get_channel_layer()
        self.channel: str | None = None
        self.tails: dict[str, GameTail] = {}  # by stream id
        self.by_group: dict[str, GameTail] = {}
        self.joined_at: dict[str, float] = {}  # group: when the channel last joined it
        self.tasks: list[asyncio.Task] = []
        self.pending: set[asyncio.Task] = set()  # the notices being delivered
        self.opened = 0  # readers followed since the collector last froze (dvorak_kit/collector.py)

    @classmethod
    def of_this_loop(cls) -> "LiveHub":
        loop = asyncio.get_running_loop()
        hub = cls._by_loop.get(loop)
        if hub is None:
            hub = cls._by_loop[loop] = cls()
        return hub

    @classmethod
    def tails_of_this_loop(cls) -> dict[str, GameTail]:
        hub = cls._by_loop.get(asyncio.get_running_loop())
        return hub.tails if hub is not None else {}

    async def follow(self, reader: "GameFollower", after: int) -> GameTail:
        """``reader``'s game's tail, the channel in its group (joined before the tail reads, so that nothing that
        happens in between is missed), the tail read as far as ``after`` at least, and ``reader`` among its
        readers at ``after`` (or at the tail's version, when ``after`` is beyond it). A new tail reads the game's
        version after the channel has joined, so that a command committed while the reader opened is not missed."""
        tail = self.tails.get(reader.stream_id)
        if tail is None:
            tail = self.tails[reader.stream_id] = GameTail(reader.stream_id, services.group_name(reader.game_id))
            self.by_group[tail.group] = tail
        tail.readers.add(reader)
        self.opened += 1
        if self.opened >= collector.FREEZE_AFTER_READERS and collector.settle_live(self.opened):
            self.opened = 0  # what the readers opened so far keep is out of the full collections' walk
        try:
            if self.layer is not None and tail.group not in self.joined_at:
                if self.channel is None:
                    self.channel = await self.layer.new_channel()
                self.joined_at[tail.group] = asyncio.get_running_loop().time()
                await self.layer.group_add(tail.group, self.channel)
            if not self.tasks:
                self.tasks = [asyncio.create_task(self.receive()), asyncio.create_task(self.idle_pass())]
            await tail.advance(until=max(after, 0))
            reader.version = max(0, min(after, tail.version))
        except BaseException:
            await self.unfollow(reader, tail)
            raise
        return tail

    async def unfollow(self, reader: "GameFollower", tail: GameTail) -> None:
        """``reader`` gone from its tail; the tail gone with its last reader, and the channel out of its group."""
        tail.readers.discard(reader)
        if tail.readers or self.tails.get(tail.stream_id) is not tail:
            return
        del self.tails[tail.stream_id]
        del self.by_group[tail.group]
        if self.joined_at.pop(tail.group, None) is not None and self.channel is not None:
            await self.layer.group_discard(tail.group, self.channel)
        if not self.tails:
            for task in self.tasks:
                task.cancel()
            self.tasks = []

    def _spawn(self, work) -> None:
        task = asyncio.create_task(work)
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)

    async def receive(self) -> None:
        while True:
            try:
                message = await self.layer.receive(self.channel)
            except Exception:  # the layer's own outages are handled inside it; anything else must not end the loop
                logger.exception("The live hub's receive failed; it goes on (the idle pass makes good what it missed)")
                await asyncio.sleep(1)
                continue
            kind = message.get("type")
            if kind == "game.advanced":
                tail = self.by_group.get(message.get("group"))
                if tail is not None:
                    tail.heard_at = asyncio.get_running_loop().time()
                    self._spawn(self.advanced(tail, message))
            elif kind == REJOINED:  # Redis was away: whatever the store has now, for every game
                for tail in list(self.tails.values()):
                    self._spawn(tail.deliver(until=None))

    @staticmethod
    async def advanced(tail: GameTail, message: dict) -> None:
        if message.get("after", 0) > tail.version:
            # The notice of an earlier move never came (dropped by the layer): the read sends it first.
            logger.info("live resync: the readers of %s at version %s got the notice of %s→%s; catching up",
                        tail.group, tail.version, message["after"], message.get("version"))
        await tail.deliver(until=message.get("version", 0))

    async def idle_pass(self) -> None:
        while True:
            interval = settings.LIVE_RESYNC_SECONDS
            await asyncio.sleep(interval)
            try:
                await self.resync_idle(interval)
                await self.renew()
                self.cool_idle(settings.LIVE_TAIL_IDLE_SECONDS)
                if collector.settle_live(self.opened):
                    self.opened = 0
            except Exception:  # the database or Redis away for a moment: try again next time
                logger.exception("The idle pass of live readers failed")

    async def resync_idle(self, interval: float) -> None:
        now = asyncio.get_running_loop().time()
        idle = [tail for tail in self.tails.values() if now - tail.heard_at >= interval and tail.version >= 0]
        if not idle:
            return
        versions = await on_db_thread(store.current_versions, [tail.stream_id for tail in idle])
        for tail in idle:
            tail.heard_at = now
        # Only the games with something to send get a task: the thousands that are up to date cost a comparison.
        behind = [tail for tail in idle if versions.get(tail.stream_id, 0) > tail.version]
        for tail in behind:
            logger.info("live resync: the idle readers of %s were at version %s of %s (a notice lost or still on its"
                        " way); catching up", tail.group, tail.version, versions[tail.stream_id])
        await asyncio.gather(*(tail.deliver(until=versions[tail.stream_id]) for tail in behind),
                             return_exceptions=True)

    async def renew(self) -> None:
        """Join again the groups whose membership is half way to expiring in Redis (a game may be followed for
        days)."""
        if self.channel is None:
            return
        now = asyncio.get_running_loop().time()
        renew_after = getattr(self.layer, "group_expiry", 86400) / 2
        for group, joined in list(self.joined_at.items()):
            if now - joined > renew_after:
                self.joined_at[group] = now
                await self.layer.group_add(group, self.channel)

    def cool_idle(self, idle_seconds: float) -> int:
        """Let go of the states of the games that have not moved for ``idle_seconds``; how many were let go."""
        now, cooled = asyncio.get_running_loop().time(), 0
        for tail in list(self.tails.values()):
            if not tail.cold and now - tail.moved_at >= idle_seconds:
                tail.cool()
                cooled += 1
        return cooled


class GameFollower:
    """What a live reader of one game does, whatever carries its events to the client (a websocket here, an HTTP
    stream in dvorak_site/streams.py): follows the game through the process's ``LiveHub`` and is sent, from its
    version on, every event of the game as its own user sees it: when it opens (from its ``after``), then as the
    game's tail reads them. The reading, folding and redacting are the tail's, shared by the process's readers of
    the game: a reader holds its version, not a state, and has no channel of its own (``channel_layer_alias`` None:
    channels makes it none, and no task waits on the layer for it).

    The consumer it is mixed into sets ``user``, ``game_id`` and ``stream_id`` before ``follow``, and sends the
    events in ``send_events`` (and, to share frames between readers, ``send_shown``)."""

    channel_layer_alias = None
    user: Any
    game_id: Any
    stream_id: str
    version = 0
    tail: GameTail | None = None

    async def dispatch(self, message):
        # As channels' own dispatch, without its thread hop to close old database connections before each message:
        # a reader touches the database on the live threads only, which look after their connections.
        handler = getattr(self, message["type"].replace(".", "_"), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def follow(self, after: int) -> None:
        self.sending = asyncio.Lock()
        self.hub = LiveHub.of_this_loop()
        self.tail = await self.hub.follow(self, after)
        await self.catch_up()

    async def unfollow(self) -> None:
        tail, self.tail = self.tail, None
        if tail is not None:
            await self.hub.unfollow(self, tail)

    async def send_events(self, events: list[dict]) -> None:
        raise NotImplementedError

    async def send_shown(self, tail: GameTail, keys: list[tuple[int, int | None]]) -> None:
        """Send the tail's events ``keys`` name; a reader that frames them itself overrides this to share frames."""
        await self.send_events([tail.shown[key] for key in keys])

    async def catch_up(self) -> None:
        """Send the events after the reader's version that the game's shared tail holds. A reader too far behind
        for the tail catches up alone first."""
        tail = self.tail
        if tail is None:
            return
        async with self.sending:
            keys = tail.shown_after(self.version, self.user.id)
            if keys is None:
                shown = await on_db_thread(self.replay_alone, self.version)
                if shown:
                    await self.send_events(shown)
                    self.version = shown[-1]["version"]
                keys = tail.shown_after(self.version, self.user.id) or []
            if keys:
                await self.send_shown(tail, keys)
                self.version = keys[-1][0]

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
        self.stream_id, may_watch = await on_db_thread(find_stream, self.game_id, user)
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


def find_stream(game_id, user) -> tuple[str | None, bool]:
    """The game's stream, and whether ``user`` may watch it (`options.spectators`)."""
    game = Game.objects.filter(pk=game_id).first()
    return (game.stream_id, services.may_watch(game, user)) if game else (None, False)
