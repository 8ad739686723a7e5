"""Live updates: a websocket per viewer, catching up from the store, then following the game's group.

The group message only says that the game has moved on; each socket reads the new events from the store and
redacts them for its own viewer, so nothing secret travels to a socket, and a missed group message (they are
at-most-once) is made good by the next one: the store is the truth. While Redis is away the socket stays open
and quiet; when it answers again the channel layer puts the socket back in its group and says so
(``channel_layer.rejoined``), and the socket sends every event it missed, in order.
"""

import asyncio
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from dvorak_site.eventstore import store
from games import engine, services
from games.models import Game

CLOSE_NOT_AUTHENTICATED = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_INVALID = 4400


class GameConsumer(AsyncJsonWebsocketConsumer):
    async def connect(self):
        # Accept first, so that the close code tells the client why (a refused handshake carries no code).
        await self.accept()
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_NOT_AUTHENTICATED)
            return
        query = parse_qs(self.scope.get("query_string", b"").decode())
        try:
            after = int(query.get("after", ["0"])[0])
        except ValueError:
            after = -1
        if after < 0:
            await self.close(code=CLOSE_INVALID)
            return
        self.game_id = self.scope["url_route"]["kwargs"]["game_id"]
        self.stream_id, may_watch = await self.find_stream(user)
        if self.stream_id is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        if not may_watch:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.user = user
        self.sending = asyncio.Lock()
        self.group = services.group_name(self.game_id)
        # Join the group before catching up, so nothing that happens in between is missed.
        await self.channel_layer.group_add(self.group, self.channel_name)
        self.version, self.state = await self.state_after(after)
        await self.catch_up()

    async def disconnect(self, code):
        if getattr(self, "group", None):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content, **kwargs):
        # Commands go through the REST API (with Idempotency-Key and If-Match); a socket only listens.
        await self.send_json({"type": "error", "error": {"code": "invalid",
                              "message": "Send commands to POST /api/v1/games/{id}/commands/."}})

    async def game_advanced(self, message):
        if message.get("version", 0) > self.version:
            await self.catch_up()

    async def channel_layer_rejoined(self, message):
        await self.catch_up()

    async def catch_up(self):
        async with self.sending:
            shown, self.version, self.state = await self.read_new_events(self.version, self.state)
            for event in shown:
                await self.send_json({"type": "event", "event": event})

    @database_sync_to_async
    def find_stream(self, user) -> tuple[str | None, bool]:
        """The game's stream, and whether ``user`` may watch it (`options.spectators`)."""
        game = Game.objects.filter(pk=self.game_id).first()
        return (game.stream_id, services.may_watch(game, user)) if game else (None, False)

    @database_sync_to_async
    def state_after(self, after: int):
        current = store.current_version(self.stream_id)
        after = min(after, current)
        return after, services.state_at(self.stream_id, after) if after else None

    @database_sync_to_async
    def read_new_events(self, version: int, state):
        events = store.read(self.stream_id, after=version)
        state, shown = services.fold_and_view(state, events, lambda s: engine.seat_of(s, self.user.id))
        return shown, (events[-1].version if events else version), state
