"""The simulator's own speed, so that client benchmarks measure the client: start-up of `serve()`,
paging the 500-agent fleet, and serving a 16 MiB replay over loopback. Median of 5 runs each.
"""

from __future__ import annotations

import statistics
import sys
import time

import anyio
import httpx2

from cursor_cloud_agents.simulator import SIMULATED_API_KEY, ManualClock, World, build_scenario, seed_replay_run, serve

RUNS = 5
AUTH = {"Authorization": f"Bearer {SIMULATED_API_KEY}"}


async def start_seconds() -> float:
    world = World(ManualClock())
    started = time.perf_counter()
    async with serve(world):
        return time.perf_counter() - started


async def fleet_seconds(world: World) -> float:
    async with serve(world) as sim, httpx2.AsyncClient(base_url=sim.base_url, headers=AUTH) as http:
        started, cursor = time.perf_counter(), None
        while True:
            params = {"limit": "100"} | ({"cursor": cursor} if cursor else {})
            cursor = (await http.get("/v1/agents", params=params)).json().get("nextCursor")
            if cursor is None:
                return time.perf_counter() - started


async def replay_mb_per_second(world: World, path: str) -> float:
    async with serve(world) as sim, httpx2.AsyncClient(base_url=sim.base_url, headers=AUTH) as http:
        started, size = time.perf_counter(), 0
        async with http.stream("GET", path) as response:
            async for chunk in response.aiter_raw(1 << 20):
                size += len(chunk)
        return size / (time.perf_counter() - started) / 1e6


async def main() -> None:
    fleet = build_scenario("fleet", ManualClock())
    replay_world = World(ManualClock())
    agent, run = seed_replay_run(replay_world, 16 * 1024 * 1024)
    path = f"/v1/agents/{agent.id}/runs/{run.id}/stream"
    starts = [await start_seconds() for _ in range(RUNS)]
    pages = [await fleet_seconds(fleet) for _ in range(RUNS)]
    rates = [await replay_mb_per_second(replay_world, path) for _ in range(RUNS)]
    out = sys.stdout
    out.write(f"serve() start-up:            median {statistics.median(starts) * 1000:.1f} ms\n")
    out.write(f"page 500 fleet agents:       median {statistics.median(pages) * 1000:.0f} ms (5 requests of 100)\n")
    out.write(f"serve a 16 MiB replay:       median {statistics.median(rates):.0f} MB/s\n")


if __name__ == "__main__":
    anyio.run(main)
