"""A change's version is the CCG app's (``ccg.CardSetVersion``, the same table as before): Django's state only."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("ccg", "0001_initial"),
        ("proposals", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.AlterField(
                    model_name="cardsetchange",
                    name="version",
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE,
                                            related_name="changes", to="ccg.cardsetversion"),
                ),
            ],
        ),
    ]
