"""Load and soak on one MCP session against the simulator (docs/reliability.md §2.9), scaled to stay quick in the suite.

Memory is read as the process's resident size (Linux `/proc/self/status`), after a first round has
built what is built once (imports, caches, lazily made models); a leak shows as growth across rounds.
The suite's heap from collection is frozen out of the collector's sight (`tests/conftest.py`), so each
`gc.collect()` here walks what the tests made, not every module and test item.
`bench/load.py` measures the full-size figures (latency percentiles included).
"""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import pytest

from cursor_cloud_agents.simulator import ManualClock, RunScript, World
from tests.tool_harness import Harness, OpenHarness

pytestmark = pytest.mark.anyio

MIB = 1024 * 1024


def rss_bytes() -> int:
    """The resident set size of this process."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS line in /proc/self/status")


async def supervise_pass(h: Harness) -> tuple[int, int]:
    """One supervision pass over the whole fleet, page by page: (rows seen, error answers)."""
    rows, errors, cursor = 0, 0, None
    while True:
        arguments: dict[str, Any] = {"status": "all", "limit": 100} | ({"cursor": cursor} if cursor else {})
        reply = await h.call("cursor_supervise", arguments)
        errors += reply.is_error
        rows += len(reply.data.get("agents", []))
        cursor = reply.data.get("next_cursor")
        if not cursor or reply.is_error:
            return rows, errors


async def test_a_500_agent_fleet_supervised_for_30_simulated_minutes_stays_bounded(
    harness_factory: OpenHarness,
) -> None:
    """docs/reliability.md L-01: 500 agents supervised every 15 simulated minutes for 30: every pass sees every agent,
    0 errors, at most 8 requests in flight upstream, resident memory grows by at most 50 MiB."""
    world = World(ManualClock())
    for index in range(500):
        world.add_agent(f"fleet {index}", script=RunScript(running_seconds=3600.0), created_ago=60.0 * (index % 90))
    async with harness_factory(world) as h:
        assert await supervise_pass(h) == (500, 0)
        gc.collect()
        before = rss_bytes()
        for _ in range(2):
            h.clock.advance(900)
            assert await supervise_pass(h) == (500, 0)
        gc.collect()
        growth = rss_bytes() - before
        peak = h.sim.max_in_flight
    assert peak <= 8
    assert growth <= 50 * MIB, f"RSS grew {growth / MIB:.1f} MiB"


def mixed_call(index: int, agent_id: str, run_id: str) -> tuple[str, dict[str, Any]]:
    """The index-th call of a soak: reads of every kind, round robin."""
    run = {"agent_id": agent_id, "run_id": run_id}
    calls: list[tuple[str, dict[str, Any]]] = [
        ("cursor_get_agent", {"agent_id": agent_id}),
        ("cursor_get_run", run),
        ("cursor_list_runs", {"agent_id": agent_id}),
        ("cursor_get_usage", {"agent_id": agent_id}),
        ("cursor_read_run_events", run | {"tail": 5}),
        ("cursor_list_agents", {"limit": 20}),
        ("cursor_read_conversation", {"agent_id": agent_id}),
        ("cursor_list_models", {}),
    ]
    return calls[index % len(calls)]


async def test_a_soak_of_mixed_calls_shows_no_memory_trend(harness_factory: OpenHarness) -> None:
    """docs/reliability.md L-03 (scaled: 300 calls): resident memory over the last tenth of the calls minus the first
    tenth stays within 10 MiB, and no call fails."""
    world = World(ManualClock())
    agents = [world.add_agent(f"soak {index}", script=RunScript(), created_ago=3600) for index in range(20)]
    calls = 300
    samples: list[int] = []
    errors = 0
    async with harness_factory(world) as h:
        for index in range(calls):
            agent = agents[index % len(agents)]
            tool, arguments = mixed_call(index, agent.id, agent.runs[-1].id)
            errors += (await h.call(tool, arguments)).is_error
            if index % 15 == 0:
                gc.collect()
                samples.append(rss_bytes())
    tenth = len(samples) // 10
    first, last = sum(samples[:tenth]) / tenth, sum(samples[-tenth:]) / tenth
    assert errors == 0
    assert last - first <= 10 * MIB, f"RSS trend {(last - first) / MIB:.1f} MiB"
