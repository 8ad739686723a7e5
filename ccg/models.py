"""CCG records: card sets (the archive's, seen from here), their versions and registered players, player decks and
their entries, notices.

A version is history, like an archive revision: written once by the version-building task, never changed.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from decks.models import Deck, ImmutableRevision, RevisionQuerySet
from dvorak_core.deckdata import CARD_SET


class CardSetManager(models.Manager):
    def get_queryset(self) -> models.QuerySet:
        return super().get_queryset().filter(kind=CARD_SET)


class CardSet(Deck):
    """The archive's decks of kind ``card_set``, as the CCG side sees them (its admin page; no table of its own):
    the archive keeps their cards and history, this side their versions, players and decks."""

    objects = CardSetManager()

    class Meta:
        proxy = True
        verbose_name = "card set"


class CardSetVersion(models.Model):
    """The card set as it was at `number`: the whole content, with the card ids player decks refer to."""

    card_set = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    # One line per accepted change, e.g. "Changed card 'Pork Barrel': text".
    changelog = models.JSONField(default=list, blank=True)
    # `decks.selectors.deck_for_game` shape: DeckData.to_dict() with an "id" on each card and Special Rule.
    content = models.JSONField()

    objects = RevisionQuerySet.as_manager()

    class Meta:
        db_table = "decks_cardsetversion"
        ordering = ["card_set", "number"]
        constraints = [models.UniqueConstraint(fields=["card_set", "number"], name="unique_card_set_version")]

    def __str__(self) -> str:
        return f"{self.card_set.slug} version {self.number}"

    def save(self, *args, **kwargs):
        if self.pk is not None or not self._state.adding:
            raise ImmutableRevision("Card set versions cannot be changed.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ImmutableRevision("Card set versions cannot be deleted.")


class CardSetPlayer(models.Model):
    """A registered player of a card set: one who may propose changes and whose objection stops one."""

    card_set = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="registered_players")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="card_sets")
    registered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "decks_cardsetplayer"
        ordering = ["card_set", "registered_at", "id"]
        constraints = [models.UniqueConstraint(fields=["card_set", "user"], name="unique_card_set_player")]

    def __str__(self) -> str:
        return f"{self.user} plays {self.card_set.slug}"


class PlayerDeck(models.Model):
    """A player's own deck built from copies of a card set's cards, at one version of the set."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_decks")
    card_set = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="player_decks")
    name = models.CharField(max_length=200)
    version = models.PositiveIntegerField()
    # The games it is being played in now; tuning waits until this is empty again.
    games_in_play = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "decks_playerdeck"
        ordering = ["owner", "name", "id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.card_set.slug} v{self.version})"


class PlayerDeckEntry(models.Model):
    player_deck = models.ForeignKey(PlayerDeck, on_delete=models.CASCADE, related_name="entries")
    # A card id in the deck's version of the set (not a foreign key: the archive row goes when a card is removed).
    card_id = models.PositiveBigIntegerField()
    count = models.PositiveIntegerField()

    class Meta:
        db_table = "decks_playerdeckentry"
        ordering = ["player_deck", "id"]
        constraints = [models.UniqueConstraint(fields=["player_deck", "card_id"], name="unique_player_deck_card")]

    def __str__(self) -> str:
        return f"{self.count} x card {self.card_id}"


class Notification(models.Model):
    """A notice to one user, shown in the API's list and also sent by email."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    subject = models.CharField(max_length=200)
    body = models.TextField()
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "decks_notification"
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"To {self.user}: {self.subject}"
