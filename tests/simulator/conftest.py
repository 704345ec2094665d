"""Fixtures for the simulator tests: a manual clock, a world, and the world served on loopback."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx2
import pytest

from cursor_cloud_agents.simulator import SIMULATED_API_KEY, Faults, ManualClock, RunningSimulator, World, serve


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def world(clock: ManualClock) -> World:
    return World(clock)


@pytest.fixture
def faults() -> Faults:
    return Faults()


@pytest.fixture
async def sim(world: World, faults: Faults) -> AsyncIterator[RunningSimulator]:
    async with serve(world, faults=faults) as running:
        yield running


@pytest.fixture
async def client(sim: RunningSimulator) -> AsyncIterator[httpx2.AsyncClient]:
    headers = {"Authorization": f"Bearer {SIMULATED_API_KEY}"}
    async with httpx2.AsyncClient(base_url=sim.base_url, headers=headers, timeout=10) as http:
        yield http


def parse_sse(text: str) -> list[dict[str, str]]:
    """Split an SSE body into frames `{"id"?, "event", "data"}` (exact `name: value` framing only)."""
    frames: list[dict[str, str]] = []
    for block in text.split("\n\n"):
        if not block:
            continue
        frame: dict[str, str] = {}
        for line in block.split("\n"):
            name, sep, value = line.partition(": ")
            assert sep and name in ("id", "event", "data"), f"bad SSE line {line!r}"
            frame[name] = value
        frames.append(frame)
    return frames
