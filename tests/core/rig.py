"""A rig for core tests: one of our processes (a `CoreState`) against the simulator, on its manual clock."""

from __future__ import annotations

from collections.abc import AsyncGenerator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from cursor_cloud_agents.api import CursorClient
from cursor_cloud_agents.config import Secret, Settings
from cursor_cloud_agents.core.state import CoreState
from cursor_cloud_agents.core.timing import Clock
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.simulator import SIMULATED_API_KEY, ManualClock, RunningSimulator


def pausing_on(clock: ManualClock) -> Callable[[float], Any]:
    """A pause that waits for the test to move the clock (never moves it itself)."""

    async def sleep(seconds: float) -> None:
        until = clock.now() + seconds
        while clock.now() < until:
            await clock.wait(until)

    return sleep


@asynccontextmanager
async def process(
    sim: RunningSimulator, clock: ManualClock, state_dir: Path, **settings: Any
) -> AsyncGenerator[CoreState]:
    """One of our processes: its settings, clock, API client and store on the shared state directory."""
    config = Settings(
        api_key=Secret(SIMULATED_API_KEY), allow_writes=True, max_active_agents=10_000, state_dir=state_dir, **settings
    )
    sleep = pausing_on(clock)
    api = CursorClient(sim.base_url, SIMULATED_API_KEY, clock=clock.now, wall_clock=clock.now, sleep=sleep)
    async with api:
        yield CoreState(config, Redactor(config.secrets()), Clock(now=clock.now, sleep=sleep), client=api)
