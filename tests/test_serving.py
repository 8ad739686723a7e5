"""The ASGI workers share out their connections (dvorak_site/serving.py).

With uvicorn's own gunicorn worker, clients connecting together all went to the first worker awake; these tests
start gunicorn with two of the project's workers and count each one's connections, and check the rule each worker
follows at the shared socket: take a connection only when no other live worker holds fewer, unless it has waited.
"""

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dvorak_site import serving

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="counts connections through Linux's /proc")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def established_on(port: int) -> dict[int, int]:
    """Socket inode -> 1 for each established TCP connection whose local port is ``port``."""
    inodes = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == "01":
                inodes[int(fields[9])] = 1
    return inodes


def connections_of(pid: int, port: int) -> int:
    inodes = established_on(port)
    count = 0
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:[") and int(target[8:-1]) in inodes:
            count += 1
    return count


@pytest.fixture
def gunicorn_two_workers(tmp_path):
    """gunicorn with two of the project's workers, on SQLite and the in-memory layer (what is counted here needs no
    more; the suite's own database is pytest's, which a server process would not find); stopped, workers and all,
    after."""
    with gunicorn_workers(tmp_path, LOG_LEVEL="WARNING") as running:
        yield running


@contextlib.contextmanager
def gunicorn_workers(tmp_path, **settings):
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key not in {"DATABASE_URL", "REDIS_URL"}}
    env.update({"GUNICORN_BIND": f"127.0.0.1:{port}", "GUNICORN_WORKERS": "2",
                "GUNICORN_WORKER_CLASS": "dvorak_site.serving.UvicornWorker", "DJANGO_DEBUG": "1",
                "DJANGO_SECURE_SSL_REDIRECT": "0", "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
                **settings})
    log = (tmp_path / "gunicorn.log").open("w")
    process = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py",
                                "dvorak_site.asgi:application"], cwd=ROOT, env=env, stdout=log, stderr=log,
                               start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        log_text = tmp_path / "gunicorn.log"
        while log_text.read_text().count("Application startup complete") < 2 or not answers(port):
            assert process.poll() is None, (tmp_path / "gunicorn.log").read_text()
            assert time.monotonic() < deadline, "gunicorn did not start"
            time.sleep(0.2)
        yield process, port
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        log.close()


def answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as sock:
            sock.sendall(b"GET /api/v1/health/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            return sock.recv(12).startswith(b"HTTP/1.1")
    except OSError:
        return False


async def open_together(port: int, count: int) -> list:
    """``count`` keep-alive connections opened at once, each having had one answer."""

    async def one():
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET /api/v1/health/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        await writer.drain()
        assert (await reader.readline()).startswith(b"HTTP/1.1 ")
        return writer

    return await asyncio.gather(*(one() for _ in range(count)))


def test_connections_opened_together_are_shared_between_the_workers(gunicorn_two_workers):
    process, port = gunicorn_two_workers
    workers = children(process.pid)

    async def scenario() -> list[list[int]]:
        counts = []
        for _ in range(3):
            writers = await open_together(port, 16)
            counts.append([connections_of(pid, port) for pid in workers])
            for writer in writers:
                writer.close()
            await asyncio.sleep(0.5)  # closed, and each worker's count written again (it ticks every 0.1 s)
        return counts

    for counts in asyncio.run(scenario()):
        assert sum(counts) == 16
        assert min(counts) >= 4, f"16 connections opened together went {counts} to the two workers"

    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=30) == 0  # the workers' graceful shutdown closes what they listen with


def test_the_workers_stop_when_their_master_is_killed(gunicorn_two_workers):
    process, port = gunicorn_two_workers
    workers = children(process.pid)
    process.kill()
    process.wait()
    deadline = time.monotonic() + 30
    while not all(map(gone, workers)):
        assert time.monotonic() < deadline, f"workers {workers} still serve after their master was killed"
        time.sleep(0.1)
    assert not answers(port)


def gone(pid: int) -> bool:
    """The process has exited (a zombie waiting for its new parent counts as exited)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] == "Z"


class Recorded(asyncio.Protocol):
    made: list = []

    def connection_made(self, transport):
        Recorded.made.append(transport)


@pytest.fixture
def listening():
    """A listening socket, this process's slot (number 1), and a loop; the shared slots cleared after."""
    sock = socket.create_server(("127.0.0.1", 0))
    loop = asyncio.new_event_loop()
    Recorded.made = []
    slot = serving.Slot(1)
    yield sock, loop, slot
    for transport in Recorded.made:
        transport.close()
    loop.run_until_complete(asyncio.sleep(0))
    loop.close()
    sock.close()
    for index in range(len(serving.SHARED)):
        serving.SHARED[index] = 0


def other_worker(pid: int, connections: int, index: int = 5) -> None:
    serving.SHARED[2 * index], serving.SHARED[2 * index + 1] = pid, connections


def run_a_while(loop, seconds: float = 0.2) -> None:
    loop.run_until_complete(asyncio.sleep(seconds))


@pytest.fixture
def live_other():
    """A live process standing for another worker (it never accepts anything), with its slot in ``SHARED``."""
    with subprocess.Popen(["sleep", "60"]) as other:
        yield other.pid
        other.kill()


def test_a_worker_leaves_a_connection_to_a_live_worker_holding_fewer(listening, live_other, monkeypatch):
    sock, loop, slot = listening
    monkeypatch.setattr(serving, "DEFER_AT_MOST", 60)
    other_worker(live_other, 0)
    acceptor = serving.OneAtATime(loop, sock, Recorded, connections={"a", "b"}, slot=slot)
    with socket.create_connection(sock.getsockname()):
        run_a_while(loop)
        assert Recorded.made == []  # 2 here, 0 there: left for the other worker
        assert serving.SHARED[2 * slot.index: 2 * slot.index + 2] == [os.getpid(), 2]

        other_worker(live_other, 3)  # the other now holds more
        run_a_while(loop)
        assert len(Recorded.made) == 1
    acceptor.close()


