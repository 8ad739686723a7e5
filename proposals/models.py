"""Proposed changes to a CCG card set and the registered players' answers to them.

A change passes only if no registered player of the set objects (``dvorak_core.vote_rules.NO_OBJECTION``). Accepted
changes wait, with no version, until the version-building task groups them into the set's next version.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from dvorak_core.vote_rules import ACCEPTED, OPEN, REJECTED

ADD, CHANGE, REMOVE = "add", "change", "remove"


class CardSetChange(models.Model):
    KIND_CHOICES = [(ADD, "Add a card"), (CHANGE, "Change a card"), (REMOVE, "Remove a card")]
    STATUS_CHOICES = [(OPEN, "Open"), (ACCEPTED, "Accepted"), (REJECTED, "Rejected")]

    card_set = models.ForeignKey("decks.Deck", on_delete=models.CASCADE, related_name="proposed_changes")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    kind = models.CharField(max_length=10, choices=KIND_CHOICES)
    # The card's id in the set (change, remove); None for a new card.
    card_id = models.PositiveBigIntegerField(null=True, blank=True)
    # A new card's fields (add) or the fields that change (change).
    content = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, choices=STATUS_CHOICES, default=OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    deadline = models.DateTimeField()
    decided_at = models.DateTimeField(null=True, blank=True)
    # The version that took this change in; None while open, rejected, or accepted and waiting for the task.
    version = models.ForeignKey(
        "ccg.CardSetVersion", on_delete=models.CASCADE, null=True, blank=True, related_name="changes"
    )

    class Meta:
        ordering = ["card_set", "created_at", "id"]
        indexes = [models.Index(fields=["card_set", "status"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} in {self.card_set.slug} #{self.pk}"


class CardSetChangeVote(models.Model):
    change = models.ForeignKey(CardSetChange, on_delete=models.CASCADE, related_name="votes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    # False is an objection.
    approve = models.BooleanField()
    voted_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["change", "voted_at", "id"]
        constraints = [models.UniqueConstraint(fields=["change", "user"], name="unique_change_vote")]

    def __str__(self) -> str:
        return f"{self.user} {'accepts' if self.approve else 'objects to'} #{self.change_id}"
