"""Bench: `cursor_supervise` over a fleet, through the MCP server in memory, against the simulator.

The simulator runs in a child process (the real API is elsewhere too, so its CPU is not ours), on
real time, and adds 50 ms of latency to every request. Two figures:

1. 50 agents, `status="all", activity=true`: wall time (target ≤ 1.0 s), result bytes (target
   ≤ 20,000) and the most requests the simulator saw at once (must be ≤ 8). The 50 agents: 35
   finished, 5 finished with a background job left running, 10 running with events every ~40 ms
   (their replays end on the first live event; a quiet running run would wait for the first
   heartbeat, 30-36 s, the API's floor).
2. Paging through all 500 agents of the `fleet` scenario (`status="all"`, limit 50): total time
   (target ≤ 10 s).

Each figure is the median of 5 runs, each on a fresh server (no activity cache carried over), with the
API client as it ships (its default client-side limit: 10 requests/s sustained, burst 600). Figures
only, no asserts.

Run: `.venv/bin/python bench/fleet.py [--runs 5]`
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import time
from functools import partial
from typing import Any

import anyio
from _mcp import answer_of, mcp_server_at
from _simulator import max_in_flight, simulator_process

from cursor_cloud_agents.api.client import DEFAULT_BURST
from cursor_cloud_agents.simulator import (
    BackgroundTaskScript,
    Faults,
    RealClock,
    RunScript,
    World,
    build_scenario,
)

LATENCY = 0.05


def fifty_agents() -> World:
    world = World(RealClock())
    busy = RunScript(running_seconds=120, replay_bytes=600_000, interaction_updates=False)
    for index in range(50):
        if index % 5 == 0:
            world.add_agent(f"busy {index}", script=busy, created_ago=60.0)
        elif index % 10 == 1:
            world.add_agent(f"nightly {index}", script=RunScript(background=BackgroundTaskScript()), created_ago=3600.0)
        else:
            world.add_agent(f"done {index}", created_ago=3600.0 + index)
    return world


def fleet_world(scenario: str) -> tuple[World, Faults]:
    """The world a run of this bench serves: fifty agents, or the 500-agent fleet; 50 ms a request."""
    world = fifty_agents() if scenario == "fifty" else build_scenario("fleet", RealClock())
    return world, Faults(latency=LATENCY)


async def fifty(base_url: str) -> tuple[float, int, int]:
    async with mcp_server_at(base_url) as client:
        started = time.perf_counter()
        result = await client.call_tool("cursor_supervise", {"status": "all", "activity": True})
        seconds = time.perf_counter() - started
    data, size = answer_of(result)
    return seconds, size, len(data["summary"].get("incomplete", []))


async def page_fleet(base_url: str) -> tuple[float, int, int]:
    async with mcp_server_at(base_url) as client:
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


async def measure(runs: int) -> None:
    out = sys.stdout
    out.write(
        f"client as shipped (10 requests/s, burst {DEFAULT_BURST:g}); simulator latency {LATENCY * 1000:.0f} ms\n"
    )
    with simulator_process(partial(fleet_world, "fifty")) as (base_url, conn):
        samples = [await fifty(base_url) for _ in range(runs)]
        busiest = max_in_flight(conn)
    times = sorted(sample[0] for sample in samples)
    out.write(
        f"  supervise 50 agents, activity=true: median {statistics.median(times):.3f} s "
        f"({', '.join(f'{t:.2f}' for t in times)}; target <= 1.0), result {samples[0][1]} bytes (target <= 20000), "
        f"simulator max in flight {busiest} (<= 8), incomplete rows {samples[0][2]}\n"
    )
    with simulator_process(partial(fleet_world, "fleet")) as (base_url, conn):
        pages = [await page_fleet(base_url) for _ in range(runs)]
        busiest = max_in_flight(conn)
    out.write(
        f"  page through the 500-agent fleet: median {statistics.median(p[0] for p in pages):.2f} s "
        f"(target <= 10), rows {pages[0][1]}, largest page {pages[0][2]} bytes, max in flight {busiest}\n"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    logging.basicConfig(level=logging.WARNING)  # as the server does: no per-request lines on stderr
    anyio.run(measure, parser.parse_args().runs)
