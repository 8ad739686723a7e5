"""The HTTP streams, served live by the ASGI server: ``GET /api/v1/games/{game_id}/stream/`` follows a game as its
websocket does, ``GET /api/v1/account/stream/`` follows the signed-in user's feed (docs/api.md, "Streams").

``streams_before(app)`` sends those two GETs to a consumer of their own and everything else on to ``app``. Each
consumer first hands the request to Django, in a thread (``Opening``): the views of dvorak_site/api/streams.py
decide, with the API's own authentication, throttles, checks and error answers, whether the stream may open. A
refusal is sent as Django made it and ends the request. A stream that opens sends Django's status and headers (its
middleware's among them), then its lines, each as soon as it is known, for as long as the client stays:

- a game's stream is a ``GameFollower``, as the websocket is (games/consumers.py): it follows the game through the
  process's hub, is sent every event after ``after`` from the store, then the new ones on each notice, on the idle
  resync, and after a Redis outage when the channel layer has put the hub back in its groups
  (``channel_layer.rejoined``), each redacted for the reader; so it survives an outage as the sockets do, with no
  gap;
- the account feed joins the user's group (``dvorak_kit.feed``), sends what is true now (``games.feed.lines_now``),
  then each line sent to the group; after a Redis outage, what is true now again.

Both send a keep-alive after ``STREAM_KEEPALIVE_SECONDS`` without a line.
"""

from __future__ import annotations

import asyncio
import logging
import re
from io import BytesIO

from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.http import AsyncHttpConsumer
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.core.handlers.base import BaseHandler

from dvorak_kit import metrics
from dvorak_kit.feed import group_of
from dvorak_site.api.streams import LIVE, Plan, events_framed, keep_alive, lines_framed
from games import feed
from games.consumers import GameFollower

logger = logging.getLogger("dvorak.live")

GAME_STREAM = re.compile(r"/api/v1/games/[^/]+/stream/")
ACCOUNT_STREAM = "/api/v1/account/stream/"


class Opening:
    """Django's request handling for a stream's opening, as for any request (URL resolution, every middleware, the
    view), but with the response object handed back whole: a view that lets the stream open puts its ``Plan`` on it."""

    def __init__(self):
        self.handler: BaseHandler | None = None

    def answer(self, scope) -> tuple[int, list[tuple[bytes, bytes]], bytes, Plan | None]:
        """The status, headers and body Django answers, and the plan when the stream opens (its body then empty)."""
        if self.handler is None:
            handler = BaseHandler()
            handler.load_middleware(is_async=False)
            self.handler = handler
        request = ASGIRequest(scope, BytesIO())
        request.META[LIVE] = True
        response = self.handler.get_response(request)
        try:
            plan = getattr(response, "stream", None)
            if plan is not None:
                body = b""
            elif response.streaming:
                body = b"".join(response.streaming_content)
            else:
                body = response.content
            return response.status_code, headers_of(response), body, plan
        finally:
            response.close()


def headers_of(response) -> list[tuple[bytes, bytes]]:
    """The response's headers and cookies, as Django's ASGI handler sends them."""
    headers = [(name.encode("ascii"), value.encode("latin1")) for name, value in response.items()]
    headers += [(b"Set-Cookie", cookie.output(header="").encode("ascii").strip())
                for cookie in response.cookies.values()]
    return headers


OPENING = Opening()


