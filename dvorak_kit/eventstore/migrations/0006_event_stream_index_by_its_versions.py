"""The event table's own index on ``stream_id`` goes: the unique ``(stream_id, version)`` index already finds a
stream's events, in order, and every read of them goes by it.

Django gives a foreign key an index of its own (and, on PostgreSQL, a second one for ``LIKE``, which nothing here
asks); each append wrote both, about two fifths of an event row's WAL (bench/README.md). They are found by their
columns, as their names were made by Django, and dropped on either database (an index is dropped in place on
SQLite too, with no rebuild of the table and its triggers).
"""

import django.db.models.deletion
from django.db import migrations, models

TABLE = "eventstore_event"


def stream_only_indexes(connection) -> list[str]:
    """The names of the table's indexes on ``stream_id`` alone (not the unique ``(stream_id, version)`` one)."""
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, TABLE)
    return sorted(name for name, about in constraints.items()
                  if about["index"] and not about["unique"] and not about["primary_key"]
                  and about["columns"] == ["stream_id"])


def forward(apps, schema_editor):
    for name in stream_only_indexes(schema_editor.connection):
        schema_editor.execute(f'DROP INDEX "{name}"')


def backward(apps, schema_editor):
    schema_editor.execute(f'CREATE INDEX "{TABLE}_stream_id" ON "{TABLE}" ("stream_id")')


class Migration(migrations.Migration):
    dependencies = [("eventstore", "0005_event_stream_tied_by_the_append")]
    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="event",
                    name="stream",
                    field=models.ForeignKey(db_constraint=False, db_index=False,
                                            on_delete=django.db.models.deletion.PROTECT, related_name="events",
                                            to="eventstore.stream"),
                ),
            ],
            database_operations=[migrations.RunPython(forward, backward)],
        ),
    ]
