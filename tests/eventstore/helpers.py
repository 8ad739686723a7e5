"""Test support: empty the event table, which the flush between transactional tests would be refused."""

from django.db import connection

from dvorak_kit.eventstore import immutability as immutable


def purge_all_events() -> None:
    """Lift the triggers for this moment only (as the owner, in the test database) and empty the event table.

    SQLite's flush is DELETE FROM, refused by the row triggers; PostgreSQL's is TRUNCATE, refused by the
    statement trigger while the table holds rows (an empty table may be truncated).
    """
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("ALTER TABLE eventstore_event DISABLE TRIGGER eventstore_event_no_truncate")
            try:
                cursor.execute("TRUNCATE eventstore_snapshot, eventstore_event")
            finally:
                cursor.execute("ALTER TABLE eventstore_event ENABLE TRIGGER eventstore_event_no_truncate")
            return
        for statement in immutable.SQLITE_BACKWARD:
            cursor.execute(statement)
        cursor.execute("DELETE FROM eventstore_snapshot")
        cursor.execute("DELETE FROM eventstore_event")
        for statement in immutable.SQLITE_TRIGGERS:
            cursor.execute(statement)
