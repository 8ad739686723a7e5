"""The database itself refuses UPDATE and DELETE of event rows, whatever code path asks."""

from django.db import migrations

from dvorak_kit.eventstore.immutability import (
    POSTGRES_BACKWARD,
    POSTGRES_FORWARD,
    SQLITE_BACKWARD,
    SQLITE_TRIGGERS,
)


def forward(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(POSTGRES_FORWARD)
    elif vendor == "sqlite":
        for statement in SQLITE_TRIGGERS:
            schema_editor.execute(statement)
    else:
        raise RuntimeError(f"the event store has no immutability trigger for {vendor}")


def backward(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    statements = [POSTGRES_BACKWARD] if vendor == "postgresql" else SQLITE_BACKWARD
    for statement in statements:
        schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [("eventstore", "0001_initial")]
    operations = [migrations.RunPython(forward, backward)]
