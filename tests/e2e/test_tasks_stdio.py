"""MCP Tasks over stdio (issue 11): a raw JSON-RPC client speaking 2026-07-28 to the spawned server.

The server runs in simulated mode; its embedded world has agents whose latest run has ended, so a wait
on one completes at once, and the task's result can be compared with the inline answer byte for byte.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import anyio
import pytest
from anyio.abc import Process
from anyio.streams.text import TextReceiveStream

pytestmark = pytest.mark.anyio

TASKS = "io.modelcontextprotocol/tasks"


class Wire:
    """JSON-RPC lines written and read by hand, every request carrying the 2026-07-28 `_meta`."""

    def __init__(self, process: Process) -> None:
        assert process.stdin is not None and process.stdout is not None
        self.process = process
        self.lines = TextReceiveStream(process.stdout)
        self.buffer = ""
        self.next_id = 0

    async def request(self, method: str, params: dict[str, Any], *, tasks: bool = True) -> dict[str, Any]:
        self.next_id += 1
        meta: dict[str, Any] = {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "stdio-tasks-test", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": {"extensions": {TASKS: {}}} if tasks else {},
        }
        body: dict[str, Any] = {
            "jsonrpc": "2.0",
            "id": self.next_id,
            "method": method,
            "params": params | {"_meta": meta},
        }
        assert self.process.stdin is not None
        await self.process.stdin.send((json.dumps(body) + "\n").encode())
        while True:
            while "\n" not in self.buffer:
                self.buffer += await self.lines.receive()
            line, self.buffer = self.buffer.split("\n", 1)
            message: dict[str, Any] = json.loads(line)
            if message.get("id") == self.next_id:
                answer: dict[str, Any] = message.get("result") or message["error"]
                return answer


async def test_a_task_over_stdio_completes_with_exactly_the_inline_answer() -> None:
    """Issue 11: server/discover advertises the extension; a declared wait answers resultType task;
    tasks/get reaches completed; its result equals the inline answer; an unknown task id is -32602."""
    env = {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "CURSOR_MCP_FIXTURE": "1"}
    command = [sys.executable, "-m", "cursor_cloud_agents"]
    with anyio.fail_after(30):
        async with await anyio.open_process(command, env=env, stderr=subprocess.DEVNULL) as process:
            wire = Wire(process)
            discovered = await wire.request("server/discover", {})
            listed = await wire.request("tools/call", {"name": "cursor_list_agents", "arguments": {"limit": 1}})
            agent = listed["structuredContent"]["agents"][0]
            arguments = {"agent_id": agent["id"], "run_id": agent["latest_run_id"], "wait_seconds": 5}
            created = await wire.request("tools/call", {"name": "cursor_get_run", "arguments": arguments})
            task = created
            while task["status"] == "working":
                await anyio.sleep(0.05)
                task = await wire.request("tasks/get", {"taskId": created["taskId"]})
            inline = await wire.request("tools/call", {"name": "cursor_get_run", "arguments": arguments}, tasks=False)
            unknown = await wire.request("tasks/get", {"taskId": "no-such-task"})
            assert process.stdin is not None
            await process.stdin.aclose()
    assert discovered["capabilities"]["extensions"] == {TASKS: {}}
    assert created["resultType"] == "task" and task["status"] == "completed"
    assert task["result"]["content"] == inline["content"]
    assert task["result"]["structuredContent"] == inline["structuredContent"]
    assert unknown["code"] == -32602
