"""The archive's records: decks and CCG card sets, their cards and Special Rules, wiki history and talk pages.

The rows hold the current deck; every change also leaves an immutable `Revision` with the whole deck as
`DeckData.to_dict()` JSON, so history never depends on the rows staying as they were.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.postgres.search import SearchVectorField
from django.db import models

from dvorak_core.deckdata import CARD_SET, DECK, DEFAULT_RULESET, STATUSES, THING, UNCATEGORISED
from dvorak_core.player_counts import describe


# Search data (`decks/search.py`). On PostgreSQL a `search` column holds the row's weighted text search vector,
# written by the archive's services with every revision, and migration 0007 gives it a GIN index (and the titles
# trigram indexes); on SQLite the column stays empty and search falls back to plain matching.
def search_vector_field() -> SearchVectorField:
    return SearchVectorField(null=True, blank=True, editable=False)


class WithoutSearchVector(models.Manager):
    """Rows without their `search` vector, which only the database reads: a deck's holds all of its text.
    (A query that reaches a deck through `select_related` defers it itself: `defer("deck__search")`.)"""

    def get_queryset(self) -> models.QuerySet:
        return super().get_queryset().defer("search")


class Deck(models.Model):
    KIND_CHOICES = [(DECK, "Deck"), (CARD_SET, "CCG card set")]
    STATUS_CHOICES = [(status, status or "uncategorised") for status in STATUSES]

    slug = models.SlugField(max_length=200, unique=True)
    title = models.CharField(max_length=200)
    kind = models.CharField(max_length=16, choices=KIND_CHOICES, default=DECK)
    designers = models.JSONField(default=list, blank=True)
    date = models.CharField(max_length=100, blank=True)
    players = models.CharField(max_length=50, blank=True)
    # `players` read as a range (`dvorak_core.player_counts`), set by the services whenever `players` is
    # written: both null when the text reads as no range; `players_max` null alone when there is no upper bound.
    players_min = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    players_max = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    status = models.CharField(max_length=20, choices=STATUS_CHOICES, default=UNCATEGORISED, blank=True)
    ruleset = models.CharField(max_length=100, default=DEFAULT_RULESET)
    description = models.TextField(blank=True)
    locked = models.BooleanField(default=False)
    # The number of the newest revision; kept here so lists need no subquery.
    revision = models.PositiveIntegerField(default=0, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # Title (A), designers (B), description and Special Rules (C), cards (D).
    search = search_vector_field()

    objects = WithoutSearchVector()

    class Meta:
        ordering = ["title", "slug"]
        permissions = [("curate", "Can lock, unlock and delete decks")]
        # The deck list's order: a page of it is read from the index, not sorted out of every deck.
        indexes = [
            models.Index(fields=["title", "slug"], name="decks_deck_title_slug"),
            # The deck list's filter choices (`selectors.deck_filter_values`), read from the index alone rather
            # than from every deck's row.
            models.Index(fields=["players", "players_min", "players_max", "ruleset"], name="decks_deck_filter_values"),
        ]

    def __str__(self) -> str:
        return self.title

    @property
    def players_range(self) -> str:
        """The player counts for people ("2–4 players"); the text as written when it reads as no range."""
        return describe(self.players_min, self.players_max) or self.players


class SpecialRule(models.Model):
    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="special_rules")
    position = models.PositiveIntegerField(default=0)
    title = models.CharField(max_length=200, blank=True)
    text = models.TextField()
    # The rule parameters a game sets from this rule (`SpecialRuleData.params`), e.g. {"hand_limit": 7}.
    params = models.JSONField(default=dict, blank=True)
    # The rule's confirmed effect (`SpecialRuleData.effect`: the effect language's JSON list); null until a
    # curator confirms one.
    effect = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["position", "id"]

    def __str__(self) -> str:
        return self.title or f"Special Rule {self.position + 1}"


class Card(models.Model):
    # Indexed with the card's place (Meta.indexes), which serves every read of a deck's cards.
    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="cards", db_index=False)
    position = models.PositiveIntegerField(default=0)
    title = models.CharField(max_length=200)
    # Thing, Action, or one of the deck's own types (Style, Soldier, …).
    type = models.CharField(max_length=50, default=THING)
    text = models.TextField(blank=True)
    flavor = models.TextField(blank=True)
    copies = models.PositiveIntegerField(default=1)
    corner_value = models.CharField(max_length=50, blank=True)
    creator = models.CharField(max_length=100, blank=True)
    stats = models.JSONField(default=dict, blank=True)
    out_of_turn = models.BooleanField(default=False)
    # The card's confirmed effect (`CardData.effect`: the effect language's JSON list); null until a curator
    # confirms one.
    effect = models.JSONField(null=True, blank=True)
    # Title (A), text (B).
    search = search_vector_field()

    objects = WithoutSearchVector()

    class Meta:
        ordering = ["position", "id"]
        indexes = [
            # A deck's cards in order; with the decks' title index, the card list by deck and place is read a page
            # at a time (deck by deck, in order) rather than sorted out of every card.
            models.Index(fields=["deck", "position", "id"], name="decks_card_deck_place"),
            # The card types the card search offers, read from the index (`selectors.card_types`).
            models.Index(fields=["type"], name="decks_card_type"),
        ]

    def __str__(self) -> str:
        return self.title


class ImmutableRevision(Exception):
    """A revision is history: it is never changed or deleted, only followed by a newer one."""


class RevisionQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise ImmutableRevision("Revisions cannot be changed.")

    def delete(self):
        raise ImmutableRevision("Revisions cannot be deleted.")


class Revision(models.Model):
    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="revisions")
    number = models.PositiveIntegerField()
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    summary = models.CharField(max_length=300, blank=True)
    content = models.JSONField()

    objects = RevisionQuerySet.as_manager()

    class Meta:
        ordering = ["deck", "number"]
        constraints = [models.UniqueConstraint(fields=["deck", "number"], name="unique_revision_number")]
        # Recent Changes and the feeds: the newest revisions of every deck, read from the index's end.
        indexes = [models.Index(fields=["created_at", "id"], name="decks_revision_recent")]

    def __str__(self) -> str:
        return f"{self.deck.slug} revision {self.number}"

    def save(self, *args, **kwargs):
        if self.pk is not None or not self._state.adding:
            raise ImmutableRevision("Revisions cannot be changed.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ImmutableRevision("Revisions cannot be deleted.")


class TalkPost(models.Model):
    """A post on a deck's talk page. The body is stored as written and escaped wherever HTML shows it."""

    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="talk_posts")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    body = models.TextField()
    reply_to = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True, related_name="replies")
    created_at = models.DateTimeField(auto_now_add=True)
    # A curator's hiding: the text stays for curators and the record, and is shown to no one else.
    hidden_at = models.DateTimeField(null=True, blank=True)
    hidden_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                  related_name="+")
    hidden_reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"Talk on {self.deck.slug} #{self.pk}"

    @property
    def hidden(self) -> bool:
        return self.hidden_at is not None
