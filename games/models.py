"""Projections of game streams for lists and look-ups. The events are the truth; these rows follow them."""

import uuid

from django.conf import settings
from django.db import models

# `options.spectators`: who besides a game's players may watch it (docs/api.md, "Who may watch a game").
SPECTATORS = ("anyone", "players", "nobody")


class Game(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    deck_slug = models.SlugField(max_length=200)
    deck_title = models.CharField(max_length=200, blank=True)
    ruleset = models.CharField(max_length=60)
    variant = models.CharField(max_length=20, default="standard")
    creative = models.BooleanField(default=False)
    max_players = models.PositiveSmallIntegerField()
    # The engine's status (dvorak_engine.state.STATUSES): open, active, voting, finished (won), abandoned or
    # cancelled (called off by its creator before it started).
    status = models.CharField(max_length=20, default="open", db_index=True)
    # Who besides its players may watch (`options.spectators`): kept on the row so the game list can filter on it.
    spectators = models.CharField(max_length=10, default="anyone")
    version = models.PositiveIntegerField(default=0)
    # The earliest deadline of the game's clock while it is being played (``options.clock``), else empty: the
    # server's clock finds the games whose time has run out by it (games/clocks.py), among the games being played
    # (the status's index). Not indexed itself: a clocked game's every command moves it, and an index on it would
    # make each of those updates of the row write every index of the table anew (no HOT update; bench/README.md).
    deadline = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at"]

    def __str__(self) -> str:
        return f"{self.deck_title or self.deck_slug} ({self.status}, v{self.version})"

    @property
    def stream_id(self) -> str:
        return stream_of(self.id)


def stream_of(game_id) -> str:
    """A game's stream in the event store: the one spelling of it."""
    return f"game-{game_id}"


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="game_seats")
    number = models.PositiveSmallIntegerField()
    team = models.CharField(max_length=60, blank=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="games_seat_number"),
            models.UniqueConstraint(fields=["game", "user"], name="games_seat_user"),
        ]

    def __str__(self) -> str:
        return f"seat {self.number} of {self.game_id}"


class CommandReceipt(models.Model):
    """The first answer to a command sent with an Idempotency-Key, given again to a retry of it."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=200)
    # SHA-256 of the request the key first came with (method, path, body): the same key with another request is
    # refused, not answered with this one's answer. Empty on receipts kept from before it was recorded.
    request_hash = models.CharField(max_length=64, blank=True, default="")
    status = models.PositiveSmallIntegerField()
    response = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "user", "key"], name="games_receipt_key")]

    def __str__(self) -> str:
        return f"{self.key} on {self.game_id}"
