"""`cursor-cloud-agents demo`: the tools walked through a real MCP client, over stdio, against the simulator.

The demo starts this package's own server as a subprocess, in simulated mode with writes allowed in
that server's environment only, and prints every call and a short view of its answer. It is a
client of the server, so printing to stdout is its job.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

import anyio
from mcp import Client, StdioServerParameters
from mcp_types import CallToolResult

VIEW_CHARS = 160


def _server() -> StdioServerParameters:
    env = {
        "CURSOR_MCP_FIXTURE": "1",
        "CURSOR_MCP_ALLOW_WRITES": "1",
        "CURSOR_MCP_ALLOW_DELETE": "1",
        "CURSOR_MCP_LOG_LEVEL": "WARNING",
    }
    return StdioServerParameters(command=sys.executable, args=["-m", "cursor_cloud_agents"], env=env)


def _say(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def _view(result: CallToolResult) -> str:
    text = json.dumps(result.structured_content, separators=(",", ":"))
    short = text if len(text) <= VIEW_CHARS else text[:VIEW_CHARS] + "…"
    return ("error " if result.is_error else "") + short + f"  ({len(text)} bytes)"


class Walk:
    """One demo session: calls tools, prints each call and its answer, remembers the largest result."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.largest = 0

    async def call(self, tool: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        arguments = arguments or {}
        _say(f"→ {tool} {json.dumps(arguments, separators=(',', ':'))}")
        result = await self.client.call_tool(tool, arguments)
        self.largest = max(self.largest, len(result.content[0].text) if result.content else 0)  # type: ignore[union-attr]
        _say(f"  ← {_view(result)}")
        return dict(result.structured_content or {})


async def _walk() -> None:
    started = time.perf_counter()
    _say("Starting the MCP server over stdio in SIMULATED MODE (nothing is real or billed).")
    async with Client(_server(), mode="legacy") as client:
        info = client.server_info
        _say(f"initialize → {info.name if info else '?'} {info.version if info else ''}")
        tools = await client.list_tools()
        _say(f"tools/list → {len(tools.tools)} tools: {', '.join(tool.name for tool in tools.tools)}")
        walk = Walk(client)
        await walk.call("cursor_get_account")
        _say(f"Done in {time.perf_counter() - started:.1f} s; largest result {walk.largest} bytes.")


def run_demo() -> int:
    """Run the demo; returns the exit code."""
    anyio.run(_walk)
    return 0
