"""Bench: 50 concurrent tool calls on one MCP session, reads and waits mixed (issue 13's load test).

The server runs in memory with the API client as it ships; the simulator adds 50 ms to every request.
Figures: call latency percentiles (every call must end inside its deadline), the most requests the
simulator saw at once (bound: 8), and the process's memory before and after (bound: back within 10 MB).

Run: `.venv/bin/python bench/load.py [--calls 50]`
"""

from __future__ import annotations

import argparse
import gc
import logging
import resource
import statistics
import time
from typing import Any

import anyio
from _mcp import answer_of, mcp_server_at

from cursor_cloud_agents.simulator import Faults, RealClock, RunScript, World, serve

LATENCY = 0.05


def rss_mib() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def mixed_calls(agents: list[Any]) -> list[tuple[str, dict[str, Any]]]:
    calls: list[tuple[str, dict[str, Any]]] = []
    for index, agent in enumerate(agents):
        run = {"agent_id": agent.id, "run_id": agent.runs[-1].id}
        kind = index % 5
        if kind == 0:
            calls.append(("cursor_get_run", run | {"wait_seconds": 3}))
        elif kind == 1:
            calls.append(("cursor_wait", {"runs": [run], "wait_seconds": 3}))
        elif kind == 2:
            calls.append(("cursor_list_runs", {"agent_id": agent.id}))
        elif kind == 3:
            calls.append(("cursor_get_usage", {"agent_id": agent.id}))
        else:
            calls.append(("cursor_read_run_events", run | {"tail": 5}))
    return calls


async def round_of(calls: int) -> tuple[list[float], int, int]:
    world = World(RealClock())
    # Half the runs are still going (a wait on them really waits), half ended long ago.
    agents = [
        world.add_agent(f"job {i}", script=RunScript(running_seconds=60.0), created_ago=3600.0 * (i % 2))
        for i in range(calls)
    ]
    faults = Faults(latency=LATENCY)
    latencies: list[float] = []
    errors = 0
    async with serve(world, faults=faults) as sim, mcp_server_at(sim.base_url) as client:

        async def one(tool: str, arguments: dict[str, Any]) -> None:
            nonlocal errors
            started = time.perf_counter()
            result = await client.call_tool(tool, arguments)
            latencies.append(time.perf_counter() - started)
            answer, _ = answer_of(result)
            errors += bool(result.is_error) and answer.get("code") in ("TIMEOUT", "INTERNAL")

        async with anyio.create_task_group() as group:
            for tool, arguments in mixed_calls(agents):
                group.start_soon(one, tool, arguments)
    return latencies, sim.max_in_flight, errors


async def main(calls: int) -> None:
    logging.disable(logging.INFO)
    await round_of(calls)  # warm-up: imports and lazily built models are not a leak
    gc.collect()
    before = rss_mib()
    latencies, peak, errors = await round_of(calls)
    for _ in range(2):
        await round_of(calls)  # more rounds: memory must not keep growing
    gc.collect()
    after = rss_mib()
    cuts = statistics.quantiles(latencies, n=100, method="inclusive")
    print(f"{calls} concurrent calls (reads and waits mixed), 50 ms per request:")
    print(
        f"  latency p50 {cuts[49]:.2f} s, p90 {cuts[89]:.2f} s, p99 {cuts[98]:.2f} s, max {max(latencies):.2f} s "
        f"(deadline 55 s); TIMEOUT or INTERNAL answers: {errors}"
    )
    print(f"  most requests in flight at the simulator: {peak} (bound 8)")
    print(
        f"  memory after a warm-up round: {before:.1f} MiB, after three more rounds {after:.1f} MiB "
        f"({after - before:+.1f} MiB; bound 10)"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=50)
    anyio.run(main, parser.parse_args().calls)
