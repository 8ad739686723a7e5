"""The triggers by which the database refuses UPDATE and DELETE of event rows (installed by migration 0002)."""

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
