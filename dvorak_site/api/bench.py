"""The floor any Django write pays: an authenticated DRF request that does one INSERT (bench/commands.py).

Mounted only when DVORAK_BENCH_ENDPOINTS is on; the benchmark creates the table it writes to.
"""

import json

from django.db import connection
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView


class BareInsertView(APIView):
    @extend_schema(exclude=True)
    def post(self, request):
        with connection.cursor() as cursor:
            cursor.execute(
                "INSERT INTO bench_bare_insert (actor, data, recorded_at) VALUES (%s, %s, now()) RETURNING id",
                [request.user.get_username(), json.dumps(request.data)],
            )
            (row_id,) = cursor.fetchone()
        return Response({"id": row_id}, status=status.HTTP_201_CREATED)


def deck_draw(request, deck_id: int):
    """The Deck-of-Cards stand-in: a plain Django view that reads a deck row, pops a card from its JSON list and
    saves it (a fresh deck of 52 when it runs out). No DRF, no authentication, no event store."""
    from django.db import transaction
    from django.http import JsonResponse

    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT cards FROM bench_deck WHERE id = %s FOR UPDATE", [deck_id])
        row = cursor.fetchone()
        cards = (row[0] if row and isinstance(row[0], list) else json.loads(row[0] if row else "[]")) or list(range(52))
        card = cards.pop()
        cursor.execute("UPDATE bench_deck SET cards = %s WHERE id = %s", [json.dumps(cards), deck_id])
    return JsonResponse({"card": card, "remaining": len(cards)}, status=201)


def deck_cards(request, slug: str):
    """The archive pages' floor (bench/archive.py): a plain Django view that reads a deck's cards by its slug in one
    indexed query and answers them as JSON. No template, no ORM objects, no authentication."""
    from django.http import JsonResponse

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT card.title, card.type, card.text, card.copies FROM decks_card AS card "
            "JOIN decks_deck AS deck ON deck.id = card.deck_id WHERE deck.slug = %s ORDER BY card.position, card.id",
            [slug],
        )
        cards = [{"title": title, "type": type_, "text": text, "copies": copies}
                 for title, type_, text, copies in cursor.fetchall()]
    return JsonResponse({"slug": slug, "cards": cards})


# The floor of a live update (bench/fanout.py): a socket in a Channels group that relays each group message as it
# comes, over the same servers and channel layer as the game sockets, with no store read and no redaction.
from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402


class BroadcastConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.group = f"bench-{self.scope['url_route']['kwargs']['group']}"
        await self.accept()
        await self.channel_layer.group_add(self.group, self.channel_name)

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def bench_broadcast(self, message):
        await self.send(text_data=message["text"])
