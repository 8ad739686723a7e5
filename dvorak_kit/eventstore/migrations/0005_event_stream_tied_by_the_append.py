"""On PostgreSQL, an event is tied to its stream by the append's own statement, not by a foreign key.

The append moves the stream's row and writes the events only if it moved, in one statement; the key checked that
again for every event at commit (a query and a row lock each), about a tenth of an append's time. Triggers keep
what the key still gave: a stream's row is not deleted while it has events, nor the stream table truncated while
any event is kept (``immutability.POSTGRES_STREAM_GUARD_FORWARD``).

SQLite keeps its key: dropping one there rebuilds the table, and with it would go the immutability triggers.
"""

import django.db.models.deletion
from django.db import migrations, models

from dvorak_kit.eventstore.immutability import POSTGRES_STREAM_GUARD_BACKWARD, POSTGRES_STREAM_GUARD_FORWARD

EVENT_STREAM_KEYS = (
    "SELECT conname FROM pg_constraint WHERE contype = 'f' "
    "AND conrelid = 'eventstore_event'::regclass AND confrelid = 'eventstore_stream'::regclass"
)


def forward(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(EVENT_STREAM_KEYS)
        names = [row[0] for row in cursor.fetchall()]
    for name in names:
        schema_editor.execute(f'ALTER TABLE eventstore_event DROP CONSTRAINT "{name}"')
    schema_editor.execute(POSTGRES_STREAM_GUARD_FORWARD)


def backward(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(POSTGRES_STREAM_GUARD_BACKWARD)
    schema_editor.execute(
        "ALTER TABLE eventstore_event ADD CONSTRAINT eventstore_event_stream_id_fk_eventstore_stream_id "
        "FOREIGN KEY (stream_id) REFERENCES eventstore_stream (id) DEFERRABLE INITIALLY DEFERRED"
    )


class Migration(migrations.Migration):
    dependencies = [("eventstore", "0004_snapshot_state_text")]
    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="event",
                    name="stream",
                    field=models.ForeignKey(db_constraint=False, on_delete=django.db.models.deletion.PROTECT,
                                            related_name="events", to="eventstore.stream"),
                ),
            ],
            database_operations=[migrations.RunPython(forward, backward)],
        ),
    ]
