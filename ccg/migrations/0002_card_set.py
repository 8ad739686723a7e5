"""The card sets as the CCG side sees them: a proxy of the archive's decks (its admin page); no table changes."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('ccg', '0001_initial'),
        ('decks', '0006_ccg_models_move_to_their_app'),
    ]

    operations = [
        migrations.CreateModel(
            name='CardSet',
            fields=[
            ],
            options={
                'verbose_name': 'card set',
                'proxy': True,
                'indexes': [],
                'constraints': [],
            },
            bases=('decks.deck',),
        ),
    ]
