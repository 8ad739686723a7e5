from django.apps import AppConfig


class CcgConfig(AppConfig):
    """CCG Dvorak: card sets' versions, registered players, player decks and notices. Its tables keep the names
    they had when these models belonged to the archive's app (``decks_cardsetversion``, ...)."""

    name = "ccg"
    label = "ccg"
    verbose_name = "CCG card sets"

    def ready(self) -> None:
        # Every process registers the tasks, not only a worker (whose autodiscovery finds them): an accepted change
        # queues its set's build by the task's name (``ccg.changes``), and a web process that had not imported them
        # would find no such task, leaving the build to Celery beat's reconciliation minutes later.
        from ccg import tasks  # noqa: F401
