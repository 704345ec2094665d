"""Bench: does `cursor_supervise {"activity": true}` call a stuck run stale, and only a stuck one (issue 25)?

The simulator runs in a child process on real time and adds 50 ms of latency to every request, as in
`bench/fleet.py`; its heartbeats come 30 s after connecting (the API's first one comes 30-36 s after). Each
figure is the median of 5 runs, each on a fresh server (no cache carried over), with the API client as it
ships (8 requests at once at most, plus up to 32 quiet streams only listened to, docs/reliability.md F-45;
10 per second sustained, burst 600). "max in flight" is what the simulator saw open at once, listened-to
streams included. Four fleets:

1. ten RUNNING runs whose last event is three hours old, their streams quiet: all ten should be `stale`
   within 3 s;
2. five RUNNING runs with an event every 2 s: none should be stale;
3. one RUNNING run, its last event seconds old, whose replay pauses 1.2 s halfway through its burst
   (`Fault.replay_pause`): never stale;
4. one hundred stuck runs (as in 1), `limit=100`: all stale, the answer under 30,000 bytes, within 8 s;
5. the same hundred through the terminal's `status` line, cold (no cache: a fresh state directory each
   time), the console script spawned as a status bar does: its line should say `100 stuck`.

Each line gives the stale and incomplete counts, the evidence the rows were decided by, the answer's
size and the wall time. Figures only, no asserts.

Run: `.venv/bin/python bench/stale.py [--runs 5]`
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import anyio
from _mcp import answer_of, mcp_server_at
from _simulator import max_in_flight, simulator_process

from cursor_cloud_agents.simulator import (
    SIMULATED_API_KEY,
    Fault,
    Faults,
    Quirks,
    RealClock,
    RunScript,
    ScriptedToolCall,
    World,
)

LATENCY = 0.05
HOURS = 3600.0
REPLAY_PAUSE = 1.2


def _calls(count: int) -> tuple[ScriptedToolCall, ...]:
    return tuple(ScriptedToolCall("read_file", {"path": f"src/module_{index}.py"}) for index in range(count))


def stuck_world(count: int) -> tuple[World, Faults]:
    """`count` runs that did their work in their first minute, three hours ago, and nothing since."""
    world = World(RealClock(), quirks=Quirks(heartbeat_first_seconds=30.0))
    stuck = RunScript(running_seconds=10 * HOURS, events_seconds=60.0, tool_calls=_calls(20), summary=None)
    for index in range(count):
        world.add_agent(f"stuck {index:03d}", script=stuck, created_ago=3 * HOURS + 62.0)
    return world, Faults(latency=LATENCY)


def busy_world() -> tuple[World, Faults]:
    """Five runs, ten minutes in, with an event every 2 s (1,800 events over the hour they run)."""
    world = World(RealClock(), quirks=Quirks(heartbeat_first_seconds=30.0))
    busy = RunScript(running_seconds=HOURS, tool_calls=_calls(450), thinking=None, summary=None)
    for index in range(5):
        world.add_agent(f"busy {index}", script=busy, created_ago=600.0)
    return world, Faults(latency=LATENCY)


def paused_world() -> tuple[World, Faults]:
    """One run three hours in, an event every 12 s, whose replay pauses 1.2 s halfway through its burst:
    the frames before the pause are 1.5 hours old, those after it seconds old."""
    world = World(RealClock(), quirks=Quirks(heartbeat_first_seconds=30.0))
    steady = RunScript(running_seconds=6 * HOURS, tool_calls=_calls(450), thinking=None, summary=None)
    agent = world.add_agent("paused replay", script=steady, created_ago=3 * HOURS)
    faults = Faults(latency=LATENCY)
    path = f"/v1/agents/{agent.id}/runs/{agent.runs[-1].id}/stream"
    faults.inject("GET", path, Fault.replay_pause(REPLAY_PAUSE), times=None)
    return world, faults


FLEETS: dict[str, Callable[[], tuple[World, Faults]]] = {
    "ten": lambda: stuck_world(10),
    "busy": busy_world,
    "paused": paused_world,
    "hundred": lambda: stuck_world(100),
}


@dataclass
class Sample:
    seconds: float
    size: int
    rows: int
    stale: int
    incomplete: int
    evidence: Counter[str]


async def supervise(base_url: str) -> Sample:
    async with mcp_server_at(base_url) as client:
        started = time.perf_counter()
        result = await client.call_tool("cursor_supervise", {"activity": True, "limit": 100})
        seconds = time.perf_counter() - started
    data, size = answer_of(result)
    summary = data["summary"]
    evidence = Counter(str(row.get("evidence", "none (walk cut)")) for row in data["agents"])
    stale, incomplete = len(summary.get("stale", [])), len(summary.get("incomplete", []))
    return Sample(seconds, size, len(data["agents"]), stale, incomplete, evidence)


SCRIPT = Path(sys.executable).parent / "cursor-cloud-agents"


async def cold_status(base_url: str) -> tuple[float, str]:
    """One cold `status` (its own state directory, so no cache): wall time and the line."""
    with tempfile.TemporaryDirectory() as state:
        env = {
            "PATH": "/usr/bin:/bin",
            "HOME": state,
            "CURSOR_API_BASE_URL": base_url,
            "CURSOR_API_KEY": SIMULATED_API_KEY,
            "CURSOR_MCP_STATE_DIR": state,
        }
        started = time.perf_counter()
        done = await anyio.run_process([str(SCRIPT), "status"], env=env, check=True)
        return time.perf_counter() - started, done.stdout.decode().strip()


async def measure(runs: int) -> None:
    out = sys.stdout
    out.write(f"simulator latency {LATENCY * 1000:.0f} ms, heartbeat 30 s after connecting; median of {runs}\n")
    for fleet in FLEETS:
        with simulator_process(FLEETS[fleet]) as (base_url, conn):
            samples = [await supervise(base_url) for _ in range(runs)]
            busiest = max_in_flight(conn)
        times = sorted(sample.seconds for sample in samples)
        evidence = sum((sample.evidence for sample in samples), Counter[str]())
        out.write(
            f"  {fleet:8} rows {samples[0].rows:3}: stale {[s.stale for s in samples]}, "
            f"incomplete {[s.incomplete for s in samples]}, median {statistics.median(times):.2f} s "
            f"({', '.join(f'{t:.2f}' for t in times)}), answer {max(s.size for s in samples)} bytes at most, "
            f"max in flight {busiest}, evidence over all runs {dict(evidence)}\n"
        )
    with simulator_process(FLEETS["hundred"]) as (base_url, _):
        statuses = [await cold_status(base_url) for _ in range(runs)]
    times = sorted(seconds for seconds, _ in statuses)
    out.write(
        f"  status   rows 100: cold median {statistics.median(times):.2f} s ({', '.join(f'{t:.2f}' for t in times)}), "
        f"line {statuses[-1][1]!r}\n"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    logging.basicConfig(level=logging.WARNING)  # as the server does: no per-request lines on stderr
    anyio.run(measure, parser.parse_args().runs)
