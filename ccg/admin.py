"""The admin's CCG pages: versions to read (with their changelogs), player decks and their entries, notices."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from ccg.models import CardSetPlayer, CardSetVersion, Notification, PlayerDeck, PlayerDeckEntry
from ccg.selectors import player_deck_view
from decks.admin import ReadOnlyAdmin


@admin.register(CardSetVersion)
class CardSetVersionAdmin(ReadOnlyAdmin):
    """Versions are history: built only by the version task, never edited here."""

    list_display = ["card_set", "number", "created_at", "changes"]
    list_filter = ["card_set"]
    fields = ["card_set", "number", "created_at", "changelog_lines", "content"]
    readonly_fields = fields

    @admin.display(description="Changelog")
    def changelog_lines(self, version: CardSetVersion) -> str:
        return "\n".join(version.changelog)

    @admin.display(description="Changes")
    def changes(self, version: CardSetVersion) -> int:
        return len(version.changelog)


class PlayerDeckEntryInline(admin.TabularInline):
    model = PlayerDeckEntry
    extra = 0
    fields = ["card_id", "count"]
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(PlayerDeck)
class PlayerDeckAdmin(ReadOnlyAdmin):
    """Player decks are their owners' to tune (through the API); curators read them here."""

    list_display = ["name", "owner", "card_set", "version", "size", "valid", "in_game"]
    list_filter = ["card_set"]
    search_fields = ["name", "owner__username"]
    fields = ["name", "owner", "card_set", "version", "games_in_play", "problems"]
    readonly_fields = fields
    inlines = [PlayerDeckEntryInline]

    @admin.display(description="Cards")
    def size(self, deck: PlayerDeck) -> int:
        return player_deck_view(deck)["size"]

    @admin.display(boolean=True)
    def valid(self, deck: PlayerDeck) -> bool:
        return player_deck_view(deck)["valid"]

    @admin.display(boolean=True, description="In a game")
    def in_game(self, deck: PlayerDeck) -> bool:
        return bool(deck.games_in_play)

    @admin.display(description="Problems")
    def problems(self, deck: PlayerDeck) -> str:
        return "\n".join(player_deck_view(deck)["problems"]) or "None: it may be played."


@admin.register(CardSetPlayer)
class CardSetPlayerAdmin(ReadOnlyAdmin):
    list_display = ["user", "card_set", "registered_at"]
    list_filter = ["card_set"]


@admin.register(Notification)
class NotificationAdmin(ReadOnlyAdmin):
    list_display = ["subject", "user", "created_at", "read_at"]
    search_fields = ["subject", "user__username"]
