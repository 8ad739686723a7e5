"""What every app stands on, below all of them: the event store (``eventstore``, a small Django app: the append-only
table of events, snapshots, projections), the API kit (``api``: authentication, errors, parsers, paging, throttles,
the schema's helpers), the live updates' publisher and the Redis-backed parts that carry on when Redis is away
(``cache``, ``channel_layer``, ``outage``). It imports no app and not the Django project (``dvorak_site``)."""
