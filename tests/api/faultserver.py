"""A raw-socket fault server on 127.0.0.1: reads one HTTP request, counts it, then misbehaves on purpose.

Used to prove what httpx2 really does on a socket (docs/reliability.md §1.12), which a MockTransport cannot.
"""

from __future__ import annotations

import asyncio
import socket
import struct
from collections.abc import AsyncGenerator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Literal

Mode = Literal["close", "reset", "cut_mid_body", "drip", "hang", "ok"]


def _no_lines() -> list[str]:
    return []


@dataclass
class FaultServer:
    """Counts requests by method; `mode` says what to do after reading each one."""

    mode: Mode
    drip_interval: float = 0.05
    requests: list[str] = field(default_factory=_no_lines)
    port: int = 0
    tasks: set[asyncio.Task[None]] = field(default_factory=lambda: set[asyncio.Task[None]]())

    def count(self, method: str) -> int:
        return sum(1 for line in self.requests if line.startswith(method + " "))

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self.tasks.add(task)
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":", 1)[1])
            if length:
                await reader.readexactly(length)
            self.requests.append(head.split(b"\r\n", 1)[0].decode())
            await self._misbehave(writer)
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            pass
        finally:
            writer.close()

    async def _misbehave(self, writer: asyncio.StreamWriter) -> None:
        if self.mode == "reset":
            sock: socket.socket = writer.get_extra_info("socket")
            # SO_LINGER with a zero timeout turns close() into a TCP RST.
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        elif self.mode == "cut_mid_body":
            writer.write(b"HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n")
            writer.write(b'{"agent": {"id": "bc_12')
            await writer.drain()
        elif self.mode == "drip":
            writer.write(b"HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n")
            for _ in range(100_000):
                writer.write(b" ")
                await writer.drain()
                await asyncio.sleep(self.drip_interval)
        elif self.mode == "hang":
            await asyncio.sleep(3600)
        elif self.mode == "ok":
            body = b'{"apiKeyName": "k"}'
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body))
            writer.write(body)
            await writer.drain()


@asynccontextmanager
async def fault_server(mode: Mode, *, drip_interval: float = 0.05) -> AsyncGenerator[FaultServer]:
    """Serve `mode` on an ephemeral 127.0.0.1 port for the block."""
    state = FaultServer(mode=mode, drip_interval=drip_interval)
    server = await asyncio.start_server(state.handle, "127.0.0.1", 0)
    state.port = server.sockets[0].getsockname()[1]
    try:
        yield state
    finally:
        server.close()
        for task in state.tasks:
            task.cancel()
        await asyncio.gather(*state.tasks, return_exceptions=True)
        await server.wait_closed()
