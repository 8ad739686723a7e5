"""Watching decks: thin views over `community.services` and `community.selectors`."""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from community import selectors, services
from community.api.serializers import WatchedDeckSerializer, watched_deck
from dvorak_kit.api.pagination import Keyset
from dvorak_kit.api.params import takes_no_body
from dvorak_kit.api.responses import created

TAGS = ["community"]


class DeckWatchView(APIView):
    """`/decks/{slug}/watch/`: your watch of one deck or card set."""

    @extend_schema(tags=TAGS, responses={200: WatchedDeckSerializer},
                   description="The deck, if you watch it, with when you began to; 404 `not_found` if you do not "
                               "(or there is no such deck).")
    def get(self, request, slug: str):
        return Response(watched_deck(selectors.watch_get(user=request.user, slug=slug)))

    @extend_schema(tags=TAGS, request=None, responses={
        201: OpenApiResponse(WatchedDeckSerializer, description="You now watch it (`Location`: this address)."),
        200: OpenApiResponse(WatchedDeckSerializer, description="You watched it already; nothing changed."),
    }, description="Watch the deck (or card set): from now on each change to it that someone else makes (a "
                   "revision, a lock or unlock, a talk post or reply) is a notice to you (`GET /notifications/`, "
                   "and by email if your account has an address).")
    @takes_no_body
    def post(self, request, slug: str):
        _, made = services.watch_add(user=request.user, slug=slug)
        body = watched_deck(selectors.watch_get(user=request.user, slug=slug))
        if made:
            return created(request, body, reverse("deck-watch", args=[slug]))
        return Response(body)

    @extend_schema(tags=TAGS, request=None, responses={204: None},
                   description="Stop watching the deck; 204 whether or not you watched it.")
    @takes_no_body
    def delete(self, request, slug: str):
        services.watch_remove(user=request.user, slug=slug)
        return Response(status=status.HTTP_204_NO_CONTENT)


class WatchlistView(APIView):
    pagination_class = Keyset.by("-id", key="watch id; the latest first, so the next ones were watched earlier")

    @extend_schema(tags=TAGS, responses=WatchedDeckSerializer(many=True),
                   description="The decks and card sets you watch, the most recently watched first.")
    def get(self, request):
        paginator = self.pagination_class()
        watches = paginator.paginate_queryset(selectors.watchlist(user=request.user), request)
        return paginator.get_paginated_response([watched_deck(watch) for watch in watches])
