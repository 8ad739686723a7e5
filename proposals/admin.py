"""Proposed changes to card sets, for reading: they are decided by the players' answers, not here."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from decks.admin import ReadOnlyAdmin
from proposals.models import CardSetChange, CardSetChangeVote


class CardSetChangeVoteInline(admin.TabularInline):
    model = CardSetChangeVote
    extra = 0
    fields = ["user", "approve", "voted_at"]
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(CardSetChange)
class CardSetChangeAdmin(ReadOnlyAdmin):
    list_display = ["id", "card_set", "kind", "card_id", "author", "status", "deadline", "version"]
    list_filter = ["status", "kind", "card_set"]
    readonly_fields = ["card_set", "author", "kind", "card_id", "content", "status", "created_at", "deadline",
                       "decided_at", "version"]
    inlines = [CardSetChangeVoteInline]
