"""The community side's JSON shapes (api.md, "Watching decks")."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from decks.api.serializers import DeckSummarySerializer


@extend_schema_serializer(component_name="WatchedDeck")
class WatchedDeckSerializer(DeckSummarySerializer):
    """A watched deck: its summary, as `GET /decks/` gives it, and when you began watching it."""

    watched_at = serializers.DateTimeField(read_only=True, help_text="When you began watching it.")

    class Meta(DeckSummarySerializer.Meta):
        fields = [*DeckSummarySerializer.Meta.fields, "watched_at"]


def watched_deck(watch) -> dict:
    """A `Watch` row (annotated with `card_count`, as `community.selectors.watchlist` gives it) as JSON."""
    deck = watch.deck
    deck.card_count, deck.watched_at = watch.card_count, watch.created_at
    return WatchedDeckSerializer(deck).data
