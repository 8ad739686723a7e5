# Search (decks/search.py) and player counts as numbers (dvorak_core/player_counts.py).
#
# Every database gets the columns: each deck's `players` read as a range (`players_min`, `players_max`), filled
# here, and a `search` vector on decks and cards. Only PostgreSQL fills the vectors and indexes them; on SQLite
# the columns stay empty and search falls back to plain matching. The indexes are made here rather than declared
# on the models, so SQLite never sees them (it rebuilds a table with its declared indexes when it alters one).
#
# `pg_trgm` (for titles typed with mistakes) needs the right to create an extension: the migrating role must be
# allowed to (a superuser, or on PostgreSQL 13 and later a role with CREATE on the database, pg_trgm being a trusted
# extension), or an operator runs `CREATE EXTENSION pg_trgm;` in the database first (README, "The archive").

import django.contrib.postgres.search
from django.contrib.postgres.operations import TrigramExtension
from django.db import migrations, models

from dvorak_core.player_counts import parse_players

INDEXES = {
    "decks_deck_search_gin": "CREATE INDEX IF NOT EXISTS decks_deck_search_gin ON decks_deck USING gin (search)",
    "decks_card_search_gin": "CREATE INDEX IF NOT EXISTS decks_card_search_gin ON decks_card USING gin (search)",
    "decks_deck_title_trgm": "CREATE INDEX IF NOT EXISTS decks_deck_title_trgm ON decks_deck "
                             "USING gin (title gin_trgm_ops)",
    "decks_card_title_trgm": "CREATE INDEX IF NOT EXISTS decks_card_title_trgm ON decks_card "
                             "USING gin (title gin_trgm_ops)",
}

# The vectors as decks/search.py writes them (as it did when this migration was written).
CARD_VECTORS = """
UPDATE decks_card AS card SET search =
       setweight(to_tsvector('english'::regconfig, card.title), 'A')
    || setweight(to_tsvector('english'::regconfig, card.text), 'B')
"""
DECK_VECTORS = """
UPDATE decks_deck AS deck SET search =
       setweight(to_tsvector('english'::regconfig, deck.title), 'A')
    || setweight(to_tsvector('english'::regconfig, deck.designers::text), 'B')
    || setweight(to_tsvector('english'::regconfig, left(deck.description || ' ' || coalesce((
           SELECT string_agg(rule.title || ' ' || rule.text, ' ' ORDER BY rule.position, rule.id)
           FROM decks_specialrule AS rule WHERE rule.deck_id = deck.id), ''), 30000)), 'C')
    || setweight(to_tsvector('english'::regconfig, left(coalesce((
           SELECT string_agg(card.title || ' ' || card.text, ' ' ORDER BY card.position, card.id)
           FROM decks_card AS card WHERE card.deck_id = deck.id), ''), 100000)), 'D')
"""


def make_indexes(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for statement in INDEXES.values():
            schema_editor.execute(statement)


def drop_indexes(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for name in INDEXES:
            schema_editor.execute(f"DROP INDEX IF EXISTS {name}")


def fill(apps, schema_editor):
    Deck = apps.get_model("decks", "Deck")
    for deck in Deck.objects.only("pk", "players").iterator():
        found = parse_players(deck.players)
        if found is not None:
            Deck.objects.filter(pk=deck.pk).update(players_min=found.low, players_max=found.high)
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CARD_VECTORS)
        schema_editor.execute(DECK_VECTORS)


class Migration(migrations.Migration):

    dependencies = [
        ('decks', '0006_ccg_models_move_to_their_app'),
    ]

    operations = [
        TrigramExtension(),  # nothing on another database than PostgreSQL
        migrations.AddField(
            model_name='card',
            name='search',
            field=django.contrib.postgres.search.SearchVectorField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name='deck',
            name='players_max',
            field=models.PositiveSmallIntegerField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name='deck',
            name='players_min',
            field=models.PositiveSmallIntegerField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name='deck',
            name='search',
            field=django.contrib.postgres.search.SearchVectorField(blank=True, editable=False, null=True),
        ),
        migrations.RunPython(make_indexes, drop_indexes),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
