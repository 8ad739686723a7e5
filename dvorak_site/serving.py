"""gunicorn's uvicorn worker, with each worker taking its turn at the shared listening socket.

gunicorn's workers share one listening socket. uvicorn's server (uvloop's or asyncio's) accepts every connection
waiting each time the socket wakes it, so when clients connect at once (a load balancer's pool opening its
keep-alive connections, the bench's clients) the first worker awake takes them all and keeps them: under the card
commands' bench one of two workers held 411 ticks of CPU in 5 s, its GIL saturated, and the other 87. This worker
accepts one connection each time the socket is ready, and only when no other live worker holds fewer open
connections (each worker writes its count into memory the workers share) or the connection has waited
``DEFER_AT_MOST``; then it goes back to its loop before the next. The same 16 connections now split 8/8 or near it.

Each connection's writes made in one turn of the loop leave together (``WritesTogether``): uvicorn writes a response's
head and body apart, two sends and, with TCP_NODELAY, two packets, the client woken for each.

    GUNICORN_WORKER_CLASS=dvorak_site.serving.UvicornWorker gunicorn -c deploy/gunicorn.conf.py dvorak_site.asgi:application
"""

from __future__ import annotations

import asyncio
import errno
import logging
import multiprocessing
import os
import socket
import sys
import time

from gunicorn.arbiter import Arbiter
from uvicorn.server import Server
from uvicorn_worker import UvicornWorker as BaseUvicornWorker

logger = logging.getLogger("uvicorn.error")

# accept()'s failures that say the process or system is out of something: waited out, not the end of the server.
EXHAUSTED = {errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM}
# How long the socket is left alone after such a failure, in seconds.
EXHAUSTED_PAUSE = 0.1


# Each worker's open connections, in memory the workers share (made before gunicorn forks them, when it loads this
# worker class): a slot each, holding (pid, connections).
SLOTS = 64
SHARED = multiprocessing.RawArray("q", 2 * SLOTS)
# How long a worker leaves a waiting connection to a worker holding fewer, in seconds: then it takes it anyway (the
# other may be busy, or stopped).
DEFER_AT_MOST = 0.003
DEFER_STEP = 0.0005


