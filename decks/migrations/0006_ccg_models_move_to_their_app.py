"""The CCG models now belong to the ``ccg`` app (its 0001): the archive's app lets go of them in Django's state only;
their tables stay, under the names they have."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("decks", "0005_card_and_rule_effect"),
        ("ccg", "0001_initial"),
        ("proposals", "0002_card_set_versions_in_the_ccg_app"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.RemoveField(model_name="cardsetversion", name="card_set"),
                migrations.RemoveField(model_name="notification", name="user"),
                migrations.RemoveField(model_name="playerdeck", name="card_set"),
                migrations.RemoveField(model_name="playerdeck", name="owner"),
                migrations.RemoveField(model_name="playerdeckentry", name="player_deck"),
                migrations.DeleteModel(name="CardSetPlayer"),
                migrations.DeleteModel(name="CardSetVersion"),
                migrations.DeleteModel(name="Notification"),
                migrations.DeleteModel(name="PlayerDeck"),
                migrations.DeleteModel(name="PlayerDeckEntry"),
            ],
        ),
    ]
