"""Start-up cost: spawn to `tools/list` over stdio, against the floor of importing the MCP server SDK.

Prints, for N runs each (median, min, max): a bare `python -c "import mcp.server.mcpserver"`, our
server spawned and answering `tools/list`, and the same in simulated mode (which starts the embedded
simulator in-process). Issue 2 wants ours within 0.1 s of the floor; issue 4, fixture mode within
0.2 s of ours.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

import anyio

from cursor_cloud_agents.probe import probe

RUNS = 5  # the figure; `--runs N` for more on a noisy machine
ENV = {"PATH": "/usr/bin:/bin", "HOME": "/tmp"}


def floor_seconds() -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import mcp.server.mcpserver"], check=True, env=ENV)
    return time.perf_counter() - started


async def server_seconds(extra_env: dict[str, str]) -> float:
    result = await probe([sys.executable, "-m", "cursor_cloud_agents"], ENV | extra_env)
    return result.seconds_to_tools


def line(label: str, samples: list[float]) -> str:
    return f"{label:<48} median {statistics.median(samples):.3f} s  (min {min(samples):.3f}, max {max(samples):.3f})"


async def main() -> None:
    floor: list[float] = []
    ours: list[float] = []
    simulated: list[float] = []
    # Interleaved, so that a change of load on the machine weighs on the three alike.
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else RUNS
    for _ in range(runs):
        floor.append(floor_seconds())
        ours.append(await server_seconds({}))
        simulated.append(await server_seconds({"CURSOR_MCP_FIXTURE": "1"}))
    sys.stdout.write(line('python -c "import mcp.server.mcpserver"', floor) + "\n")
    sys.stdout.write(line("spawn -> tools/list", ours) + "\n")
    sys.stdout.write(line("spawn -> tools/list, CURSOR_MCP_FIXTURE=1", simulated) + "\n")
    over = statistics.median(ours) - statistics.median(floor)
    fixture = statistics.median(simulated) - statistics.median(ours)
    sys.stdout.write(f"ours over the floor: {over:+.3f} s (budget +0.100)\n")
    sys.stdout.write(f"fixture mode over ours: {fixture:+.3f} s (budget +0.200)\n")


if __name__ == "__main__":
    anyio.run(main)
