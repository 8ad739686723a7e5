"""Who follows which deck, and which account is which designer."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from decks.models import Deck


class Watch(models.Model):
    """A user follows a deck or card set: each change to it someone else makes is a notice to them."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="watches")
    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="watches")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["user", "deck"], name="community_watch_once")]
        indexes = [models.Index(fields=["deck", "user"], name="community_watch_deck")]

    def __str__(self) -> str:
        return f"{self.user} watches {self.deck.slug}"


class DesignerClaim(models.Model):
    """An account says it is the designer the decks name `name` (as the decks write it); a curator confirms or
    rejects the claim. A name has at most one confirmed claim, and an account one open claim on a name."""

    PENDING, CONFIRMED, REJECTED = "pending", "confirmed", "rejected"
    STATUS_CHOICES = [(PENDING, "waiting for a curator"), (CONFIRMED, "confirmed"), (REJECTED, "rejected")]

    name = models.CharField(max_length=100)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="designer_claims")
    status = models.CharField(max_length=10, choices=STATUS_CHOICES, default=PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["name"], condition=models.Q(status="confirmed"),
                                    name="community_claim_one_confirmed"),
            models.UniqueConstraint(fields=["name", "user"], condition=models.Q(status="pending"),
                                    name="community_claim_one_pending"),
        ]

    def __str__(self) -> str:
        return f"{self.user} as {self.name} ({self.status})"
