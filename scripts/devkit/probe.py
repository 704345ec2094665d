"""A raw JSON-RPC probe of a stdio MCP server: spawn it, initialize, list its tools, maybe call one.

It speaks the wire directly (no SDK client) so that it can check what an MCP client relies on:
every line the server writes on stdout is a JSON-RPC 2.0 message, and nothing else. Used by the
stdio test, the wheel smoke check of CI and the start-up benchmark.
"""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import anyio
from anyio.abc import Process
from anyio.streams.text import TextReceiveStream

PROTOCOL_VERSION = "2025-11-25"


class ProbeError(RuntimeError):
    """The server wrote something that is not JSON-RPC, or did not answer in time."""


@dataclass
class ProbeResult:
    """What the probe saw: the tools, an optional call result, timings and every stdout line."""

    tools: list[dict[str, Any]]
    call_result: dict[str, Any] | None
    seconds_to_tools: float
    stdout_lines: list[str] = field(default_factory=list[str])


class _Wire:
    def __init__(self, process: Process) -> None:
        self.process = process
        assert process.stdout is not None
        self.lines = TextReceiveStream(process.stdout)
        self.buffer = ""
        self.seen: list[str] = []

    async def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        await self.process.stdin.send((json.dumps({"jsonrpc": "2.0", **message}) + "\n").encode())

    async def answer(self, request_id: int) -> dict[str, Any]:
        """Read stdout until the answer to `request_id`, checking every line on the way."""
        while True:
            message = await self._next_message()
            if message.get("id") == request_id and "method" not in message:
                return message

    async def _next_message(self) -> dict[str, Any]:
        while "\n" not in self.buffer:
            self.buffer += await self.lines.receive()
        line, self.buffer = self.buffer.split("\n", 1)
        self.seen.append(line)
        try:
            message = json.loads(line)
        except ValueError:
            raise ProbeError(f"stdout carried a line that is not JSON: {line[:200]!r}") from None
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":  # pyright: ignore[reportUnknownMemberType]
            raise ProbeError(f"stdout carried a message that is not JSON-RPC 2.0: {line[:200]!r}")
        return message  # pyright: ignore[reportUnknownVariableType]  # checked to be a JSON object


async def probe(
    command: Sequence[str],
    env: Mapping[str, str],
    *,
    call: tuple[str, dict[str, Any]] | None = None,
    timeout: float = 30.0,
) -> ProbeResult:
    """Spawn `command`, initialize, list tools (and make `call`), then close stdin and wait for the exit."""
    started = time.perf_counter()
    with anyio.fail_after(timeout):
        async with await anyio.open_process(list(command), env=dict(env), stderr=subprocess.DEVNULL) as process:
            wire = _Wire(process)
            await wire.send({"id": 1, "method": "initialize", "params": _initialize_params()})
            await wire.answer(1)
            await wire.send({"method": "notifications/initialized"})
            await wire.send({"id": 2, "method": "tools/list"})
            tools = (await wire.answer(2))["result"]["tools"]
            seconds = time.perf_counter() - started
            call_result = None
            if call is not None:
                await wire.send({"id": 3, "method": "tools/call", "params": {"name": call[0], "arguments": call[1]}})
                call_result = (await wire.answer(3))["result"]
            assert process.stdin is not None
            await process.stdin.aclose()
            await process.wait()
    return ProbeResult(tools, call_result, seconds, wire.seen)


def _initialize_params() -> dict[str, Any]:
    return {
        "protocolVersion": PROTOCOL_VERSION,
        "capabilities": {},
        "clientInfo": {"name": "cursor-cloud-agents-probe", "version": "1"},
    }
