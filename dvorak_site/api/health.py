"""Is each part the service needs reachable? The database, the channel layer and Celery's broker."""

import time

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection


def timed(check) -> dict:
    started = time.perf_counter()
    try:
        detail = check() or {}
    except Exception as exc:  # a health check reports failures, it does not raise them
        return {"ok": False, "error": exc.__class__.__name__}
    return {"ok": True, "ms": round((time.perf_counter() - started) * 1000, 1), **detail}


def check_database() -> dict:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return {"vendor": connection.vendor}


def check_channel_layer() -> dict:
    layer = get_channel_layer()
    backend = layer.__class__.__name__
    if hasattr(layer, "connection"):  # channels-redis: ask Redis itself
        async def ping():
            conn = layer.connection(0)
            await conn.ping()

        async_to_sync(ping)()
    else:
        async_to_sync(layer.group_send)("health", {"type": "health.check"})
    return {"backend": backend}


def check_broker() -> dict:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {"mode": "eager"}
    from dvorak_site.celery import app

    with app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=2)
    return {"mode": "worker", "transport": app.conf.broker_url.split(":", 1)[0]}


def health_report() -> dict:
    report = {
        "database": timed(check_database),
        "channel_layer": timed(check_channel_layer),
        "broker": timed(check_broker),
    }
    report["status"] = "ok" if all(part["ok"] for part in report.values()) else "degraded"
    return report
