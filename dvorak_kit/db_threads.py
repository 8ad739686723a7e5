"""Threads of a server process's own that do database work for its event loop: the command threads of the fast
path (games/api/fast.py), and the live readers' (websockets, HTTP streams: their token check, their game's lookup
and the reads of its events, ``on_db_thread``). Each keeps its pooled connection for a while (``held``).

Not through asgiref's ``sync_to_async`` (channels' ``database_sync_to_async``): that runs every call of a process
on one thread, one after another, and hands the call a copy of the reader's context, into which Django's
thread-sensitive locals (the connection handler, the URL conf) are stored and copied back, so that every reader
of a process kept a storage of its own for each of them (about 9 KB a socket, bench/README.md). Here the calls
run side by side on ``LIVE_DB_THREADS`` threads, each in its thread's own context, and each thread looks after its
database connection as Django looks after a request's (``close_old_connections`` before and after: closed when
broken, when its transaction state was left changed, or when due), except that a pooled connection stays with the
thread for ``COMMAND_CONNECTION_SECONDS`` (``held``). What runs here takes its arguments and gives back its answer;
it must not count on the reader's context (its log bindings stay with the reader).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, close_old_connections, connections

T = TypeVar("T")

_executor: ThreadPoolExecutor | None = None


def held() -> None:
    """The thread's pooled connection, taken for a while: each command's checkout from the pool and return to it
    (psycopg_pool's lock and checks, Django's connection set-up) cost as much as one of the command's statements.
    It goes back to the pool when its time is up, so the pool's ``max_lifetime`` still recycles it; a connection
    that is not pooled (SQLite, or ``DB_CONN_MAX_AGE``) keeps Django's own rule."""
    db = connections[DEFAULT_DB_ALIAS]
    if not getattr(db, "pool", None):
        return
    if db.connection is None:
        db.connect()
        db.held_since = time.monotonic()
    db.close_at = getattr(db, "held_since", 0.0) + settings.COMMAND_CONNECTION_SECONDS


def executor() -> ThreadPoolExecutor:
    global _executor
    if _executor is None:
        # SQLite (the embedded default) takes one writer at a time and, in memory, locks a table a reader is on:
        # one thread, as asgiref's thread-sensitive calls were.
        threads = 1 if connections[DEFAULT_DB_ALIAS].vendor == "sqlite" else settings.LIVE_DB_THREADS
        _executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="dvorak-live")
    return _executor


def _with_connection(call: Callable[..., T], args: tuple) -> T:
    close_old_connections()
    held()
    try:
        return call(*args)
    finally:
        close_old_connections()


async def on_db_thread(call: Callable[..., T], *args: Any) -> T:
    """``call(*args)`` on one of the live threads, its database connection looked after."""
    return await asyncio.get_running_loop().run_in_executor(executor(), _with_connection, call, args)
