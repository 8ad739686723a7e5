"""Redis (as the cache, the channel layer or Celery's broker) may be away for a while; the API carries on.

PostgreSQL is the store of record, and nothing the service keeps in Redis is needed to answer a request: throttle
counts can live in a process's memory meanwhile, a live update can be dropped (sockets catch up from the event
store), and a lost build message is queued again by Celery beat. What must not happen is a request failing, or a
log line on every request while Redis is down: one warning when it goes, one line when it is back.
"""

from __future__ import annotations

import logging
import threading
import time

logger = logging.getLogger("dvorak.outage")


class Outage:
    """Whether one outside part answers, as its callers have found; it logs the changes, not each failure.

    While the part is away, callers ask it again at most once per ``retry_seconds`` (``worth_trying``), so a part
    that hangs rather than refuses costs one timeout per interval, not one per request.
    """

    def __init__(self, what: str, *, retry_seconds: float = 2.0):
        self.what = what
        self.retry_seconds = retry_seconds
        self.lock = threading.Lock()
        self.down_since: float | None = None
        self.next_try = 0.0

    @property
    def down(self) -> bool:
        return self.down_since is not None

    def worth_trying(self) -> bool:
        return self.down_since is None or time.monotonic() >= self.next_try

    def failed(self, error: BaseException) -> None:
        with self.lock:
            now = time.monotonic()
            self.next_try = now + self.retry_seconds
            if self.down_since is not None:
                return
            self.down_since = now
        logger.warning(
            "%s is unreachable (%s: %s); carrying on without it until it answers again.",
            self.what,
            type(error).__name__,
            error,
        )

    def answered(self) -> None:
        if self.down_since is None:
            return
        with self.lock:
            if self.down_since is None:
                return
            seconds = time.monotonic() - self.down_since
            self.down_since = None
        logger.warning("%s answers again, after %.1f s away.", self.what, seconds)
