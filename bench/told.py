"""Bench: how soon a run's end is reported (issue 32), by `cursor_wait`, the `wait` command and `events`.

Against the simulator on real time (50 ms added to every request), 20 runs per way, 5 at a time, each
made as its waiter starts and ending RUN_SECONDS later, so that the waiter (a process of its own for the
commands: a Python start takes seconds on a loaded machine) listens before the end; the bench checks that each
waiter's first request came before its run's end. The delay is the moment the report arrived minus the
run's end in the simulated world (the same wall clock):
- `cursor_wait`: 20 concurrent calls to one MCP server in this process, each on one run; the answer's arrival;
- `wait AGENT:RUN`: 20 processes of the command; the moment each one's report reaches its stdout pipe;
- `events AGENT --until any`: 20 processes; the moment the `ended` line is read from each one's stdout.
Target: each median at most 1.0 s (before issue 32, the re-reads every 2.5 s gave about 2.2 s).

Run: `.venv/bin/python bench/told.py [--runs 20]`
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
from _mcp import answer_of, mcp_server_at

from cursor_cloud_agents.simulator import SIMULATED_API_KEY, Faults, RealClock, RunScript, World, serve
from cursor_cloud_agents.simulator.records import AgentRecord as Agent

LATENCY = 0.05
RUN_SECONDS = 10.0
"""How long each run works after its 2 s of creating: its waiter has started by then, even on a loaded machine."""
AT_ONCE = 5


def world_of() -> World:
    return World(RealClock())


def env_for(base_url: str, state_dir: str) -> dict[str, str]:
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": state_dir,
        "CURSOR_API_KEY": SIMULATED_API_KEY,
        "CURSOR_API_BASE_URL": base_url,
        "CURSOR_MCP_STATE_DIR": state_dir,
    }


async def each(world: World, runs: int, told: Callable[[Agent], Awaitable[float]]) -> list[float]:
    """The delays of `runs` waiters, AT_ONCE at a time, each on a run made as it starts."""
    delays: list[float] = []
    limiter = anyio.CapacityLimiter(AT_ONCE)

    async def one(index: int) -> None:
        async with limiter:
            agent = world.add_agent(f"Run {index}", script=RunScript(running_seconds=RUN_SECONDS))
            delays.append(await told(agent) - agent.runs[0].ended_at)

    async with anyio.create_task_group() as group:
        for index in range(runs):
            group.start_soon(one, index)
    return delays


def listened_in_time(requests: list[Any], world: World) -> int:
    """How many runs had a request about them before their end (their waiter was up in time)."""
    ends = {run.id: run.ended_at for agent in world.agents.values() for run in agent.runs}
    early = {run_id for record in requests for run_id, end in ends.items() if run_id in record.path and record.at < end}
    return len(early)


async def by_the_tool(runs: int) -> list[float]:
    world = world_of()
    async with serve(world, faults=Faults(latency=LATENCY)) as sim, mcp_server_at(sim.base_url) as client:

        async def told(agent: Agent) -> float:
            ref = {"agent_id": agent.id, "run_id": agent.runs[0].id}
            answer, _ = answer_of(await client.call_tool("cursor_wait", {"runs": [ref]}))
            assert answer["ended"], answer
            return time.time()

        delays = await each(world, runs, told)
        print(f"  (waiters up before their run's end: {listened_in_time(sim.faults.requests, world)} of {runs})")
        return delays


async def by_the_command(runs: int, state_dir: str) -> list[float]:
    world = world_of()
    async with serve(world, faults=Faults(latency=LATENCY)) as sim:
        env = env_for(sim.base_url, state_dir)

        async def told(agent: Agent) -> float:
            command = [sys.executable, "-m", "cursor_cloud_agents", "wait", f"{agent.id}:{agent.runs[0].id}"]
            async with await anyio.open_process(command, env=env) as process:
                assert process.stdout is not None
                first = await process.stdout.receive()  # the report's first line says how it ended: the person is told
                told_at = time.time()
                assert first.startswith(b"wait ended after") and b"(FINISHED " in first, first[:200]
            return told_at

        delays = await each(world, runs, told)
        print(f"  (waiters up before their run's end: {listened_in_time(sim.faults.requests, world)} of {runs})")
        return delays


async def by_events(runs: int, state_dir: str) -> list[float]:
    world = world_of()
    async with serve(world, faults=Faults(latency=LATENCY)) as sim:
        env = env_for(sim.base_url, state_dir)

        async def told(agent: Agent) -> float:
            command = [sys.executable, "-m", "cursor_cloud_agents", "events", agent.id, "--until", "any"]
            async with await anyio.open_process(command, env=env) as process:
                assert process.stdout is not None
                buffered = b""
                async for chunk in process.stdout:
                    buffered += chunk
                    while b"\n" in buffered:
                        line, buffered = buffered.split(b"\n", 1)
                        if json.loads(line)["event"] == "ended":
                            return time.time()
            raise AssertionError("events ended without an ended line")

        delays = await each(world, runs, told)
        print(f"  (waiters up before their run's end: {listened_in_time(sim.faults.requests, world)} of {runs})")
        return delays


def line(name: str, delays: list[float]) -> str:
    ordered = sorted(delays)
    median = statistics.median(ordered)
    verdict = "ok" if median <= 1.0 else "OVER 1.0 s"
    return (
        f"{name:<28} median {median:.3f} s  min {ordered[0]:.3f}  max {ordered[-1]:.3f}  (n={len(ordered)})  {verdict}"
    )


async def main(runs: int) -> None:
    import tempfile

    print(f"delay from a run's end to its report, {runs} runs each, {LATENCY * 1000:.0f} ms per request")
    print(line("cursor_wait (MCP tool)", await by_the_tool(runs)), flush=True)
    with tempfile.TemporaryDirectory() as state_dir:
        print(line("wait AGENT:RUN (command)", await by_the_command(runs, state_dir)), flush=True)
    with tempfile.TemporaryDirectory() as state_dir:
        print(line("events AGENT --until any", await by_events(runs, state_dir)), flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="How soon a run's end is reported (issue 32).")
    parser.add_argument("--runs", type=int, default=20)
    anyio.run(main, parser.parse_args().runs)
