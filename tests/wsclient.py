"""A websocket client over a plain TCP socket (RFC 6455, text frames only), for tests against a real server.

The suite needs nothing outside the repository, and a socket's JSON messages are all these tests read.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
from urllib.parse import urlparse

OP_TEXT, OP_CLOSE, OP_PING, OP_PONG = 0x1, 0x8, 0x9, 0xA


class Closed(Exception):
    def __init__(self, code: int | None):
        super().__init__(f"the server closed the socket ({code})")
        self.code = code


class WebsocketClient:
    def __init__(self, url: str, *, timeout: float = 10):
        parts = urlparse(url)
        self.sock = socket.create_connection((parts.hostname, parts.port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        self.sock.sendall(
            f"GET {path} HTTP/1.1\r\nHost: {parts.hostname}:{parts.port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise Closed(None)
            head += chunk
        status = head.split(b"\r\n", 1)[0]
        if b" 101 " not in status:
            raise ConnectionError(f"handshake refused: {status.decode()}")

    def receive_json(self, timeout: float = 10) -> dict:
        """The next message from the server; pings are answered on the way."""
        self.sock.settimeout(timeout)
        while True:
            first, second = self._read(2)
            opcode, length = first & 0x0F, second & 0x7F
            if length == 126:
                (length,) = struct.unpack("!H", self._read(2))
            elif length == 127:
                (length,) = struct.unpack("!Q", self._read(8))
            payload = self._read(length)
            if opcode == OP_TEXT:
                return json.loads(payload)
            if opcode == OP_PING:
                self._send(OP_PONG, payload)
            elif opcode == OP_CLOSE:
                raise Closed(struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None)

    def close(self) -> None:
        try:
            self._send(OP_CLOSE, struct.pack("!H", 1000))
        except OSError:
            pass
        self.sock.close()

    def _read(self, count: int) -> bytes:
        data = b""
        while len(data) < count:
            chunk = self.sock.recv(count - len(data))
            if not chunk:
                raise Closed(None)
            data += chunk
        return data

    def _send(self, opcode: int, payload: bytes) -> None:
        """A control frame (under 126 bytes, as RFC 6455 has them), masked as a client's frames are."""
        mask = os.urandom(4)
        masked = bytes(byte ^ mask[i % 4] for i, byte in enumerate(payload))
        self.sock.sendall(bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + masked)
