"""The admin's CCG pages: card sets with what they lack, versions to read (with their changelogs), player decks
and their entries, notices."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from ccg.models import CardSet, CardSetPlayer, CardSetVersion, Notification, PlayerDeck, PlayerDeckEntry
from ccg.selectors import card_set_problems, player_deck_view, version_latest
from decks.admin import ReadOnlyAdmin

NO_PROBLEMS = "None."


def problem_lines(content: dict[str, Any]) -> str:
    return "\n".join(problem["message"] for problem in card_set_problems(content)) or NO_PROBLEMS


@admin.register(CardSet)
class CardSetAdmin(ReadOnlyAdmin):
    """The card sets as the CCG side sees them: their latest version and what it lacks (a set with problems is
    still played). Their cards are changed by versions, or on the archive's own deck page."""

    list_display = ["title", "slug", "latest_version", "cards", "players", "player_decks", "problems"]
    search_fields = ["title", "slug"]
    fields = ["title", "slug", "archive_page", "latest_version", "cards", "players", "player_decks", "problems"]
    readonly_fields = fields

    def _latest(self, card_set: CardSet) -> CardSetVersion | None:
        return version_latest(card_set=card_set)

    @admin.display(description="Version")
    def latest_version(self, card_set: CardSet) -> str:
        latest = self._latest(card_set)
        return str(latest.number) if latest else "None yet"

    @admin.display(description="Cards")
    def cards(self, card_set: CardSet) -> int:
        latest = self._latest(card_set)
        return len(latest.content["cards"]) if latest else card_set.cards.count()

    @admin.display(description="Players")
    def players(self, card_set: CardSet) -> int:
        return card_set.registered_players.count()

    @admin.display(description="Player decks")
    def player_decks(self, card_set: CardSet) -> int:
        return card_set.player_decks.count()

    @admin.display(description="Problems")
    def problems(self, card_set: CardSet) -> str:
        latest = self._latest(card_set)
        # A set no one has versioned yet: its version 1 will be the archive's deck as it is now.
        if latest is None:
            return problem_lines({"cards": list(card_set.cards.all())})
        return problem_lines(latest.content)

    @admin.display(description="Archive page")
    def archive_page(self, card_set: CardSet) -> str:
        return format_html('<a href="{}">{}</a>', reverse("admin:decks_deck_change", args=[card_set.pk]),
                           card_set.title)


@admin.register(CardSetVersion)
class CardSetVersionAdmin(ReadOnlyAdmin):
    """Versions are history: built only by the version task, never edited here."""

    list_display = ["card_set", "number", "created_at", "changes", "problems"]
    list_filter = ["card_set"]
    fields = ["card_set", "number", "created_at", "changelog_lines", "problems", "content"]
    readonly_fields = fields

    @admin.display(description="Changelog")
    def changelog_lines(self, version: CardSetVersion) -> str:
        return "\n".join(version.changelog)

    @admin.display(description="Changes")
    def changes(self, version: CardSetVersion) -> int:
        return len(version.changelog)

    @admin.display(description="Problems")
    def problems(self, version: CardSetVersion) -> str:
        return problem_lines(version.content)


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
