"""The terminal commands' figures: start-up of `agents --simulated --json`, and the fleet dashboard's cost.

1. Start-up: spawn to exit of `cursor-cloud-agents agents --simulated --json` (the embedded simulator
   started, the agents listed and read, the JSON printed), against the server's spawn to `tools/list`
   answered (plain, and in simulated mode). Issue 14: the command within the server's time + 0.2 s.
2. Fleet: over the 500-agent `fleet` scenario, the requests each refresh sends (counted by the
   simulator) and the time to draw the dashboard once its data is in (issue 14: under 1 s).
"""

from __future__ import annotations

import io
import statistics
import sys
import time

import anyio
from rich.console import Console
from startup import ENV, RUNS, line, server_seconds

from cursor_cloud_agents.api import CursorClient
from cursor_cloud_agents.simulator import SIMULATED_API_KEY, ManualClock, build_scenario, serve
from cursor_cloud_agents.terminal.board import Board
from cursor_cloud_agents.terminal.fleet import draw
from cursor_cloud_agents.terminal.term import Session

COMMAND = [sys.executable, "-m", "cursor_cloud_agents", "agents", "--simulated", "--json"]


async def command_seconds() -> float:
    started = time.perf_counter()
    done = await anyio.run_process(COMMAND, env=ENV, check=True)
    assert done.stdout.startswith(b'{"agents":'), done.stdout[:80]
    return time.perf_counter() - started


async def startup() -> None:
    ours: list[float] = []
    server: list[float] = []
    simulated: list[float] = []
    for _ in range(RUNS):  # interleaved, so that a change of load weighs on all alike
        ours.append(await command_seconds())
        server.append(await server_seconds({}))
        simulated.append(await server_seconds({"CURSOR_MCP_FIXTURE": "1"}))
    out = sys.stdout
    out.write(line("agents --simulated --json (spawn -> exit)", ours) + "\n")
    out.write(line("server spawn -> tools/list", server) + "\n")
    out.write(line("server spawn -> tools/list, CURSOR_MCP_FIXTURE=1", simulated) + "\n")
    median = statistics.median
    out.write(
        f"agents over the server: {median(ours) - median(server):+.3f} s; over the simulated server: "
        f"{median(ours) - median(simulated):+.3f} s (budget +0.200)\n"
    )


async def fleet(refreshes: int = 4) -> None:
    clock = ManualClock()
    world = build_scenario("fleet", clock)

    async def advance(seconds: float) -> None:
        clock.advance(seconds)
        await anyio.lowlevel.checkpoint()

    async with (
        serve(world) as sim,
        CursorClient(sim.base_url, SIMULATED_API_KEY, clock=clock.now, wall_clock=clock.now, sleep=advance) as api,
    ):
        board = Board(Session(api, now=clock.now, sleep=advance), interval=10.0)
        for refresh in range(1, refreshes + 1):
            before = len(sim.requests)
            started = time.perf_counter()
            with anyio.fail_after(60):
                await board.refresh()
            read = time.perf_counter() - started
            started = time.perf_counter()
            Console(file=io.StringIO(), width=160).print(draw(board))
            drawn = time.perf_counter() - started
            sys.stdout.write(
                f"fleet refresh {refresh}: {len(sim.requests) - before} requests (budget {board.budget} + list pages), "
                f"{len(board.shown())} rows shown of {board.listed}; read {read:.2f} s, "
                f"drawn in {drawn * 1000:.0f} ms\n"
            )
            clock.advance(board.interval)


async def main() -> None:
    await fleet()
    await startup()


if __name__ == "__main__":
    anyio.run(main)
