"""Bench: what the limits cost a creation (issues 12 and 21), through the MCP server in memory, against the simulator.

`cursor_create_agent` with the checks as they ship, at the defaults (`CURSOR_MCP_MAX_ACTIVE_AGENTS=8`,
`CURSOR_MCP_MAX_NEW_AGENTS=25`, no spend limit, the store of paid acts on disk), against the same call
with the running-agents and spend checks switched off; then with a spend limit set too (each new agent's
usage read once a minute). The key holds 150 agents that ended long ago (two pages of the listing) and 2
that keep running; each new agent's run ends within a second, so that 20 creations fit a limit of 8: the
creations outnumber the free slots, so the check also meets its limit (where the count is confirmed by the
agents' latest runs). 50 ms are added to every request by the simulator. Each figure is the median of
`--creates` creations on a fresh server, and the requests the simulator saw per creation; the target: at
most 0.1 s more with the checks at the defaults, and at most one extra request per creation.

Run: `.venv/bin/python bench/create_checks.py [--creates 20]`
"""

from __future__ import annotations

import argparse
import logging
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
from _mcp import answer_of, mcp_server_at

from cursor_cloud_agents.api import CursorClient
from cursor_cloud_agents.core.spend.limits import Limits
from cursor_cloud_agents.simulator import Faults, RealClock, RunScript, World, serve

LATENCY = 0.05
ENDED_AGENTS = 150
RUNNING_AGENTS = 2
NEW_RUN = RunScript(creating_seconds=0.02, running_seconds=0.08)
"""A new agent's run: ended by the creation after next (one takes over 0.05 s), so the creations fit the limit."""


def key_with_history() -> World:
    """A key with two pages of agents that ended long ago and a few that keep running."""
    world = World(RealClock())
    for index in range(ENDED_AGENTS):
        world.add_agent(f"Old task {index}", created_ago=86_400 + index * 60)
    for index in range(RUNNING_AGENTS):
        world.add_agent(f"Long task {index}", script=RunScript(running_seconds=86_400))
    world.default_script = NEW_RUN
    return world


async def creations(count: int, **settings: Any) -> tuple[float, float]:
    """Median seconds per creation, and requests the simulator saw per creation."""
    world = key_with_history()
    faults = Faults(latency=LATENCY)
    seconds: list[float] = []
    with tempfile.TemporaryDirectory() as state:
        async with (
            serve(world, faults=faults) as sim,
            mcp_server_at(sim.base_url, allow_writes=True, state_dir=Path(state), **settings) as client,
        ):
            for index in range(count):
                started = time.perf_counter()
                data, _ = answer_of(await client.call_tool("cursor_create_agent", {"prompt": f"Task {index}"}))
                seconds.append(time.perf_counter() - started)
                assert "code" not in data and "agent_id" in data, data
            requests = len(faults.requests) / count
    return statistics.median(seconds), requests


async def main(count: int) -> None:
    checked = await creations(count)
    with_spend = await creations(count, max_spend_cents=100_000)
    skip: Callable[[Limits, CursorClient], Awaitable[None]] = lambda _self, _api: anyio.lowlevel.checkpoint()  # noqa: E731
    original = Limits.before_create
    Limits.before_create = skip  # type: ignore[method-assign]  # the bench's "without": no read, no usage
    try:
        unchecked = await creations(count)
    finally:
        Limits.before_create = original  # type: ignore[method-assign]
    print(
        f"create, median of {count}, {LATENCY * 1000:.0f} ms per request, {ENDED_AGENTS + RUNNING_AGENTS} agents "
        f"in the key: without the checks {unchecked[0]:.3f} s ({unchecked[1]:.2f} requests)"
    )
    for label, (seconds, requests) in (("with the checks (defaults)", checked), ("and a spend limit set", with_spend)):
        print(
            f"  {label}: {seconds:.3f} s, +{seconds - unchecked[0]:.3f} s; {requests:.2f} requests, "
            f"+{requests - unchecked[1]:.2f}"
        )
    print("  targets (defaults): at most +0.1 s and +1 request")


if __name__ == "__main__":
    logging.disable(logging.INFO)
    parser = argparse.ArgumentParser()
    parser.add_argument("--creates", type=int, default=20)
    anyio.run(main, parser.parse_args().creates)
