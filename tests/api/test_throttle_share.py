"""A throttle's shared count costs one Redis round trip, and counts as Django's add and incr did.

The throttles share their counts with Redis now and then (dvorak_kit/api/throttling.py). Django's ``add`` and
``incr`` are three round trips (SET NX, EXISTS, INCRBY); the cache's ``add_and_incr`` sends both in one."""

from __future__ import annotations

import pytest
import redis
from django.conf import settings as django_settings
from redis.connection import AbstractConnection

from dvorak_kit.api import throttling
from dvorak_kit.cache import add_and_incr
from tests.redisserver import cache_on

pytestmark = pytest.mark.redis


@pytest.fixture
def redis_cache(settings):
    settings.CACHES = cache_on(django_settings.REDIS_URL)
    from django.core.cache import caches

    cache = caches["default"]
    cache.delete("window")
    yield cache
    cache.delete("window")


@pytest.fixture
def round_trips(monkeypatch):
    """What redis-py sends, one entry a write to the socket (a pipeline's commands go in one)."""
    sent: list[int] = []
    send = AbstractConnection.send_packed_command

    def counted(self, command, check_health=True):
        sent.append(1)
        return send(self, command, check_health)

    monkeypatch.setattr(AbstractConnection, "send_packed_command", counted)
    return sent


def test_a_shared_count_is_one_round_trip_and_adds_up(redis_cache, round_trips):
    redis_cache.get("warm")  # the pool's connection made, and its handshake sent, before counting
    round_trips.clear()
    assert redis_cache.add_and_incr("window", 5, 60) == 5
    assert len(round_trips) == 1
    assert redis_cache.add_and_incr("window", 3, 60) == 8
    assert len(round_trips) == 2
    # The count is the cache's own value, read back as Django reads it, and it ends with its window.
    assert redis_cache.get("window") == 8
    ttl = redis.Redis.from_url(django_settings.REDIS_URL).ttl(redis_cache.make_and_validate_key("window"))
    assert 0 < ttl <= 60


def test_a_shared_count_keeps_its_window_when_added_to(redis_cache):
    redis_cache.add_and_incr("window", 1, 60)
    server = redis.Redis.from_url(django_settings.REDIS_URL)
    key = redis_cache.make_and_validate_key("window")
    server.expire(key, 5)
    redis_cache.add_and_incr("window", 1, 60)  # the window is fixed: a later share does not push its end
    assert 0 < server.ttl(key) <= 5
    assert redis_cache.get("window") == 2


def test_the_same_count_on_a_cache_without_the_one_round_trip_form(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "throttle-share-test"}}
    from django.core.cache import caches

    cache = caches["default"]
    assert not hasattr(cache, "add_and_incr")
    assert add_and_incr(cache, "window", 4, 60) == 4
    assert add_and_incr(cache, "window", 2, 60) == 6


def test_a_throttles_share_on_redis_is_one_round_trip(redis_cache, round_trips, monkeypatch):
    monkeypatch.setattr(throttling.UserRateThrottle, "cache", redis_cache)
    monkeypatch.setattr(throttling, "SYNC_BATCH", 4)
    monkeypatch.setattr(throttling, "SYNC_SECONDS", 1e12)  # shared by the batch alone
    throttling.reset()

    class User:
        pk, is_authenticated = 7_000_001, True

    class Request:
        user, META = User(), {"REMOTE_ADDR": "127.0.0.1"}

    redis_cache.get("warm")
    round_trips.clear()
    throttle = throttling.UserRateThrottle()
    for _ in range(8):
        assert throttle.allow_request(Request(), None)
    # Two batches of four shared: one round trip each (three each with Django's add and incr).
    assert len(round_trips) == 2
    assert redis_cache.get(throttle.cache_format % {"scope": "user", "ident": User.pk}) == 8
    throttling.reset()


def test_every_cache_object_of_a_process_uses_one_client_per_pool(redis_cache):
    """Django makes a redis-py client on every cache call (its making cost more than the call's round trip); the
    cache makes one per pool and keeps it, for every cache object of the process (one a thread, under ASGI one a
    request), and the client still serves whatever it is asked."""
    from django.core.cache.backends.base import BaseCache

    from dvorak_kit.cache import FailOpenRedisCache

    first = redis_cache._cache.get_client("window", write=True)
    assert redis_cache._cache.get_client("other", write=True) is first
    params = dict(django_settings.CACHES["default"])  # as Django's cache handler makes a thread's cache object
    params.pop("BACKEND")
    another = FailOpenRedisCache(params.pop("LOCATION"), params)
    assert isinstance(another, BaseCache) and another is not redis_cache
    assert another._cache.get_client(write=True) is first
    redis_cache.set("window", 3)
    assert another.get("window") == 3
    assert another.add_and_incr("window", 2, 60) == 5
