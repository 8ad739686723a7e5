"""The triggers by which the database refuses UPDATE, DELETE and TRUNCATE of event rows.

UPDATE and DELETE: migration 0002. TRUNCATE (PostgreSQL only; SQLite has none): migration 0003. A stream's row
that has events, and the stream table while any event is kept (PostgreSQL, in place of a foreign key): migration
0005. The owner of
the table can still disable a trigger, so production runs as a role that does not own it (README, "Running it
for real", and ``grant_runtime_role``).
"""

POSTGRES_FORWARD = """
CREATE OR REPLACE FUNCTION eventstore_refuse_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION USING
        MESSAGE = 'events are immutable: ' || TG_OP || ' of eventstore_event is refused',
        ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER eventstore_event_immutable
    BEFORE UPDATE OR DELETE ON eventstore_event
    FOR EACH ROW EXECUTE FUNCTION eventstore_refuse_change();
"""
POSTGRES_BACKWARD = """
DROP TRIGGER IF EXISTS eventstore_event_immutable ON eventstore_event;
DROP FUNCTION IF EXISTS eventstore_refuse_change();
"""
SQLITE_TRIGGERS = [
    """CREATE TRIGGER eventstore_event_no_update BEFORE UPDATE ON eventstore_event
       BEGIN SELECT RAISE(ABORT, 'events are immutable: UPDATE of eventstore_event is refused'); END;""",
    """CREATE TRIGGER eventstore_event_no_delete BEFORE DELETE ON eventstore_event
       BEGIN SELECT RAISE(ABORT, 'events are immutable: DELETE of eventstore_event is refused'); END;""",
]
SQLITE_BACKWARD = ["DROP TRIGGER IF EXISTS eventstore_event_no_update;", "DROP TRIGGER IF EXISTS eventstore_event_no_delete;"]

# A row trigger never sees TRUNCATE, so a statement trigger refuses it. Truncating an empty table removes
# nothing, so it passes: the test suite's flush truncates every table after the events were purged.
POSTGRES_TRUNCATE_FORWARD = """
CREATE OR REPLACE FUNCTION eventstore_refuse_truncate() RETURNS trigger AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM eventstore_event) THEN
        RAISE EXCEPTION USING
            MESSAGE = 'events are immutable: TRUNCATE of eventstore_event is refused',
            ERRCODE = 'restrict_violation';
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER eventstore_event_no_truncate
    BEFORE TRUNCATE ON eventstore_event
    FOR EACH STATEMENT EXECUTE FUNCTION eventstore_refuse_truncate();
"""
POSTGRES_TRUNCATE_BACKWARD = """
DROP TRIGGER IF EXISTS eventstore_event_no_truncate ON eventstore_event;
DROP FUNCTION IF EXISTS eventstore_refuse_truncate();
"""

# An event's stream is tied to it by the append's own statement, which writes events only when it moved their
# stream's row; a foreign key checked the same again on every event written (a query and a row lock at each
# commit, a tenth of an append). What the key still gave is kept here, at no cost to an append: a stream's row
# is not deleted while it has events, nor the stream table truncated while any event is kept.
POSTGRES_STREAM_GUARD_FORWARD = """
CREATE OR REPLACE FUNCTION eventstore_refuse_stream_delete() RETURNS trigger AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM eventstore_event WHERE stream_id = OLD.id) THEN
        RAISE EXCEPTION USING
            MESSAGE = 'events are immutable: the stream ' || OLD.id || ' has events and cannot be deleted',
            ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN OLD;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER eventstore_stream_keeps_its_events
    BEFORE DELETE ON eventstore_stream
    FOR EACH ROW EXECUTE FUNCTION eventstore_refuse_stream_delete();
CREATE OR REPLACE FUNCTION eventstore_refuse_stream_truncate() RETURNS trigger AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM eventstore_event) THEN
        RAISE EXCEPTION USING
            MESSAGE = 'events are immutable: TRUNCATE of eventstore_stream is refused while events are kept',
            ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER eventstore_stream_no_truncate
    BEFORE TRUNCATE ON eventstore_stream
    FOR EACH STATEMENT EXECUTE FUNCTION eventstore_refuse_stream_truncate();
"""
POSTGRES_STREAM_GUARD_BACKWARD = """
DROP TRIGGER IF EXISTS eventstore_stream_no_truncate ON eventstore_stream;
DROP FUNCTION IF EXISTS eventstore_refuse_stream_truncate();
DROP TRIGGER IF EXISTS eventstore_stream_keeps_its_events ON eventstore_stream;
DROP FUNCTION IF EXISTS eventstore_refuse_stream_delete();
"""


def postgres_runtime_grants(role: str) -> list[str]:
    """What the app's runtime role may do: the usual rights on every table, but only read and append events.

    Run by the table owner after every migrate, so the tables a later migration adds are covered too.
    """
    return [
        f"GRANT USAGE ON SCHEMA public TO {role}",
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {role}",
        f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {role}",
        f"REVOKE ALL ON eventstore_event FROM {role}",
        f"GRANT SELECT, INSERT ON eventstore_event TO {role}",
    ]
