"""The throttle counts' cache borrows its Redis connections from the process's pool.

Django makes a cache object per thread, and under ASGI per request; each used to make a connection pool of its own,
so every API request under uvicorn opened a TCP connection to Redis and dropped it. Here each of 40 threads, and
each of 40 requests' contexts under ASGI, uses a cache object of its own: Redis must see a few new connections,
not 40."""

from __future__ import annotations

import asyncio
import contextvars
import threading

import pytest
import redis
from asgiref.sync import SyncToAsync
from django.conf import settings as django_settings

from tests.redisserver import cache_on

pytestmark = pytest.mark.redis

# 40 when each cache object made its own pool; the margin is for the suite's other threads (a publisher, a snapshot
# writer) that may connect to the same Redis meanwhile.
NEW_CONNECTIONS_AT_MOST = 20


@pytest.fixture
def redis_cache(settings):
    settings.CACHES = cache_on(django_settings.REDIS_URL)
    return redis.Redis.from_url(django_settings.REDIS_URL)


def connections_received(server: redis.Redis) -> int:
    return int(server.info("stats")["total_connections_received"])


def count_once() -> None:
    from django.core.cache import caches

    cache = caches["default"]
    cache.add("throttle-key", 0, 60)
    cache.incr("throttle-key")


def test_threads_each_with_a_cache_object_share_the_processs_connections(redis_cache):
    count_once()  # the pool's first connection
    before = connections_received(redis_cache)
    for _ in range(40):
        thread = threading.Thread(target=count_once)
        thread.start()
        thread.join()
    from django.core.cache import caches

    assert caches["default"].get("throttle-key") == 41
    assert connections_received(redis_cache) - before <= NEW_CONNECTIONS_AT_MOST


def test_requests_contexts_under_asgi_share_the_processs_connections(redis_cache):
    count_once()
    before = connections_received(redis_cache)

    async def requests() -> None:
        for _ in range(40):  # each as a request runs under ASGI: in a context of its own, its sync steps in a thread
            await asyncio.create_task(SyncToAsync(count_once, thread_sensitive=False)(), context=contextvars.Context())

    asyncio.run(requests())
    assert connections_received(redis_cache) - before <= NEW_CONNECTIONS_AT_MOST
