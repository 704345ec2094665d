"""Bench: waiting for agents (issue 11), through the MCP server in memory, against the simulator on real time.

Three figures, each the median of several runs on a fresh server, with the API client as it ships (its
client-side limit: 10 requests/s sustained) and 50 ms added to every request by the simulator:

1. `cursor_wait` over 8 runs that end 1 s apart (the first 3 s after the call): how long after the
   first end `any` answers (target <= 3 s), and after the last end `all` answers; the GETs per second
   the simulator saw during the wait (target <= 10).
2. `cursor_supervise {limit: 100, activity: true}` over 100 quiet running agents: wall time (target
   <= 8 s), rows complete or marked inferred (target: all of them).
3. `cursor_wait` as an MCP task (2026-07-28, the Tasks extension declared) on a run that lasts 10
   minutes, simulated 20 times faster: the task completes with the run's result, and the longest
   single JSON-RPC request (target <= 5 s).

Run: `.venv/bin/python bench/wait.py [--runs 5]`
"""

from __future__ import annotations

import argparse
import logging
import statistics
import time
from collections.abc import AsyncGenerator
from contextlib import asynccontextmanager
from typing import Any

import anyio
from _mcp import answer_of, mcp_server_at
from mcp.shared.memory import create_client_server_memory_streams
from mcp.shared.message import SessionMessage
from mcp_types import jsonrpc_message_adapter

from cursor_cloud_agents.api import CursorClient
from cursor_cloud_agents.config import Secret, Settings
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.server.app import build_server
from cursor_cloud_agents.simulator import SIMULATED_API_KEY, Faults, RealClock, RunScript, World, serve

LATENCY = 0.05
RUNS = 8
FIRST_END = 3.0  # seconds after the call: 2 s CREATING + 1 s RUNNING
TASKS = "io.modelcontextprotocol/tasks"


def staggered(world: World) -> list[dict[str, str]]:
    refs: list[dict[str, str]] = []
    for index in range(RUNS):
        agent = world.add_agent(f"Task {index}", script=RunScript(running_seconds=1.0 + index))
        refs.append({"agent_id": agent.id, "run_id": agent.runs[-1].id})
    return refs


async def wait_once(until: str) -> tuple[float, float]:
    """Seconds between the end the wait was for and its answer; GETs per second during the wait."""
    world = World(RealClock())
    faults = Faults(latency=LATENCY)
    async with serve(world, faults=faults) as sim, mcp_server_at(sim.base_url) as client:
        refs = staggered(world)
        started = time.perf_counter()
        answer, _ = answer_of(await client.call_tool("cursor_wait", {"runs": refs, "until": until}))
        took = time.perf_counter() - started
    assert answer["ended"], answer
    awaited = FIRST_END if until == "any" else FIRST_END + RUNS - 1
    gets = [r for r in sim.requests if r.method == "GET"]
    span = max(gets[-1].at - gets[0].at, 1e-9)
    return took - awaited, len(gets) / span


def quiet_fleet() -> World:
    world = World(RealClock())
    for index in range(100):
        world.add_agent(f"quiet {index}", script=RunScript(running_seconds=3600.0), created_ago=120.0)
    return world


async def supervise_once() -> tuple[float, int, int]:
    """Wall time of one supervision pass, rows in it, rows complete or marked inferred."""
    world = quiet_fleet()
    async with serve(world, faults=Faults(latency=LATENCY)) as sim, mcp_server_at(sim.base_url) as client:
        started = time.perf_counter()
        result = await client.call_tool("cursor_supervise", {"limit": 100, "activity": True})
        took = time.perf_counter() - started
    answer, _ = answer_of(result)
    rows = answer["agents"]
    accounted = [
        r
        for r in rows
        if r.get("replay_complete") is False or r["agent_id"] not in answer["summary"].get("incomplete", [])
    ]
    return took, len(rows), len(accounted)