class StreamConsumer(AsyncHttpConsumer):
    """One stream: opened through Django; then, unlike an ordinary HTTP consumer, left open after ``handle``, its
    group's messages handled as they come, until the client goes away (``http.disconnect``)."""

    streaming = False
    closed = False  # counted out of ``dvorak_open_streams`` (once, however often ``disconnect`` runs)
    keeping: asyncio.Task | None = None
    kind = "game"  # its label in ``dvorak_open_streams``

    async def http_request(self, message):
        if "body" in message:
            self.body.append(message["body"])
        if message.get("more_body"):
            return
        try:
            await self.handle(b"".join(self.body))
        finally:
            if not self.streaming:
                await self.disconnect()
        if not self.streaming:
            raise StopConsumer()

    async def handle(self, body):
        status, headers, content, plan = await database_sync_to_async(OPENING.answer)(self.scope)
        if plan is None:
            await self.send_response(status, content, headers=headers)
            return
        self.framing = plan.framing
        self.streaming = True
        metrics.stream_opened(self.kind)
        await self.send_headers(status=status, headers=headers)
        await self.write(b"")  # the status and headers leave now, though no line may come for a while
        try:
            await self.begin(plan)
        except BaseException:
            await self.disconnect()
            raise
        self.keeping = asyncio.create_task(self.keep_alive())

    async def begin(self, plan: Plan) -> None:
        raise NotImplementedError

    async def end(self) -> None:
        """Leave what ``begin`` joined."""

    async def disconnect(self):
        if self.keeping is not None:
            self.keeping.cancel()
        if self.streaming:
            if not self.closed:
                self.closed = True
                metrics.stream_closed(self.kind)
            await self.end()

    async def write(self, data: bytes) -> None:
        self.last_sent = asyncio.get_running_loop().time()
        await self.send_body(data, more_body=True)

    async def keep_alive(self) -> None:
        """A keep-alive after ``STREAM_KEEPALIVE_SECONDS`` without a line; and ``renew`` at each."""
        loop = asyncio.get_running_loop()
        interval = max(settings.STREAM_KEEPALIVE_SECONDS, 0.05)
        while True:
            await asyncio.sleep(max(0.0, self.last_sent + interval - loop.time()))
            if loop.time() - self.last_sent < interval:
                continue
            await self.write(keep_alive(self.framing))
            await self.renew()

    async def renew(self) -> None:
        """What a stream open for days must renew now and then."""


class GameStreamConsumer(GameFollower, StreamConsumer):
    async def begin(self, plan: Plan) -> None:
        self.user, self.game_id, self.stream_id = plan.user, plan.game_id, plan.stream_id
        await self.follow(plan.after)

    async def end(self) -> None:
        await self.unfollow()

    async def send_events(self, events: list[dict]) -> None:
        await self.write(events_framed(self.framing, events))

    async def send_shown(self, tail, keys) -> None:
        # Each event framed once per framing and viewer in the process (games/consumers.py, GameTail).
        framing = self.framing
        await self.write(b"".join(tail.frame(framing, key, lambda event: events_framed(framing, [event]))
                                  for key in keys))


class AccountStreamConsumer(StreamConsumer):
    kind = "account"

    async def begin(self, plan: Plan) -> None:
        self.user = plan.user
        self.group = group_of(self.user.pk)
        # Joined before what is true now is read, so that nothing in between is missed (a line may come twice).
        await self.channel_layer.group_add(self.group, self.channel_name)
        self.joined_at = asyncio.get_running_loop().time()
        await self.send_now()

    async def renew(self) -> None:
        # The group membership, before it expires in Redis (a game's streams are the process's hub's to renew).
        loop = asyncio.get_running_loop()
        if loop.time() - self.joined_at > getattr(self.channel_layer, "group_expiry", 86400) / 2:
            await self.channel_layer.group_add(self.group, self.channel_name)
            self.joined_at = loop.time()

    async def end(self) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def send_now(self) -> None:
        lines = await database_sync_to_async(feed.lines_now)(self.user)
        if lines:
            await self.write(lines_framed(self.framing, lines))

    async def feed_line(self, message):
        await self.write(lines_framed(self.framing, [message["line"]]))

    async def channel_layer_rejoined(self, message):
        # Redis was away: lines sent meanwhile are lost, so what is true now, again.
        await self.send_now()


def streams_before(app):
    """ASGI: the two streams' GETs to their consumers, every other request to ``app``."""
    game_stream, account_stream = GameStreamConsumer.as_asgi(), AccountStreamConsumer.as_asgi()

    async def application(scope, receive, send):
        if scope["type"] == "http" and scope["method"] == "GET":
            path = scope["path"].removeprefix(scope.get("root_path", ""))
            if path == ACCOUNT_STREAM:
                return await account_stream(scope, receive, send)
            if GAME_STREAM.fullmatch(path):
                return await game_stream(scope, receive, send)
        return await app(scope, receive, send)

    return application
