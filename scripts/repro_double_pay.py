"""Issue 9's four reproductions, end to end: a creation asked again while the first POST is still in flight.

The simulator serves on loopback with real time and creations that take CREATE_SECONDS; the server runs
as its own process over stdio (raw JSON-RPC), pointed at it with a call limit shorter than a creation.
Each case ends by counting the agents the simulator holds and the POSTs it received. Run:

    .venv/bin/python scripts/repro_double_pay.py
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
from anyio.abc import Process
from anyio.streams.text import TextReceiveStream

from cursor_cloud_agents.simulator import SIMULATED_API_KEY, Quirks, RealClock, World, serve

CREATE_SECONDS = 14.0
CALL_SECONDS = 10
REQUEST = {"prompt": "Write the release notes", "name": "release-notes"}
WITH_VARIABLES = REQUEST | {"env_vars": {"RELEASE_TOKEN": "repro-secret-value-0123456789"}}


class Server:
    """One `cursor-cloud-agents` process spoken to line by line."""

    def __init__(self, process: Process) -> None:
        self.process = process
        assert process.stdout is not None
        self.lines = TextReceiveStream(process.stdout)
        self.buffer = ""
        self.next_id = 0

    async def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        await self.process.stdin.send((json.dumps({"jsonrpc": "2.0", **message}) + "\n").encode())

    async def request(self, method: str, params: dict[str, Any]) -> int:
        self.next_id += 1
        await self.send({"id": self.next_id, "method": method, "params": params})
        return self.next_id

    async def answer(self, request_id: int) -> dict[str, Any]:
        while True:
            while "\n" not in self.buffer:
                self.buffer += await self.lines.receive()
            line, self.buffer = self.buffer.split("\n", 1)
            message = json.loads(line)
            if message.get("id") == request_id and "method" not in message:
                return message

    async def call(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        answer = await self.answer(await self.request("tools/call", {"name": tool, "arguments": arguments}))
        return answer["result"]["structuredContent"]

    async def start(self) -> None:
        info = {"name": "repro", "version": "1"}
        params = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": info}
        await self.answer(await self.request("initialize", params))
        await self.send({"method": "notifications/initialized"})


async def spawn(base_url: str, state_dir: Path) -> Server:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(state_dir),
        "CURSOR_API_KEY": SIMULATED_API_KEY,
        "CURSOR_API_BASE_URL": base_url,
        "CURSOR_MCP_ALLOW_WRITES": "1",
        "CURSOR_MCP_MAX_CALL_SECONDS": str(CALL_SECONDS),
        "CURSOR_MCP_STATE_DIR": str(state_dir),
    }
    command = [sys.executable, "-m", "cursor_cloud_agents"]
    process = await anyio.open_process(command, env=env, stderr=subprocess.DEVNULL)
    server = Server(process)
    await server.start()
    return server


def brief(answer: dict[str, Any]) -> str:
    keys = ("code", "agent_id", "resumed", "creation_pending", "sent_at", "retry_after_seconds")
    return json.dumps({key: answer[key] for key in keys if key in answer})


async def until_posted(world_posts: Any, count: int) -> None:
    while world_posts() < count:
        await anyio.sleep(0.05)


async def case_deadline(base_url: str, state: Path, posts: Any) -> None:
    del posts  # the call limit, not the POST count, decides when this case acts
    server = await spawn(base_url, state)
    first = await server.call("cursor_create_agent", REQUEST)
    print("  create (cut by the call limit):", brief(first))
    pending = await server.call("cursor_get_agent", {"agent_id": first.get("agent_id", "bc-x")})
    print("  get_agent on that id:          ", brief(pending))
    again = await server.call("cursor_create_agent", REQUEST)
    print("  the same create again:         ", brief(again))
    await anyio.sleep(CREATE_SECONDS - CALL_SECONDS + 0.5)
    last = await server.call("cursor_create_agent", REQUEST)
    print("  once the first has landed:     ", brief(last))
    await stop(server)


async def case_kill(base_url: str, state: Path, posts: Any) -> None:
    server = await spawn(base_url, state)
    before = posts()
    await server.request("tools/call", {"name": "cursor_create_agent", "arguments": REQUEST})
    await until_posted(posts, before + 1)
    await anyio.sleep(0.2)
    server.process.send_signal(signal.SIGKILL)
    await server.process.wait()
    print("  killed -9 0.2 s after the POST left; restarting on the same state directory")
    server = await spawn(base_url, state)
    await again_and_after_landing(server, REQUEST)


async def case_cancel(base_url: str, state: Path, posts: Any, arguments: dict[str, Any]) -> None:
    server = await spawn(base_url, state)
    before = posts()
    request_id = await server.request("tools/call", {"name": "cursor_create_agent", "arguments": arguments})
    await until_posted(posts, before + 1)
    await server.send({"method": "notifications/cancelled", "params": {"requestId": request_id}})
    print("  notifications/cancelled after the POST left")
    await again_and_after_landing(server, arguments)


async def again_and_after_landing(server: Server, arguments: dict[str, Any]) -> None:
    """Ask for the same creation at once, then once the first POST has landed; stop the server."""
    again = await server.call("cursor_create_agent", arguments)
    print("  the same create again:         ", brief(again))
    await anyio.sleep(CREATE_SECONDS)
    last = await server.call("cursor_create_agent", arguments)
    print("  once the first has landed:     ", brief(last))
    await stop(server)


async def stop(server: Server) -> None:
    assert server.process.stdin is not None
    await server.process.stdin.aclose()
    await server.process.wait()


async def main() -> None:
    cases = [
        ("1. call limit (10 s) shorter than the create (14 s)", case_deadline),
        ("2. kill -9 of the server, restart on the same CURSOR_MCP_STATE_DIR", case_kill),
        ("3. client cancel (notifications/cancelled)", lambda u, s, p: case_cancel(u, s, p, REQUEST)),
        ("4. client cancel with env_vars (no agent id allowed)", lambda u, s, p: case_cancel(u, s, p, WITH_VARIABLES)),
    ]
    for title, case in cases:
        world = World(RealClock(), quirks=Quirks(creation_seconds=CREATE_SECONDS))
        started = time.perf_counter()
        async with serve(world) as sim:

            def posts() -> int:
                return sim.faults.count("POST", "/v1/agents")

            print(title)
            with tempfile.TemporaryDirectory() as state:
                await case(sim.base_url, Path(state), posts)
            took = time.perf_counter() - started
            print(f"  => agents at the API: {len(world.agents)}, POST /v1/agents: {posts()} ({took:.1f} s)")


if __name__ == "__main__":
    anyio.run(main)
