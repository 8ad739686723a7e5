from django.apps import AppConfig
from django.db.models.signals import post_migrate


def grant_runtime_role(using: str = "default", **kwargs) -> None:
    """After every migrate (run as the tables' owner), give ``DATABASE_RUNTIME_ROLE`` its rights."""
    from django.conf import settings
    from django.db import connections

    from .immutability import postgres_runtime_grants

    role = getattr(settings, "DATABASE_RUNTIME_ROLE", "")
    connection = connections[using]
    if not role or connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for statement in postgres_runtime_grants(connection.ops.quote_name(role)):
            cursor.execute(statement)


class EventStoreConfig(AppConfig):
    name = "dvorak_kit.eventstore"
    label = "eventstore"
    verbose_name = "Event store"

    def ready(self) -> None:
        post_migrate.connect(grant_runtime_role, dispatch_uid="eventstore_grant_runtime_role")
