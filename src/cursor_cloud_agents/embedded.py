"""The API client of a set of settings, real or against an embedded simulator served in-process: the server
and the commands (`open_client`, handed down by `cli.py`), the terminal's `--simulated` (`terminal.simulated`) and
the SDK face (`sdk`) all open theirs here.

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
from urllib.parse import urlsplit

from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.guards.net import is_loopback_host
from cursor_cloud_agents.redact import Redactor

if TYPE_CHECKING:
    # Loaded when a client is opened, not when cli.py imports this module: a server answers `initialize`
    # and `tools/list` without the API client, its recorder or the simulator.
    from cursor_cloud_agents.api.client import CursorClient
    from cursor_cloud_agents.api.record import Observer
    from cursor_cloud_agents.simulator import InstantClock, WorldClock


def simulator_folder() -> Path:
    """The simulator's folder of `simulate` and `--simulated`, the same on every run of this user: a clone of its
    stand-in remote made once keeps working, since a world gives the same commits every time it is built."""
    return Path(tempfile.gettempdir()) / f"cursor-cloud-agents-simulator-{os.getuid()}"


def stand_in_remote_folder(folder: Path) -> Path:
    """Where, inside a simulator's folder, the bare repositories standing in for GitHub are."""
    return folder / "remote"


SSH_HOSTS = ("github.com", "gitlab.com", "bitbucket.org")
"""Hosts whose scp-like ssh spelling (`git@github.com:OWNER/REPO.git`, a person's `origin`) goes to the stand-in."""


def stand_in_git_config(folder: Path) -> tuple[tuple[str, str], ...]:
    """The git settings that send the agents' repository URLs to the stand-in remote of `folder`: https, and the
    ssh spellings a person's own clone may use (`ssh://git@HOST/...`, `git@HOST:...`)."""
    from cursor_cloud_agents.simulator import StandInRemote

    remote = StandInRemote(stand_in_remote_folder(folder))
    https = remote.rewrite()
    base = remote.folder.as_uri()
    scp_like = tuple((f"url.{base}/{host}/.insteadOf", f"git@{host}:") for host in SSH_HOSTS)
    return (https, (https[0], "ssh://git@"), *scp_like)


@asynccontextmanager
async def simulated_client(
    observer: Observer | None = None,
    *,
    scenario: str = "demo",
    clock: WorldClock | None = None,
    api_key: str | None = None,
    folder: Path | None = None,
) -> AsyncGenerator[CursorClient, None]:
    """A client of a fresh simulated world of `scenario`, on `clock` (real time by default; the SDK's instant
    time, a test's manual clock), with the key the
    simulator accepts, or `api_key` (which it refuses: `verify` checks that a wrong key answers 401). With
    `folder`, the world's runs push their branches to a stand-in remote there (`stand_in_git_config`)."""
    from cursor_cloud_agents.api.client import CursorClient
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


def instant_clock() -> InstantClock:
    """A simulated world's clock whose time jumps to whatever is waited for (the SDK's simulated mode)."""
    from cursor_cloud_agents.simulator import InstantClock

    return InstantClock()


def _observer(settings: Settings, observer: Observer | None, redactor: Redactor | None) -> Observer | None:
    """`observer`, plus the recorder of CURSOR_MCP_RECORD_DIR when it is set, masking with `redactor` (the
    server's own, which learns each call's `env_vars` values) or, without one, a redactor of the settings."""
    if settings.record_dir is None:
        return observer
    from cursor_cloud_agents.api.record import Observers, Recorder

    mask = (redactor if redactor is not None else Redactor(settings.secrets())).mask
    recorder = Recorder(settings.record_dir, mask=mask, keep_text=settings.record_keep_text)
    return recorder if observer is None else Observers([observer, recorder])


@asynccontextmanager
async def open_client(
    settings: Settings,
    observer: Observer | None = None,
    *,
    redactor: Redactor | None = None,
    scenario: str = "demo",
    clock: WorldClock | None = None,
    folder: Path | None = None,
) -> AsyncGenerator[CursorClient, None]:
    """The API client for `settings`: the real API, or an embedded simulator of `scenario` on `clock` in simulated
    mode (its runs pushing to a stand-in remote in `folder`, when given); every exchange goes to `observer` and,
    with CURSOR_MCP_RECORD_DIR, to a recorder masking with `redactor` (pass the server's: it knows the per-call
    secrets)."""
    from cursor_cloud_agents.api.client import CursorClient

    observer = _observer(settings, observer, redactor)
    key = None if settings.api_key is None else settings.api_key.reveal()
    if settings.simulated:
        # from_env never keeps a key in simulated mode: one here is verify's deliberately wrong one, to be refused.
        async with simulated_client(observer, api_key=key, scenario=scenario, clock=clock, folder=folder) as client:
            yield client
        return
    async with CursorClient(
        settings.base_url,
        key,
        artifact_host_suffixes=settings.artifact_hosts,
        allow_loopback_artifacts=is_loopback_host(urlsplit(settings.base_url).hostname or ""),
        team_id=settings.team_id,
        observer=observer,
    ) as client:
        yield client