def test_a_connection_left_waiting_too_long_is_taken_anyway(listening, live_other, monkeypatch):
    sock, loop, slot = listening
    monkeypatch.setattr(serving, "DEFER_AT_MOST", 0.05)
    other_worker(live_other, 0)  # holds fewer, but never accepts
    acceptor = serving.OneAtATime(loop, sock, Recorded, connections={"a", "b"}, slot=slot)
    with socket.create_connection(sock.getsockname()):
        run_a_while(loop, 1)
        assert len(Recorded.made) == 1
    acceptor.close()


def test_a_stopped_workers_place_is_freed_and_not_deferred_to(listening, monkeypatch):
    sock, loop, slot = listening
    monkeypatch.setattr(serving, "DEFER_AT_MOST", 60)
    stopped = subprocess.Popen(["true"])
    stopped.wait()
    other_worker(stopped.pid, 0)
    acceptor = serving.OneAtATime(loop, sock, Recorded, connections={"a", "b"}, slot=slot)
    client = socket.create_connection(sock.getsockname())
    run_a_while(loop)
    assert len(Recorded.made) == 1
    assert serving.SHARED[10] == 0  # its slot is free for the next worker
    acceptor.close()
    client.close()


def test_a_new_worker_takes_a_free_slot_and_gives_it_back(listening):
    _, _, slot = listening
    other_worker(os.getppid(), 7, index=2)  # slot 2 held by a live process
    second = serving.Slot(2)
    assert second.index not in (2, slot.index)
    second.release()
    assert serving.SHARED[2 * second.index] == 0


class RecordingTransport:
    """What a connection's transport was asked to do, in order."""

    def __init__(self):
        self.calls: list[tuple] = []
        self.closing = False

    def write(self, data) -> None:
        self.calls.append(("write", bytes(data)))

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True
        self.calls.append(("close",))

    def abort(self) -> None:
        self.closing = True
        self.calls.append(("abort",))

    def get_write_buffer_size(self) -> int:
        return 0

    def get_extra_info(self, name, default=None):
        return ("127.0.0.1", 1234) if name == "peername" else default


def test_writes_of_one_turn_of_the_loop_leave_together_and_a_close_sends_them_first():
    loop = asyncio.new_event_loop()
    try:
        raw = RecordingTransport()
        transport = serving.WritesTogether(raw, loop)
        transport.write(b"HTTP/1.1 201 Created\r\ncontent-length: 2\r\n\r\n")
        transport.write(memoryview(b"{}"))
        assert raw.calls == [] and transport.get_write_buffer_size() == 45
        assert transport.get_extra_info("peername") == ("127.0.0.1", 1234)  # the rest is the transport's own
        run_a_while(loop, 0.01)
        assert raw.calls == [("write", b"HTTP/1.1 201 Created\r\ncontent-length: 2\r\n\r\n{}")]

        transport.write(b"last words")
        transport.close()
        assert raw.calls[1:] == [("write", b"last words"), ("close",)]
        run_a_while(loop, 0.01)  # nothing written twice, nothing after the close
        assert len(raw.calls) == 3

        aborted = RecordingTransport()
        transport = serving.WritesTogether(aborted, loop)
        transport.write(b"never sent")
        transport.abort()
        run_a_while(loop, 0.01)
        assert aborted.calls == [("abort",)]
    finally:
        loop.close()


def test_a_websocket_is_served_through_the_workers(gunicorn_two_workers):
    """After an upgrade the websocket's protocol writes through the same transport: the handshake's answer comes,
    then the socket's own close (4401: no token)."""
    _, port = gunicorn_two_workers
    head, frame = websocket_opened(port, "/ws/games/00000000-0000-0000-0000-000000000000/")
    assert head.startswith(b"HTTP/1.1 101 Switching Protocols\r\n"), head
    assert b"Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=" in head
    assert frame[0] == 0x88 and int.from_bytes(frame[2:4], "big") == 4401, frame  # a close frame, code 4401


def test_the_servers_log_a_websockets_path_without_its_credential(tmp_path):
    """The workers' own lines about a socket name its path, never its query string, where its token travels."""
    ticket = "42.5e5e5e5e:forged:signature"  # refused before any database is asked (this server's has no tables)
    with gunicorn_workers(tmp_path, LOG_LEVEL="INFO") as (_, port):
        head, frame = websocket_opened(port, f"/ws/games/00000000-0000-0000-0000-000000000000/?ticket={ticket}")
        assert int.from_bytes(frame[2:4], "big") == 4401, (head, frame)  # not signed in
        time.sleep(0.5)
    log = (tmp_path / "gunicorn.log").read_text()
    assert '"WebSocket /ws/games/00000000-0000-0000-0000-000000000000/"' in log  # uvicorn's line, still there
    assert ticket not in log and "ticket=" not in log


def websocket_opened(port: int, path: str) -> tuple[bytes, bytes]:
    """A websocket handshake sent by hand: the answer's head, and the first frame after it."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n".encode() +
                     b"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                     b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")
        answer = b""
        while b"\r\n\r\n" not in answer or len(answer.split(b"\r\n\r\n", 1)[1]) < 4:
            chunk = sock.recv(4096)
            assert chunk, answer
            answer += chunk
    head, frame = answer.split(b"\r\n\r\n", 1)
    return head, frame
