"""Bench: `cursor_supervise` over a fleet, through the MCP server in memory, against the simulator.

The simulator runs on real time and adds 50 ms of latency to every request. Two figures:

1. 50 agents, `status="all", activity=true`: wall time (target ≤ 1.0 s), result bytes (target
   ≤ 20,000) and the most requests the simulator saw at once (must be ≤ 8). The 50 agents: 35
   finished, 5 finished with a background job left running, 10 running with events every ~40 ms
   (their replays end on the first live event; a quiet running run would wait for the first
   heartbeat, 30-36 s, the API's floor).
2. Paging through all 500 agents of the `fleet` scenario (`status="all"`, limit 50): total time
   (target ≤ 10 s).

Each figure is the median of 5 runs, each on a fresh server (no activity cache carried over). It is
printed twice: with the API client's default client-side rate limit (10 requests/s, burst 10) and
with that limit raised to 1,000/s, which shows what the tool itself costs. Figures only, no asserts.

Run: `.venv/bin/python bench/fleet.py [--runs 5]`
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import AsyncGenerator
from contextlib import asynccontextmanager
from typing import Any

import anyio
from mcp import Client
from mcp_types import CallToolResult, TextContent

from cursor_cloud_agents.api import CursorClient
from cursor_cloud_agents.config import Secret, Settings
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.server import build_server
from cursor_cloud_agents.simulator import (
    SIMULATED_API_KEY,
    BackgroundTask,
    Faults,
    RealClock,
    RunScript,
    World,
    build_scenario,
    serve,
)

LATENCY = 0.05


def fifty_agents() -> World:
    world = World(RealClock())
    busy = RunScript(running_seconds=120, replay_bytes=600_000, interaction_updates=False)
    for index in range(50):
        if index % 5 == 0:
            world.add_agent(f"busy {index}", script=busy, created_ago=60.0)
        elif index % 10 == 1:
            world.add_agent(f"nightly {index}", script=RunScript(background=BackgroundTask()), created_ago=3600.0)
        else:
            world.add_agent(f"done {index}", created_ago=3600.0 + index)
    return world


def answer_of(result: CallToolResult) -> tuple[dict[str, Any], int]:
    """The tool's JSON answer and its size in bytes."""
    block = result.content[0]
    assert isinstance(block, TextContent)
    data: dict[str, Any] = json.loads(block.text)
    return data, len(block.text.encode())


@asynccontextmanager
async def mcp_over(world: World, faults: Faults, rps: float) -> AsyncGenerator[Client, None]:
    settings = Settings(api_key=Secret(SIMULATED_API_KEY))
    async with serve(world, faults=faults) as sim:
        api = CursorClient(sim.base_url, SIMULATED_API_KEY, requests_per_second=rps)

        @asynccontextmanager
        async def borrow() -> AsyncGenerator[CursorClient, None]:
            yield api

        server = build_server(settings, Redactor(settings.secrets()), borrow)
        async with api, Client(server, mode="legacy") as client:
            yield client


async def fifty(rps: float) -> tuple[float, int, int, int]:
    faults = Faults(latency=LATENCY)
    async with mcp_over(fifty_agents(), faults, rps) as client:
        started = time.perf_counter()
        result = await client.call_tool("cursor_supervise", {"status": "all", "activity": True})
        seconds = time.perf_counter() - started
    data, size = answer_of(result)
    return seconds, size, faults.max_in_flight, len(data["summary"].get("incomplete", []))


async def page_fleet(rps: float) -> tuple[float, int, int]:
    faults = Faults(latency=LATENCY)
    async with mcp_over(build_scenario("fleet", RealClock()), faults, rps) as client:
        started = time.perf_counter()
        rows, largest = 0, 0
        cursor: str | None = None
        while True:
            arguments: dict[str, Any] = {"status": "all", "limit": 50} | ({"cursor": cursor} if cursor else {})
            result = await client.call_tool("cursor_supervise", arguments)
            data, size = answer_of(result)
            rows += len(data["agents"])
            largest = max(largest, size)
            cursor = data.get("next_cursor")
            if cursor is None:
                break
        return time.perf_counter() - started, rows, largest


async def main(runs: int) -> None:
    out = sys.stdout
    for rps in (10.0, 1000.0):
        out.write(f"client-side rate limit {rps:g} requests/s, simulator latency {LATENCY * 1000:.0f} ms\n")
        samples = [await fifty(rps) for _ in range(runs)]
        median = statistics.median(sample[0] for sample in samples)
        out.write(
            f"  supervise 50 agents, activity=true: median {median:.3f} s (target <= 1.0), "
            f"result {samples[0][1]} bytes (target <= 20000), max in flight {max(s[2] for s in samples)} (<= 8), "
            f"incomplete rows {samples[0][3]}\n"
        )
        pages = [await page_fleet(rps) for _ in range(runs)]
        out.write(
            f"  page through the 500-agent fleet: median {statistics.median(p[0] for p in pages):.2f} s "
            f"(target <= 10), rows {pages[0][1]}, largest page {pages[0][2]} bytes\n"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    anyio.run(main, parser.parse_args().runs)
