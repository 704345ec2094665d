"""The API client against an embedded simulator, served in-process: the server's simulated mode
(`cli.open_client`) and the terminal's `--simulated` (`terminal.simulated`) both open theirs here.

The simulator (Starlette, uvicorn) is imported only when one is opened, so that the real mode never
pays for it. The client reads the simulated world's clock as its wall clock, so times it computes agree
with the simulated runs at any speed.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import AsyncGenerator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from cursor_cloud_agents.api.client import CursorClient
from cursor_cloud_agents.api.record import Observer

if TYPE_CHECKING:
    from cursor_cloud_agents.simulator import RealClock


def simulator_folder() -> Path:
    """The simulator's folder of `simulate` and `--simulated`, the same on every run of this user: a clone of its
    stand-in remote made once keeps working, since a world gives the same commits every time it is built."""
    return Path(tempfile.gettempdir()) / f"cursor-cloud-agents-simulator-{os.getuid()}"


def stand_in_remote_folder(folder: Path) -> Path:
    """Where, inside a simulator's folder, the bare repositories standing in for GitHub are."""
    return folder / "remote"


def stand_in_git_config(folder: Path) -> tuple[tuple[str, str], ...]:
    """The git settings that send the agents' repository URLs to the stand-in remote of `folder`."""
    from cursor_cloud_agents.simulator import StandInRemote

    return (StandInRemote(stand_in_remote_folder(folder)).rewrite(),)


@asynccontextmanager
async def simulated_client(
    observer: Observer | None = None,
    *,
    scenario: str = "demo",
    clock: RealClock | None = None,
    api_key: str | None = None,
    folder: Path | None = None,
) -> AsyncGenerator[CursorClient, None]:
    """A client of a fresh simulated world of `scenario`, on `clock` (real time by default), with the key the
    simulator accepts, or `api_key` (which it refuses: `verify` checks that a wrong key answers 401). With
    `folder`, the world's runs push their branches to a stand-in remote there (`stand_in_git_config`)."""
    from cursor_cloud_agents.simulator import SIMULATED_API_KEY, RealClock, StandInRemote, build_scenario, serve

    clock = clock or RealClock()
    world = build_scenario(scenario, clock)
    if folder is not None:
        world.remote = StandInRemote(stand_in_remote_folder(folder))
    try:
        async with (
            serve(world) as sim,
            CursorClient(
                sim.base_url,
                api_key or SIMULATED_API_KEY,
                allow_loopback_artifacts=True,
                observer=observer,
                wall_clock=clock.now,
            ) as client,
        ):
            yield client
    except BaseExceptionGroup as group:
        # The simulator serves from a task group, which wraps whatever the block raised (an API refusal,
        # Ctrl-C): the caller gets it as it was raised, as it would from the real API.
        if len(group.exceptions) != 1:
            raise
        raise group.exceptions[0] from None
