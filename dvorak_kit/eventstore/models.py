from django.db import models


class Stream(models.Model):
    """One row per stream: its current version, and the row writers lock to take turns."""

    id = models.CharField(primary_key=True, max_length=100)
    kind = models.CharField(max_length=40, db_index=True)
    version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.id} @ {self.version}"


class Event(models.Model):
    """An immutable fact. The database refuses UPDATE, DELETE (migration 0002) and TRUNCATE (0003) of these rows."""

    id = models.BigAutoField(primary_key=True)  # the global position, for feeds
    # No foreign key in PostgreSQL: the append's statement writes events only when it moved their stream's row, and
    # triggers keep a stream with events from being deleted (migration 0005). SQLite's table keeps its key. No index of
    # its own: the unique (stream, version) index below finds a stream's events (migration 0006).
    stream = models.ForeignKey(Stream, on_delete=models.PROTECT, db_constraint=False, db_index=False,
                               related_name="events")
    version = models.PositiveIntegerField()
    type = models.CharField(max_length=80)
    schema = models.PositiveSmallIntegerField(default=1)
    data = models.JSONField()
    actor = models.CharField(max_length=150, blank=True, default="")
    recorded_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["stream", "version"], name="eventstore_event_stream_version")]
        ordering = ["stream_id", "version"]

    def __str__(self) -> str:
        return f"{self.stream_id}#{self.version} {self.type}"


class Snapshot(models.Model):
    """A cached state of a stream at a version; thrown away when the engine version changes."""

    stream = models.ForeignKey(Stream, on_delete=models.CASCADE, related_name="snapshots")
    engine_version = models.CharField(max_length=40)
    version = models.PositiveIntegerField()
    # The state's JSON as text: a snapshot is only ever read whole, and PostgreSQL gives text back as it is, where a
    # jsonb column is rebuilt into text on every read (most of a large snapshot's load).
    state = models.TextField()
    taken_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["stream", "engine_version"], name="eventstore_snapshot_stream_engine")
        ]

    def __str__(self) -> str:
        return f"{self.stream_id} @ {self.version} ({self.engine_version})"