class Slot:
    """This worker's place in ``SHARED``: it writes its count there, and reads the others'."""

    def __init__(self, number: int):
        self.pid = os.getpid()
        for index in [number % SLOTS, *range(SLOTS)]:
            pid = SHARED[2 * index]
            if pid in (0, self.pid) or not alive(pid):
                self.index = index
                break
        else:
            self.index = None  # more workers than slots: this one takes what comes, as uvicorn's would
        self.write(0)

    def write(self, count: int) -> None:
        if self.index is not None:
            SHARED[2 * self.index], SHARED[2 * self.index + 1] = self.pid, count

    def fewest_elsewhere(self) -> int | None:
        """The fewest connections a live worker other than this one holds; a stopped worker's slot is freed."""
        while True:
            fewest = None
            for index in range(SLOTS):
                pid, count = SHARED[2 * index], SHARED[2 * index + 1]
                if pid and index != self.index and (fewest is None or count < fewest[0]):
                    fewest = (count, index, pid)
            if fewest is None:
                return None
            count, index, pid = fewest
            if alive(pid):
                return count
            SHARED[2 * index] = 0

    def release(self) -> None:
        if self.index is not None and SHARED[2 * self.index] == self.pid:
            SHARED[2 * self.index] = 0


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class OneAtATime:
    """A listening socket watched by a loop, one connection accepted each time it is ready, and only when this
    worker holds no more connections than the least busy other (or the connection has waited ``DEFER_AT_MOST``);
    its connections served by ``protocol_factory``. Closed as asyncio's servers are (``close``, ``wait_closed``)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, sock: socket.socket, protocol_factory, connections: set,
                 slot: Slot, ssl=None):
        self.loop, self.sock, self.protocol_factory, self.ssl = loop, sock, protocol_factory, ssl
        self.connections, self.slot = connections, slot
        self.sock.setblocking(False)
        self.tcp = sock.family in (socket.AF_INET, socket.AF_INET6)
        self.serving = True
        self.deferred_since: float | None = None
        self.loop.add_reader(sock.fileno(), self._ready)

    def _ready(self) -> None:
        mine = len(self.connections)
        self.slot.write(mine)
        fewest = self.slot.fewest_elsewhere()
        if fewest is not None and mine > fewest:
            now = time.monotonic()
            if self.deferred_since is None:
                self.deferred_since = now
            if now - self.deferred_since < DEFER_AT_MOST:
                self._pause(DEFER_STEP)
                return
        self.deferred_since = None
        try:
            connection, _ = self.sock.accept()
        except (BlockingIOError, InterruptedError, ConnectionAbortedError):
            return  # another worker took it, or the client gave up while waiting
        except OSError as error:
            if error.errno not in EXHAUSTED:
                raise
            logger.warning("Could not accept a connection (%s); pausing %.1fs", error, EXHAUSTED_PAUSE)
            self._pause(EXHAUSTED_PAUSE)
            return
        self.slot.write(mine + 1)
        connection.setblocking(False)
        if self.tcp:
            connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.loop.create_task(self._serve(connection))

    async def _serve(self, connection: socket.socket) -> None:
        try:
            await self.loop.connect_accepted_socket(self.protocol_factory, connection, ssl=self.ssl)
        except OSError as error:  # the client went away before its connection (or TLS handshake) was set up
            logger.debug("Connection lost while being set up: %s", error)
            connection.close()

    def _pause(self, seconds: float) -> None:
        self.loop.remove_reader(self.sock.fileno())
        self.loop.call_later(seconds, self._resume)

    def _resume(self) -> None:
        if self.serving:
            self.loop.add_reader(self.sock.fileno(), self._ready)

    def close(self) -> None:
        if self.serving:
            self.serving = False
            self.loop.remove_reader(self.sock.fileno())

    async def wait_closed(self) -> None:
        return None


class WritesTogether:
    """A connection's transport whose writes made in one turn of the loop leave together, in one ``send``: uvicorn
    writes a response's head and its body apart, and with TCP_NODELAY each went out as a packet of its own, the
    client woken for each. What is written is flushed at the end of the turn (``call_soon``), and before a close."""

    __slots__ = ("transport", "loop", "pending")

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop):
        self.transport, self.loop, self.pending = transport, loop, None

    def write(self, data) -> None:
        if self.pending is None:
            self.pending = [bytes(data)]
            self.loop.call_soon(self.flush)
        else:
            self.pending.append(bytes(data))

    def writelines(self, lines) -> None:
        for data in lines:
            self.write(data)

    def flush(self) -> None:
        pending, self.pending = self.pending, None
        if pending and not self.transport.is_closing():
            self.transport.write(pending[0] if len(pending) == 1 else b"".join(pending))

    def get_write_buffer_size(self) -> int:
        return self.transport.get_write_buffer_size() + sum(len(data) for data in self.pending or ())

    def close(self) -> None:
        self.flush()
        self.transport.close()

    def write_eof(self) -> None:
        self.flush()
        self.transport.write_eof()

    def abort(self) -> None:
        self.pending = None
        self.transport.abort()

    def __getattr__(self, name: str):
        return getattr(self.transport, name)


def writing_together(protocol: asyncio.Protocol, loop: asyncio.AbstractEventLoop) -> asyncio.Protocol:
    """``protocol`` given its transport as ``WritesTogether`` (and so, after an upgrade, its websocket's too)."""
    made = protocol.connection_made
    protocol.connection_made = lambda transport: made(WritesTogether(transport, loop))
    return protocol


class TakingTurnsServer(Server):
    """uvicorn's server, accepting on the sockets handed to it (gunicorn's) one connection at a time, as
    ``OneAtATime`` rules; ``number`` (gunicorn's worker age) picks the slot it tries first. It stops when its
    ``parent`` (gunicorn's master) is gone, as gunicorn's own sync workers do: uvicorn's worker went on serving,
    orphaned, after its master was killed."""

    def __init__(self, config, number: int = 0, parent: int | None = None):
        super().__init__(config)
        self.number, self.parent = number, parent
        self.slot: Slot | None = None

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        if sockets is None:
            return await super().startup(sockets)
        await super().startup(sockets=[])  # the application's lifespan; no listening yet
        loop = asyncio.get_running_loop()
        config = self.config

        def protocol_factory():
            return writing_together(config.http_protocol_class(config=config, server_state=self.server_state,
                                                               app_state=self.lifespan.state, _loop=loop), loop)

        self.slot = Slot(self.number)
        self.servers = [OneAtATime(loop, sock, protocol_factory, self.server_state.connections, self.slot,
                                   ssl=config.ssl) for sock in sockets]

    async def on_tick(self, counter: int) -> bool:
        if self.parent is not None and os.getppid() != self.parent and not self.should_exit:
            logger.warning("The gunicorn master (pid %s) is gone: worker %s stops.", self.parent, os.getpid())
            self.should_exit = True
        if self.slot is not None:  # its count kept true as its connections close
            self.slot.write(len(self.server_state.connections))
        return await super().on_tick(counter)

    async def shutdown(self, sockets=None) -> None:
        await super().shutdown(sockets)
        if self.slot is not None:
            self.slot.release()


class UvicornWorker(BaseUvicornWorker):
    """``uvicorn_worker.UvicornWorker`` serving with ``TakingTurnsServer``, its websockets on the ``websockets``
    library's sans-I/O protocol rather than its legacy one (uvicorn's default where ``websockets`` is installed):
    the legacy protocol keeps three tasks and their events a socket, the sans-I/O one none, which is about a fifth
    less memory and CPU a socket at 5,000 sockets (bench/README.md, "Live updates at scale")."""

    CONFIG_KWARGS = {**BaseUvicornWorker.CONFIG_KWARGS, "ws": "websockets-sansio"}

    async def _serve(self) -> None:
        self.config.app = self.wsgi
        server = TakingTurnsServer(config=self.config, number=self.age, parent=self.ppid)
        self._install_sigquit_handler()
        await server.serve(sockets=self.sockets)
        if not server.started:
            sys.exit(Arbiter.WORKER_BOOT_ERROR)
