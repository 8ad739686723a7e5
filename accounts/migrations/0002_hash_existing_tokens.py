"""The API tokens of DRF's ``authtoken`` (stored as they were sent) become django-rest-knox tokens, stored as their
SHA-512 and first 15 characters, and the old table is dropped. A client keeps its token: it goes on working,
and now expires (``REST_KNOX["TOKEN_TTL"]`` after this migration, moved on by each use) and can be revoked."""

import hashlib

from django.conf import settings
from django.db import migrations
from django.utils import timezone

OLD_TABLE = "authtoken_token"


def hash_old_tokens(apps, schema_editor):
    connection = schema_editor.connection
    if OLD_TABLE not in connection.introspection.table_names():
        return  # a database made after DRF's tokens were left behind
    AuthToken = apps.get_model("knox", "AuthToken")
    expiry = timezone.now() + settings.REST_KNOX["TOKEN_TTL"]
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT key, user_id, created FROM {OLD_TABLE}")  # noqa: S608 (a constant)
        rows = cursor.fetchall()
    AuthToken.objects.bulk_create([
        AuthToken(digest=hashlib.sha512(key.encode()).hexdigest(), token_key=key[:15], user_id=user_id,
                  expiry=expiry)
        for key, user_id, _created in rows
    ], ignore_conflicts=True)
    schema_editor.execute(f"DROP TABLE {OLD_TABLE}")


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_spent_tickets"),
        ("knox", "0009_extend_authtoken_field"),
        (settings.AUTH_USER_MODEL.split(".")[0], "0001_initial"),
    ]
    # Replaying the old table's contents is impossible (only hashes are left): going back keeps the new tokens.
    operations = [migrations.RunPython(hash_old_tokens, migrations.RunPython.noop)]
