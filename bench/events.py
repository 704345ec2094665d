"""Bench: `cursor_read_run_events(tail=20)` on the `long-run` scenario's 839 KB replay, through MCP in memory.

The simulator serves over loopback HTTP on real time (no added latency); each call walks the whole
replay, keeps nothing but the last 20 compact events, and answers. Prints the median of 5 calls
(target ≤ 0.1 s), the events scanned and the result bytes. Figures only, no asserts.

Run: `.venv/bin/python bench/events.py [--runs 5]`
"""

from __future__ import annotations

import argparse
import json
import logging
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
from cursor_cloud_agents.simulator import SIMULATED_API_KEY, RealClock, World, build_scenario, serve


def answer_of(result: CallToolResult) -> tuple[dict[str, Any], int]:
    """The tool's JSON answer and its size in bytes."""
    block = result.content[0]
    assert isinstance(block, TextContent)
    data: dict[str, Any] = json.loads(block.text)
    return data, len(block.text.encode())


@asynccontextmanager
async def mcp_over(world: World) -> AsyncGenerator[Client, None]:
    settings = Settings(api_key=Secret(SIMULATED_API_KEY))
    async with serve(world) as sim:
        api = CursorClient(sim.base_url, SIMULATED_API_KEY)

        @asynccontextmanager
        async def borrow() -> AsyncGenerator[CursorClient, None]:
            yield api

        server = build_server(settings, Redactor(settings.secrets()), borrow)
        async with api, Client(server, mode="legacy") as client:
            yield client


async def main(runs: int) -> None:
    world = build_scenario("long-run", RealClock())
    agent = next(iter(world.agents.values()))
    arguments = {"agent_id": agent.id, "run_id": agent.runs[-1].id, "tail": 20}
    samples: list[float] = []
    result: CallToolResult | None = None
    async with mcp_over(world) as client:
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
