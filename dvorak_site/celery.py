"""The Celery application: CCG set versioning and deck tuning run here (eagerly in the embedded default).

Each task's outcome is counted by its name (``dvorak_celery_tasks_total``, dvorak_kit/metrics.py): success,
failure, retry. In a worker's processes these are the worker's counts; eager tasks count in the process that ran
them. The metrics module is imported when a task ends, not here: Django's settings are not read yet at this point.
"""

import os

from celery import Celery
from celery.signals import setup_logging, task_failure, task_retry, task_success, worker_process_shutdown

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dvorak_site.settings")

app = Celery("dvorak")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def _counted(outcome: str):
    def receiver(sender=None, **kwargs):
        from dvorak_kit import metrics

        metrics.task_outcome(getattr(sender, "name", None) or "unknown", outcome)  # the sender: the task

    return receiver


for _signal, _outcome in ((task_success, "success"), (task_failure, "failure"), (task_retry, "retry")):
    _signal.connect(_counted(_outcome), weak=False, dispatch_uid=f"dvorak-metrics-task-{_outcome}")


@worker_process_shutdown.connect(weak=False)
def _forget_gauges(pid=None, **kwargs):
    """A worker's child that stops: its live gauges forgotten in multiprocess mode (deploy/gunicorn.conf.py does
    the same for the servers' workers)."""
    from dvorak_kit import metrics

    metrics.process_dead(pid or os.getpid())


@setup_logging.connect
def use_the_project_s_logging(**kwargs):
    """The worker's and beat's logs through the project's formatter (settings.LOGGING, dvorak_kit/logs.py), not
    Celery's own handlers: Celery configures no logging of its own when this signal has a receiver."""
    import logging.config

    from django.conf import settings

    logging.config.dictConfig(settings.LOGGING)
