# pg_trgm declares its word-similarity operator (`%>`, `title %> 'search'` in decks/search.py) as costing what one
# comparison of two numbers costs, though it makes the trigrams of the title on every row it is asked of. A search
# matches `search @@ query OR title %> 'search'`; so priced, the planner read every deck (or card) and made every
# title's trigrams rather than take the two GIN indexes (migration 0007), even for a word that 3% of the decks hold
# (a deck search at 10,000 decks: 105 ms read through, 8 ms by the indexes; bench/README.md, "The archive at 10,000
# decks"). Priced as PostgreSQL prices its own text search match, the indexes are taken whenever they find few rows,
# and a word in most rows is still read through.
#
# Only where the migrating role owns the function (it made the extension, as 0007 does); where an operator made the
# extension beforehand, they can run the statement below themselves.

from django.db import migrations

COST = 100  # as PostgreSQL's own ts_match_tq (`text @@ tsquery`)
FUNCTION = "word_similarity_commutator_op(text, text)"


def _owned(schema_editor) -> bool:
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_has_role(current_user, proowner, 'USAGE') FROM pg_proc WHERE proname = %s",
            ["word_similarity_commutator_op"],
        )
        row = cursor.fetchone()
    return bool(row and row[0])


def price(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql" and _owned(schema_editor):
        schema_editor.execute(f"ALTER FUNCTION {FUNCTION} COST {COST}")


def unprice(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql" and _owned(schema_editor):
        schema_editor.execute(f"ALTER FUNCTION {FUNCTION} COST 1")


class Migration(migrations.Migration):

    dependencies = [
        ('decks', '0008_archive_at_scale_indexes'),
    ]

    operations = [
        migrations.RunPython(price, unprice),
    ]
