"""Bench: what the limits cost a creation (issue 12), through the MCP server in memory, against the simulator.

`cursor_create_agent` with the checks as they ship (the creation ledger and the running-agents read; then
with a spend limit set too, which reads each new agent's usage once a minute) against the same call with
the running-agents and spend checks switched off, 50 ms added to
every request by the simulator. Each figure is the median of `--creates` creations on a fresh server;
the target: at most 0.1 s more with the checks, and at most one extra request per creation.

Run: `.venv/bin/python bench/create_checks.py [--creates 20]`
"""

from __future__ import annotations

import argparse
import logging
import statistics
import time
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
from _mcp import answer_of, mcp_server_at

from cursor_cloud_agents.api import CursorClient
from cursor_cloud_agents.core.limits import Limits
from cursor_cloud_agents.simulator import Faults, RealClock, World, serve

LATENCY = 0.05


async def creations(count: int, **settings: Any) -> tuple[float, float]:
    """Median seconds per creation, and requests the simulator saw per creation."""
    world = World(RealClock())
    faults = Faults(latency=LATENCY)
    seconds: list[float] = []
    async with serve(world, faults=faults) as sim, mcp_server_at(sim.base_url, allow_writes=True, **settings) as client:
        for index in range(count):
            started = time.perf_counter()
            data, _ = answer_of(await client.call_tool("cursor_create_agent", {"prompt": f"Task {index}"}))
            seconds.append(time.perf_counter() - started)
            assert "agent_id" in data, data
        requests = len(faults.requests) / count
    return statistics.median(seconds), requests


async def main(count: int) -> None:
    checked = await creations(count, max_active_agents=10_000)
    with_spend = await creations(count, max_active_agents=10_000, max_spend_cents=100_000)
    skip: Callable[[Limits, CursorClient], Awaitable[None]] = lambda _self, _api: anyio.lowlevel.checkpoint()  # noqa: E731
    original = Limits.before_create
    Limits.before_create = skip  # type: ignore[method-assign]  # the bench's "without": no read, no usage
    try:
        unchecked = await creations(count, max_active_agents=10_000)
    finally:
        Limits.before_create = original  # type: ignore[method-assign]
    print(
        f"create, median of {count}, {LATENCY * 1000:.0f} ms per request: without the checks {unchecked[0]:.3f} s "
        f"({unchecked[1]:.1f} requests)"
    )
    for label, (seconds, requests) in (("with the checks (defaults)", checked), ("and a spend limit set", with_spend)):
        print(
            f"  {label}: {seconds:.3f} s, +{seconds - unchecked[0]:.3f} s; {requests:.1f} requests, "
            f"+{requests - unchecked[1]:.1f}"
        )
    print("  targets (defaults): at most +0.1 s and +1 request")


if __name__ == "__main__":
    logging.disable(logging.INFO)
    parser = argparse.ArgumentParser()
    parser.add_argument("--creates", type=int, default=20)
    anyio.run(main, parser.parse_args().creates)
