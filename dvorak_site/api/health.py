"""Is each part the service needs reachable? The database, the channel layer and Celery's broker.

Three answers (docs/api.md, "Health"): ``live`` says the process answers and touches nothing; ``ready`` and the
older ``health`` ask the parts. Only the database decides readiness: PostgreSQL holds everything a request needs,
and the API carries on without Redis (README, "If Redis goes away"), so Redis away is ``degraded`` (200), never
a failure that would make a load balancer take a working server out of rotation. 503 only without the database.
"""

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


OK, DEGRADED, UNAVAILABLE = "ok", "degraded", "unavailable"


def overall(database_ok: bool, others_ok: bool) -> str:
    """``ok``: every part answers; ``degraded``: the database does, something else does not (the API still works);
    ``unavailable``: the database does not."""
    if not database_ok:
        return UNAVAILABLE
    return OK if others_ok else DEGRADED


def health_report() -> dict:
    """``GET /health/``: each part with its time or its error."""
    report = {
        "database": timed(check_database),
        "channel_layer": timed(check_channel_layer),
        "broker": timed(check_broker),
    }
    report["status"] = overall(report["database"]["ok"], report["channel_layer"]["ok"] and report["broker"]["ok"])
    return report


def readiness_report() -> dict:
    """``GET /health/ready/``: one word a part. ``redis`` covers what lives there (the channel layer and Celery's
    broker); ``not_configured`` when the service runs without Redis (the in-memory layer, eager tasks)."""
    database = timed(check_database)["ok"]
    if settings.REDIS_URL:
        redis = timed(check_channel_layer)["ok"] and timed(check_broker)["ok"]
        redis_word = OK if redis else UNAVAILABLE
    else:
        redis, redis_word = True, "not_configured"
    return {"status": overall(database, redis),
            "checks": {"database": OK if database else UNAVAILABLE, "redis": redis_word}}
