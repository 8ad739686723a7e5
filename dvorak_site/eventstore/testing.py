"""Test support: empty the event table on SQLite, where the flush between tests would be refused."""

from django.db import connection

from . import immutability as immutable


def purge_all_events() -> None:
    with connection.cursor() as cursor:
        for statement in immutable.SQLITE_BACKWARD:
            cursor.execute(statement)
        cursor.execute("DELETE FROM eventstore_snapshot")
        cursor.execute("DELETE FROM eventstore_event")
        for statement in immutable.SQLITE_TRIGGERS:
            cursor.execute(statement)
