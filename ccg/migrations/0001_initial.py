"""The CCG models leave the archive's app for an app of their own (``ccg``): in Django's state only. Their tables keep
their names (``decks_cardsetversion``, ...): nothing in the database changes."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ("decks", "0005_card_and_rule_effect"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name='Notification',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('subject', models.CharField(max_length=200)),
                        ('body', models.TextField()),
                        ('data', models.JSONField(blank=True, default=dict)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('read_at', models.DateTimeField(blank=True, null=True)),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='notifications', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'decks_notification',
                        'ordering': ['-created_at', '-id'],
                    },
                ),
                migrations.CreateModel(
                    name='PlayerDeck',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=200)),
                        ('version', models.PositiveIntegerField()),
                        ('games_in_play', models.JSONField(blank=True, default=list)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('updated_at', models.DateTimeField(auto_now=True)),
                        ('card_set', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='player_decks', to='decks.deck')),
                        ('owner', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='player_decks', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'decks_playerdeck',
                        'ordering': ['owner', 'name', 'id'],
                    },
                ),
                migrations.CreateModel(
                    name='CardSetPlayer',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('registered_at', models.DateTimeField(auto_now_add=True)),
                        ('card_set', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='registered_players', to='decks.deck')),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='card_sets', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'decks_cardsetplayer',
                        'ordering': ['card_set', 'registered_at', 'id'],
                        'constraints': [models.UniqueConstraint(fields=('card_set', 'user'), name='unique_card_set_player')],
                    },
                ),
                migrations.CreateModel(
                    name='CardSetVersion',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('number', models.PositiveIntegerField()),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('changelog', models.JSONField(blank=True, default=list)),
                        ('content', models.JSONField()),
                        ('card_set', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='versions', to='decks.deck')),
                    ],
                    options={
                        'db_table': 'decks_cardsetversion',
                        'ordering': ['card_set', 'number'],
                        'constraints': [models.UniqueConstraint(fields=('card_set', 'number'), name='unique_card_set_version')],
                    },
                ),
                migrations.CreateModel(
                    name='PlayerDeckEntry',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('card_id', models.PositiveBigIntegerField()),
                        ('count', models.PositiveIntegerField()),
                        ('player_deck', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='entries', to='ccg.playerdeck')),
                    ],
                    options={
                        'db_table': 'decks_playerdeckentry',
                        'ordering': ['player_deck', 'id'],
                        'constraints': [models.UniqueConstraint(fields=('player_deck', 'card_id'), name='unique_player_deck_card')],
                    },
                ),
            ],
        ),
    ]
