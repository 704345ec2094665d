"""A small HTTP/1.1 server that runs an ASGI app on a real loopback socket it fully controls.

Why not uvicorn: socket-level faults (close after the request was applied, TCP reset, a cut in the
middle of the body, one byte at a time) need the bytes and the socket in our hands, start-up must
be instant, and shutdown with open streams must be bounded. This server reads requests with
Content-Length bodies (what API clients send), answers with Content-Length or chunked bodies,
keeps connections alive, and reports a client that went away as `http.disconnect`.
"""

from __future__ import annotations

import http
import logging
import socket
import struct
from collections.abc import MutableMapping
from typing import Any
from urllib.parse import unquote

import anyio
from anyio.abc import SocketAttribute, SocketStream
from starlette.types import ASGIApp, Message

from .asgi import replay_body
from .faults import SCOPE_KEY, Fault

logger = logging.getLogger("cursor_cloud_agents.simulator")
_MAX_HEAD = 64 * 1024
_GONE = (anyio.EndOfStream, anyio.BrokenResourceError, anyio.ClosedResourceError, ConnectionError, OSError)


class _Abort(Exception):
    """Raised inside `send` to stop the app when a socket fault breaks the connection."""


class _Connection:
    """A buffered reader/writer over one accepted socket."""

    def __init__(self, stream: SocketStream) -> None:
        self.stream = stream
        self.buffer = bytearray()
        self.eof = False

    async def fill(self) -> bool:
        """Read more bytes; False once the peer closed."""
        if self.eof:
            return False
        try:
            self.buffer += await self.stream.receive(65536)
        except _GONE:
            self.eof = True
        return not self.eof

    async def read_head(self) -> bytes | None:
        """The request line and headers, or None at a clean end of the connection."""
        while (end := self.buffer.find(b"\r\n\r\n")) < 0:
            if len(self.buffer) > _MAX_HEAD or not await self.fill():
                return None
        head = bytes(self.buffer[:end])
        del self.buffer[: end + 4]
        return head

    async def read_exactly(self, size: int) -> bytes | None:
        """`size` body bytes, or None if the peer closed first."""
        while len(self.buffer) < size:
            if not await self.fill():
                return None
        body = bytes(self.buffer[:size])
        del self.buffer[:size]
        return body

    def reset(self) -> None:
        """Make the coming close send a TCP RST instead of a FIN."""
        raw: socket.socket = self.stream.extra(SocketAttribute.raw_socket)
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))


def _parse_head(head: bytes, conn: _Connection) -> dict[str, Any] | None:
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ")
    if len(parts) != 3:
        return None
    method, target, version = parts
    headers = [_header(line) for line in lines[1:] if ":" in line]
    raw_path, _, query = target.partition("?")
    peer = conn.stream.extra(SocketAttribute.remote_address)
    local = conn.stream.extra(SocketAttribute.local_address)
    return {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": version.removeprefix("HTTP/"),
        "method": method.upper(),
        "scheme": "http",
        "path": unquote(raw_path),
        "raw_path": raw_path.encode("latin-1"),
        "query_string": query.encode("latin-1"),
        "root_path": "",
        "headers": headers,
        "client": peer[:2] if isinstance(peer, tuple) else None,
        "server": local[:2] if isinstance(local, tuple) else None,
        "state": {},
    }


def _header(line: str) -> tuple[bytes, bytes]:
    name, _, value = line.partition(":")
    return name.strip().lower().encode("latin-1"), value.strip().encode("latin-1")


