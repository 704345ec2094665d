"""Bench: `cursor_read_run_events(tail=20)` on the `long-run` scenario's 839 KB replay, through MCP in memory.

The simulator serves over loopback HTTP on real time (no added latency); each call walks the whole
replay, keeps nothing but the last 20 compact events, and answers. Prints the median of 5 calls
(target ≤ 0.1 s), the events scanned and the result bytes. Figures only, no asserts.

Run: `.venv/bin/python bench/events.py [--runs 5]`
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import time
from collections.abc import AsyncGenerator
from contextlib import asynccontextmanager

import anyio
from _mcp import answer_of, mcp_server_at
from mcp import Client
from mcp_types import CallToolResult

from cursor_cloud_agents.simulator import RealClock, World, build_scenario, serve


@asynccontextmanager
async def mcp_world(world: World) -> AsyncGenerator[Client, None]:
    async with serve(world) as sim, mcp_server_at(sim.base_url) as client:
        yield client


async def main(runs: int) -> None:
    world = build_scenario("long-run", RealClock())
    agent = next(iter(world.agents.values()))
    arguments = {"agent_id": agent.id, "run_id": agent.runs[-1].id, "tail": 20}
    samples: list[float] = []
    result: CallToolResult | None = None
    async with mcp_world(world) as client:
        for _ in range(runs):
            started = time.perf_counter()
            result = await client.call_tool("cursor_read_run_events", arguments)
            samples.append(time.perf_counter() - started)
    assert result is not None
    data, size = answer_of(result)
    replay = len(agent.runs[-1].timeline.slice(0, len(agent.runs[-1].timeline)))
    sys.stdout.write(
        f"tail=20 on a {replay / 1000:.0f} KB replay: median {statistics.median(samples):.3f} s (target <= 0.1), "
        f"min {min(samples):.3f} s, scanned {data.get('scanned_events')} events, result {size} bytes\n"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    logging.basicConfig(level=logging.WARNING)  # as the server does: no per-request lines
    anyio.run(main, parser.parse_args().runs)
