"""Throttles that count in the process and share their counts with the cache (Redis) in batches.

DRF's throttles read and write the cache on every request: a Redis round trip that every API call waits for.
These count each client's requests in the process (DRF's sliding window) and, at most every ``SYNC_SECONDS`` or
``SYNC_BATCH`` requests per client, add the requests not yet shared to a fixed-window count in the cache
(``throttle_<scope>_<ident>``; one round trip on Redis) and read back the total of every process. A client is
refused when this process's own count, or its share of the last total read plus what it has counted since, reaches
the rate. So a client that spreads its requests over several processes may get up to one batch per process past the
rate before the shared count catches it up. The cache fails open (dvorak_kit/cache.py): while Redis is away each process counts on its own.
"""

from __future__ import annotations

import threading
import time

from rest_framework import throttling

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
                return self.throttle_failure()
            history.insert(0, self.now)
            count.pending += 1
            due = count.pending >= SYNC_BATCH or time.monotonic() - count.synced_at >= SYNC_SECONDS
            if due:
                pending, count.pending, count.synced_at = count.pending, 0, time.monotonic()
        if due:
            self._share(count, pending)
        return True

    def _share(self, count: _Count, pending: int) -> None:
        shared = add_and_incr(self.cache, self.key, pending, max(1, int(self.duration)))
        with _lock:
            count.shared = max(int(shared), count.shared)


class UserRateThrottle(BatchedRateThrottleMixin, throttling.UserRateThrottle):
    pass


class AnonRateThrottle(BatchedRateThrottleMixin, throttling.AnonRateThrottle):
    pass