def _get(scope: MutableMapping[str, Any], name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key == name:
            return value.decode("latin-1")
    return None


class _Responder:
    """Turns ASGI `send` messages into HTTP/1.1 bytes, applying the request's socket fault."""

    def __init__(self, conn: _Connection, scope: MutableMapping[str, Any]) -> None:
        self.conn = conn
        self.scope = scope
        self.started = False
        self.finished = False
        self.chunked = False
        self.body_sent = 0
        self.budget: int | None = None
        self.abort: str | None = None

    def _fault(self) -> Fault | None:
        fault = self.scope.get(SCOPE_KEY)
        return fault if isinstance(fault, Fault) else None

    async def send(self, message: MutableMapping[str, Any]) -> None:
        """ASGI send."""
        if self.abort is not None:
            raise _Abort(self.abort)
        if message["type"] == "http.response.start":
            await self._start(message)
        elif message["type"] == "http.response.body":
            await self._body(message.get("body", b""), bool(message.get("more_body", False)))

    async def _start(self, message: MutableMapping[str, Any]) -> None:
        fault = self._fault()
        if fault is not None and fault.socket in ("cut", "reset"):
            self.abort = fault.socket  # the world already applied the request: now break the line
            raise _Abort(fault.socket)
        status = int(message["status"])
        headers: list[tuple[bytes, bytes]] = list(message.get("headers", []))
        length = next((int(v) for k, v in headers if k.lower() == b"content-length"), None)
        self.chunked = length is None and status not in (204, 304) and self.scope["method"] != "HEAD"
        if self.chunked:
            headers.append((b"transfer-encoding", b"chunked"))
        if fault is not None and fault.socket == "cut_mid_body":
            self.budget = fault.cut_after_bytes or (max(1, length // 2) if length else 64)
        reason = _reason(status)
        lines = [f"HTTP/1.1 {status} {reason}".encode("latin-1")]
        lines += [k + b": " + v for k, v in headers]
        self.started = True
        await self._write(b"\r\n".join(lines) + b"\r\n\r\n", body=False)

    async def _body(self, data: bytes, more: bool) -> None:
        if self.chunked:
            framed = (f"{len(data):x}\r\n".encode() + data + b"\r\n") if data else b""
            data = framed if more else framed + b"0\r\n\r\n"
        if data:
            await self._write(data, body=True)
        self.finished = not more

    async def _write(self, data: bytes, *, body: bool) -> None:
        fault = self._fault()
        if body and self.budget is not None and self.body_sent + len(data) >= self.budget:
            await self.conn.stream.send(data[: self.budget - self.body_sent])
            self.abort = "cut"
            raise _Abort("cut")
        self.body_sent += len(data) if body else 0
        if fault is not None and fault.socket == "drip":
            await _drip(self.conn.stream, data, fault.drip_interval)
        else:
            await self.conn.stream.send(data)


def _reason(status: int) -> str:
    try:
        return http.HTTPStatus(status).phrase
    except ValueError:
        return "Unknown"


async def _drip(stream: SocketStream, data: bytes, interval: float) -> None:
    for index in range(len(data)):
        await stream.send(data[index : index + 1])
        await anyio.sleep(interval)


async def _run_app(app: ASGIApp, conn: _Connection, scope: MutableMapping[str, Any], body: bytes) -> _Responder:
    responder = _Responder(conn, scope)

    async def until_disconnect() -> Message:
        while await conn.fill():
            pass  # a pipelined request stays buffered; we only wait for the peer to go away
        return {"type": "http.disconnect"}

    try:
        await app(scope, replay_body(body, until_disconnect), responder.send)
    except Exception:
        if responder.abort is None and not conn.eof:
            logger.exception("simulator: unhandled error in %s %s", scope["method"], scope["path"])
            responder.abort = "cut"
    return responder


async def _one_request(app: ASGIApp, conn: _Connection) -> bool:
    """Serve one request; True when the connection can carry another."""
    head = await conn.read_head()
    scope = _parse_head(head, conn) if head is not None else None
    if scope is None:
        return False
    length = int(_get(scope, b"content-length") or 0)
    if _get(scope, b"expect") == "100-continue" and length:
        await conn.stream.send(b"HTTP/1.1 100 Continue\r\n\r\n")
    body = await conn.read_exactly(length)
    if body is None:
        return False
    responder = await _run_app(app, conn, scope, body)
    if responder.abort == "reset":
        conn.reset()
    keep = (_get(scope, b"connection") or "").lower() != "close" and scope["http_version"] == "1.1"
    return responder.abort is None and responder.finished and keep


async def handle_connection(app: ASGIApp, stream: SocketStream) -> None:
    """Serve requests on one connection until it closes or a fault breaks it."""
    conn = _Connection(stream)
    async with stream:
        try:
            while await _one_request(app, conn):
                pass
        except _GONE:
            logger.debug("simulator: client went away")
