"""The SDK against the simulator served on loopback (with faults), its world on an instant clock shared with the
program's, and settings passed whole (the test's own environment is never read)."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.core.timing import Clock
from cursor_cloud_agents.sdk import AsyncCursor
from cursor_cloud_agents.simulator import SIMULATED_API_KEY, Faults, InstantClock, RunningSimulator, World, serve


@dataclass
class SdkRig:
    """One test's simulator, its clock and a connection of the SDK to it."""

    sim: RunningSimulator
    clock: InstantClock
    cursor: AsyncCursor

    @property
    def world(self) -> World:
        return self.sim.world

    def posts(self, path: str) -> int:
        """POST requests received on `path` (a pattern: `/v1/agents/*/runs`)."""
        return self.sim.faults.count("POST", path)


def program_settings(base_url: str, state_dir: Path | None, **limits: str) -> Settings:
    """A program's settings against the simulator: its key, its URL, the store in `state_dir` (None: memory)."""
    env = {
        "CURSOR_API_KEY": SIMULATED_API_KEY,
        "CURSOR_API_BASE_URL": base_url,
        "CURSOR_MCP_STATE_DIR": "memory" if state_dir is None else str(state_dir),
    }
    return Settings.from_env(env | limits)


@asynccontextmanager
async def sdk_rig(
    faults: Faults | None = None, *, state_dir: Path | None = None, **limits: str
) -> AsyncGenerator[SdkRig]:
    """An AsyncCursor connected to a fresh simulated world served with `faults`, both on one instant clock."""
    clock = InstantClock()

    async def jump(seconds: float) -> None:
        await clock.wait(clock.now() + seconds)

    async with serve(World(clock), faults=faults) as sim:
        settings = program_settings(sim.base_url, state_dir, **limits)
        async with AsyncCursor(settings=settings, clock=Clock(now=clock.now, sleep=jump)) as cursor:
            yield SdkRig(sim, clock, cursor)
