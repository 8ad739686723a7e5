"""The append-only event store: one table of events for every stream, snapshots as a cache, upcasters."""
