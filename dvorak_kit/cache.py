"""The cache on Redis, falling back to this process's memory while Redis is away.

The cache holds the API's throttle counts (DRF's throttles read and write it on every request), so a cache that
raised when Redis went away would turn every request into a 500. Meanwhile each process counts on its own, which
still stops a client that floods one process; when Redis answers again the shared counts take over.
"""

from __future__ import annotations

import threading

from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import RedisError

from dvorak_kit.outage import Outage


def _fail_open(name: str):
    """Django's RedisCache method ``name``, on the process's own cache while Redis does not answer."""
    on_redis = getattr(RedisCache, name)

    def method(self, *args, **kwargs):
        if self.outage.worth_trying():
            try:
                result = on_redis(self, *args, **kwargs)
            except RedisError as error:
                self.outage.failed(error)
            else:
                self.outage.answered()
                return result
        return getattr(self.local, name)(*args, **kwargs)

    method.__name__ = name
    method.__doc__ = on_redis.__doc__
    return method


# One per Redis location and process: Django makes a cache object per thread, but an outage is the process's news
# (logged once), and the fallback counts are shared by the process's threads (LocMemCache shares by name).
_outages: dict[str, Outage] = {}
_outages_lock = threading.Lock()


def outage_of(server: str) -> Outage:
    with _outages_lock:
        return _outages.setdefault(server, Outage("Redis (the cache: throttle counts)"))


# The connection pools of each Redis location and options, shared by the process's cache objects. Django makes a
# cache object per thread, and under ASGI per request (each runs in a context of its own), and each object made its
# own pool: every API request under uvicorn opened a TCP connection to Redis for its throttle counts and closed it.
_pools: dict[tuple, dict] = {}
_pools_lock = threading.Lock()
# Each pool's client (``SharedPoolClient.get_client``).
_clients: dict = {}


class SharedPoolClient(RedisCacheClient):
    """Django's Redis client on the process's pools (redis-py's pools are thread-safe, and start afresh in a forked
    child), so a new cache object borrows a connection rather than opening one. Django's own code fills the shared
    dict on first use; two threads at once may each make a pool, and the one kept serves both after."""

    def __init__(self, servers, **options):
        super().__init__(servers, **options)
        key = (tuple(servers), tuple(sorted((name, repr(value)) for name, value in options.items())))
        with _pools_lock:
            self._pools = _pools.setdefault(key, {})

    def get_client(self, key=None, *, write=False):
        """The pool's client, made once: Django makes a ``redis.Redis`` for every call, and its making (its
        arguments checked, its retry and callbacks set up) took as long as a throttle's pipeline to build. A
        ``redis.Redis`` holds no connection of its own; each command borrows one from the pool."""
        pool = self._get_connection_pool(write)
        client = _clients.get(pool)
        if client is None:
            client = _clients.setdefault(pool, self._client(connection_pool=pool))
        return client


class FailOpenRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = SharedPoolClient
        self.local = LocMemCache(f"redis-fallback:{server}", params)
        self.outage = outage_of(server)

    # Every operation of Django's RedisCache; the rest of the cache API (get_or_set, decr, the async methods, …)
    # is built on these.
    get = _fail_open("get")
    set = _fail_open("set")
    add = _fail_open("add")
    touch = _fail_open("touch")
    delete = _fail_open("delete")
    get_many = _fail_open("get_many")
    set_many = _fail_open("set_many")
    delete_many = _fail_open("delete_many")
    has_key = _fail_open("has_key")
    incr = _fail_open("incr")
    clear = _fail_open("clear")

    def add_and_incr(self, key, delta: int, timeout: int) -> int:
        """``add(key, 0, timeout)`` then ``incr(key, delta)``, in one round trip: a fixed-window count (the
        throttles' shared counts). Django's ``incr`` alone is two (EXISTS, then INCRBY), so the three calls were
        three round trips, each with redis-py's own per-command work."""
        if self.outage.worth_trying():
            redis_key = self.make_and_validate_key(key)
            try:
                pipeline = self._cache.get_client(redis_key, write=True).pipeline(transaction=False)
                pipeline.set(redis_key, 0, ex=timeout, nx=True)  # as Django's serializer stores an int: as it is
                pipeline.incrby(redis_key, delta)
                _, total = pipeline.execute()
            except RedisError as error:
                self.outage.failed(error)
            else:
                self.outage.answered()
                return int(total)
        return add_and_incr(self.local, key, delta, timeout)


def add_and_incr(cache, key, delta: int, timeout: int) -> int:
    """``add`` then ``incr`` on any cache: in one round trip where the cache can (``FailOpenRedisCache``)."""
    if hasattr(cache, "add_and_incr"):
        return cache.add_and_incr(key, delta, timeout)
    cache.add(key, 0, timeout)
    try:
        return cache.incr(key, delta)
    except ValueError:  # the key expired between add and incr
        cache.set(key, delta, timeout)
        return delta
