"""The Celery application: CCG set versioning and deck tuning run here (eagerly in the embedded default)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dvorak_site.settings")

app = Celery("dvorak")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
