"""The admin's community pages: designer claims, which curators confirm or reject (actions), and watches to read."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from community import services
from community.models import DesignerClaim, Watch
from decks.admin import ReadOnlyAdmin
from decks.services import is_curator
from dvorak_core.errors import DomainError


@admin.register(DesignerClaim)
class DesignerClaimAdmin(ReadOnlyAdmin):
    """Claims that an account is a designer the decks name. A curator confirms one (the designer page then links
    the account's page) or rejects it, with the actions of the list; nothing else about a claim is edited."""

    list_display = ["name", "user", "status", "created_at", "decided_by", "decided_at", "pages"]
    list_filter = ["status"]
    search_fields = ["name", "user__username"]
    fields = ["name", "user", "status", "created_at", "decided_by", "decided_at", "pages"]
    readonly_fields = fields
    actions = ["confirm_claims", "reject_claims"]

    def has_curate_permission(self, request: HttpRequest) -> bool:
        return is_curator(request.user)

    @admin.display(description="Pages")
    def pages(self, claim: DesignerClaim) -> str:
        return format_html('<a href="{}">designer</a> · <a href="{}">user</a>',
                           reverse("web:designer", args=[claim.name]),
                           reverse("web:user", args=[claim.user.get_username()]))

    @admin.action(description="Confirm the selected claims", permissions=["curate"])
    def confirm_claims(self, request: HttpRequest, queryset) -> None:
        self._decide(request, queryset, services.designer_claim_confirm, "Confirmed")

    @admin.action(description="Reject the selected claims", permissions=["curate"])
    def reject_claims(self, request: HttpRequest, queryset) -> None:
        self._decide(request, queryset, services.designer_claim_reject, "Rejected")

    def _decide(self, request: HttpRequest, queryset, decide: Any, done: str) -> None:
        for claim_id, name, username in queryset.values_list("pk", "name", "user__username"):
            try:
                decide(claim_id=claim_id, actor=request.user)
            except DomainError as error:
                self.message_user(request, f"{name} ({username}): {error.message}", messages.ERROR)
            else:
                self.message_user(request, f"{done}: {username} as {name}.", messages.SUCCESS)


@admin.register(Watch)
class WatchAdmin(ReadOnlyAdmin):
    list_display = ["user", "deck", "created_at"]
    search_fields = ["user__username", "deck__title", "deck__slug"]
    list_select_related = ["user", "deck"]
