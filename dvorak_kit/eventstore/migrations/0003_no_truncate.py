"""PostgreSQL refuses TRUNCATE of the event table too (a statement trigger: row triggers never see it)."""

from django.db import migrations

from dvorak_kit.eventstore.immutability import POSTGRES_TRUNCATE_BACKWARD, POSTGRES_TRUNCATE_FORWARD


def forward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(POSTGRES_TRUNCATE_FORWARD)


def backward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(POSTGRES_TRUNCATE_BACKWARD)


class Migration(migrations.Migration):
    dependencies = [("eventstore", "0002_immutable_events")]
    operations = [migrations.RunPython(forward, backward)]
