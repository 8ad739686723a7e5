"""The database work of live readers (websockets, HTTP streams): their token check, their game's lookup and the
reads of its events, on a few threads of the process's own.

Not through asgiref's ``sync_to_async`` (channels' ``database_sync_to_async``): that runs every call of a process
on one thread, one after another, and hands the call a copy of the reader's context, into which Django's
thread-sensitive locals (the connection handler, the URL conf) are stored and copied back, so that every reader
of a process kept a storage of its own for each of them (about 9 KB a socket, bench/README.md). Here the calls
run side by side on ``LIVE_DB_THREADS`` threads, each in its thread's own context, and each thread looks after its
database connection as Django looks after a request's (``close_old_connections`` before and after: a pooled
connection goes back to the pool, a persistent one is kept until it is due). What runs here takes its arguments
and gives back its answer; it must not count on the reader's context (its log bindings stay with the reader).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from django.conf import settings
from django.db import close_old_connections

T = TypeVar("T")

_executor: ThreadPoolExecutor | None = None


def executor() -> ThreadPoolExecutor:
    global _executor
    if _executor is None:
        _executor = ThreadPoolExecutor(max_workers=settings.LIVE_DB_THREADS, thread_name_prefix="dvorak-live")
    return _executor


def _with_connection(call: Callable[..., T], args: tuple) -> T:
    close_old_connections()
    try:
        return call(*args)
    finally:
        close_old_connections()


async def on_db_thread(call: Callable[..., T], *args: Any) -> T:
    """``call(*args)`` on one of the live threads, its database connection looked after."""
    return await asyncio.get_running_loop().run_in_executor(executor(), _with_connection, call, args)
