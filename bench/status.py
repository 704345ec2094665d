"""Bench: `cursor-cloud-agents status` warm (issue 24: under 0.3 s), the console script spawned as a status bar does.

Against a simulator served on loopback (the fleet scenario: 500 agents), with a state directory of its own:
one cold run (it lists the agents and writes the cache), then N warm runs of the installed console script,
each timed from spawn to exit. Prints the cold time and the warm median, min and max.

Run: `.venv/bin/python bench/status.py [--runs 20]`
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import anyio

from cursor_cloud_agents.simulator import SIMULATED_API_KEY, RealClock, build_scenario, serve

SCRIPT = Path(sys.executable).parent / "cursor-cloud-agents"


async def timed(env: dict[str, str]) -> float:
    started = time.perf_counter()
    done = await anyio.run_process([str(SCRIPT), "status"], env=env, check=True)
    elapsed = time.perf_counter() - started
    assert done.stdout.startswith(b"cursor: "), done.stdout
    return elapsed


async def main(runs: int) -> None:
    async with serve(build_scenario("fleet", RealClock())) as sim:
        with tempfile.TemporaryDirectory() as state:
            env = {
                "PATH": "/usr/bin:/bin",
                "HOME": state,
                "CURSOR_API_BASE_URL": sim.base_url,
                "CURSOR_API_KEY": SIMULATED_API_KEY,
                "CURSOR_MCP_STATE_DIR": state,
            }
            cold = await timed(env)
            warm = [await timed(env) for _ in range(runs)]
    print(f"status cold (lists 500 agents, writes the cache)  {cold:.3f} s")
    print(
        f"status warm, {runs} runs   median {statistics.median(warm):.3f} s  (min {min(warm):.3f}, max {max(warm):.3f})"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=20)
    anyio.run(main, parser.parse_args().runs)
