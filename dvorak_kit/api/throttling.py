"""Throttles that count in the process and share their counts with the cache (Redis) in batches.

DRF's throttles read and write the cache on every request: a Redis round trip that every API call waits for.
These count each client's requests in the process (DRF's sliding window) and, at most every ``SYNC_SECONDS`` or
``SYNC_BATCH`` requests per client, add the requests not yet shared to a fixed-window count in the cache
(``throttle_<scope>_<ident>``; one round trip on Redis) and read back the total of every process. A client is
refused when this process's own count, or its share of the last total read plus what it has counted since, reaches
the rate. So a client that spreads its requests over several processes may get up to one batch per process past the
rate before the shared count catches it up. The cache fails open (dvorak_kit/cache.py): while Redis is away each process counts on its own.

Each answer tells its client where it stands (``RateLimit-Limit``, ``RateLimit-Remaining``, ``RateLimit-Reset``,
the IETF draft's names): a throttle that counts a request leaves its standing on the request (``RateLimit``), and
``rate_limit_headers`` gives the tightest one; an answer given before the throttles ran (a refused token, a
permission refused) gives the client's standing as it is, without counting it.
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass
from types import SimpleNamespace

from django.contrib.auth.models import AnonymousUser
from rest_framework import throttling
from rest_framework.settings import api_settings

from dvorak_kit.cache import add_and_incr

SYNC_SECONDS = 1.0
SYNC_BATCH = 20


class _Count:
    __slots__ = ("history", "pending", "shared", "synced_at", "window_ends")

    def __init__(self):
        self.history: list[float] = []  # this process's requests in the window, newest first
        self.pending = 0  # counted here, not yet added to the shared count
        self.shared = 0  # the shared count as last read (every process's)
        self.synced_at = 0.0
        self.window_ends = 0.0


_counts: dict[str, _Count] = {}
_lock = threading.Lock()
MAX_KEYS = 50_000


def reset() -> None:
    """Forget every count of this process (tests)."""
    with _lock:
        _counts.clear()


@dataclass(frozen=True)
class RateLimit:
    """A client's standing under one rate: requests a window (``limit``), how many more it may send now
    (``remaining``), and in how many seconds the count goes down (``reset``: the oldest request counted leaves the
    window, or the shared window ends; with nothing remaining, the wait ``Retry-After`` gives)."""

    limit: int
    remaining: int
    reset: int

    def headers(self) -> dict[str, str]:
        return {"RateLimit-Limit": str(self.limit), "RateLimit-Remaining": str(self.remaining),
                "RateLimit-Reset": str(self.reset)}


def _tighter(one: RateLimit | None, other: RateLimit) -> RateLimit:
    """Of two throttles counting one request (an anonymous one's address is under both rates), the one that will
    refuse it first."""
    if one is None or (other.remaining, -other.reset) < (one.remaining, -one.reset):
        return other
    return one


def _record(request, standing: RateLimit) -> None:
    # On Django's request, under DRF's: the response middleware and the command route read it there.
    http = getattr(request, "_request", request)
    http.rate_limit = _tighter(getattr(http, "rate_limit", None), standing)


class BatchedRateThrottleMixin:
    def allow_request(self, request, view):
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        self.now = self.timer()
        with _lock:
            count = _counts.get(self.key)
            if count is None:
                if len(_counts) >= MAX_KEYS:
                    _counts.clear()
                count = _counts[self.key] = _Count()
            history = count.history
            while history and history[-1] <= self.now - self.duration:
                history.pop()
            self.history = history
            if count.window_ends <= self.now:
                count.shared, count.window_ends = 0, self.now + self.duration
            total = max(len(history), count.shared + count.pending)
            if total >= self.num_requests:
                self.standing = self._standing(count, self.now)
                _record(request, self.standing)
                return self.throttle_failure()
            history.insert(0, self.now)
            count.pending += 1
            _record(request, self._standing(count, self.now))
            due = count.pending >= SYNC_BATCH or time.monotonic() - count.synced_at >= SYNC_SECONDS
            if due:
                pending, count.pending, count.synced_at = count.pending, 0, time.monotonic()
        if due:
            self._share(count, pending)
        return True

    def wait(self):
        """Seconds until this client may send again: when the count that refused it goes down (the shared window's
        end, when the other processes' requests filled it)."""
        return max(1, self.standing.reset)

    def _standing(self, count: _Count, now: float, *, trimmed: bool = True) -> RateLimit:
        """The client's standing by ``count`` at ``now`` (the caller holds the lock); ``trimmed``: the history
        holds only requests within the window (as ``allow_request`` leaves it)."""
        in_window = count.history if trimmed else [at for at in count.history if at > now - self.duration]
        shared = count.shared + count.pending if count.window_ends > now else count.pending
        if len(in_window) >= shared:
            used, frees_at = len(in_window), (in_window[-1] + self.duration if in_window else now)
        else:
            used, frees_at = shared, count.window_ends
        return RateLimit(limit=self.num_requests, remaining=max(0, self.num_requests - used),
                         reset=max(0, math.ceil(frees_at - now)))

    def standing_of(self, key: str) -> RateLimit:
        """The standing of the client counted under ``key``, without counting a request."""
        with _lock:
            count = _counts.get(key)
            if count is None:
                return RateLimit(limit=self.num_requests, remaining=self.num_requests, reset=0)
            return self._standing(count, self.timer(), trimmed=False)

    def _share(self, count: _Count, pending: int) -> None:
        shared = add_and_incr(self.cache, self.key, pending, max(1, int(self.duration)))
        with _lock:
            count.shared = max(int(shared), count.shared)


class UserRateThrottle(BatchedRateThrottleMixin, throttling.UserRateThrottle):
    pass


class AnonRateThrottle(BatchedRateThrottleMixin, throttling.AnonRateThrottle):
    pass


def rate_limit_headers(request) -> dict[str, str]:
    """The ``RateLimit-*`` headers of an answer to ``request`` (Django's or DRF's): the standing the throttles that
    counted it left; for a request answered before any throttle ran, the standing of its client under the default
    throttles (by its user, else its address), not counting it. Empty when no rate applies."""
    http = getattr(request, "_request", request)
    counted = getattr(http, "rate_limit", None)
    if counted is not None:
        return counted.headers()
    user = getattr(http, "user", None)
    client = SimpleNamespace(user=user if user is not None else AnonymousUser(), META=http.META, headers=http.headers)
    standing = None
    for throttle_class in api_settings.DEFAULT_THROTTLE_CLASSES:
        throttle = throttle_class()
        if not isinstance(throttle, BatchedRateThrottleMixin) or throttle.rate is None:
            continue
        key = throttle.get_cache_key(client, None)
        if key is not None:
            standing = _tighter(standing, throttle.standing_of(key))
    return standing.headers() if standing is not None else {}