class RawSession:
    """JSON-RPC written by hand on in-memory streams, declaring the Tasks extension, timing every request."""

    def __init__(self, streams: Any) -> None:
        self.read, self.write = streams
        self.next_id = 0
        self.longest = 0.0

    async def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        meta: dict[str, Any] = {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "bench", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": {"extensions": {TASKS: {}}},
        }
        self.next_id += 1
        body: dict[str, Any] = {
            "jsonrpc": "2.0",
            "id": self.next_id,
            "method": method,
            "params": params | {"_meta": meta},
        }
        started = time.perf_counter()
        await self.write.send(SessionMessage(jsonrpc_message_adapter.validate_python(body)))
        while True:
            received: SessionMessage = await self.read.receive()
            message: dict[str, Any] = received.message.model_dump(by_alias=True, exclude_none=True)
            if message.get("id") == self.next_id:
                self.longest = max(self.longest, time.perf_counter() - started)
                answer: dict[str, Any] = message.get("result") or message["error"]
                return answer


@asynccontextmanager
async def raw_over_memory(world: World) -> AsyncGenerator[RawSession, None]:
    """Our server on in-memory JSON-RPC streams, against `world` served with 50 ms per request."""
    async with serve(world, faults=Faults(latency=LATENCY)) as sim:
        api = CursorClient(sim.base_url, SIMULATED_API_KEY)

        @asynccontextmanager
        async def borrow() -> AsyncGenerator[CursorClient, None]:
            yield api

        settings = Settings(api_key=Secret(SIMULATED_API_KEY))
        server = build_server(settings, Redactor(settings.secrets()), borrow)
        async with api, create_client_server_memory_streams() as (client, ours), anyio.create_task_group() as group:
            group.start_soon(lambda: server.run(ours[0], ours[1], server.create_initialization_options()))
            yield RawSession(client)
            group.cancel_scope.cancel()


async def task_once() -> tuple[float, float, str]:
    """Wall time of a task on a 10-minute run at 20x, the longest JSON-RPC request, the run's status."""
    world = World(RealClock(speed=20.0))
    agent = world.add_agent("A ten-minute job", script=RunScript(running_seconds=600.0, result="All done."))
    async with raw_over_memory(world) as session:
        await session.request("server/discover", {})
        started = time.perf_counter()
        arguments = {"runs": [{"agent_id": agent.id}]}
        created = await session.request("tools/call", {"name": "cursor_wait", "arguments": arguments})
        task = created
        while task["status"] == "working":
            await anyio.sleep(task["pollIntervalMs"] / 1000)
            task = await session.request("tasks/get", {"taskId": created["taskId"]})
        took = time.perf_counter() - started
        longest = session.longest
    ended = task["result"]["structuredContent"]["ended"]
    return took, longest, f"{ended[0]['status']} {ended[0].get('result')!r}"


def median(values: list[float]) -> float:
    return statistics.median(values)


async def main(runs: int) -> None:
    logging.disable(logging.INFO)
    for until in ("any", "all"):
        figures = [await wait_once(until) for _ in range(runs)]
        lags = [lag for lag, _ in figures]
        rates = [rate for _, rate in figures]
        print(
            f"cursor_wait until={until}: answered {median(lags):.2f} s after the awaited end "
            f"(min {min(lags):.2f}, max {max(lags):.2f}; target <= 3), "
            f"GETs/s {median(rates):.1f} (max {max(rates):.1f}; limiter 10/s)"
        )
    passes = [await supervise_once() for _ in range(runs)]
    times = [took for took, _, _ in passes]
    print(
        f"cursor_supervise 100 quiet running agents, activity: median {median(times):.2f} s "
        f"(min {min(times):.2f}, max {max(times):.2f}; target <= 8), rows {passes[0][1]}, "
        f"complete or marked inferred {min(accounted for _, _, accounted in passes)}"
    )
    took, longest, outcome = await task_once()
    print(
        f"task: cursor_wait on a 10-minute run at 20x completed in {took:.1f} s with {outcome}; "
        f"longest JSON-RPC request {longest:.2f} s (target <= 5)"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    anyio.run(main, parser.parse_args().runs)
