"""A harness for end-to-end tool tests: the MCP server in memory, over JSON-RPC, against the simulator.

The simulator runs on a manual clock over real loopback HTTP. Tools that pause (`kit.sleep`)
advance that clock instead of sleeping, and read the time from it (`kit.now`), so waits and idle
times are deterministic and no test really sleeps.
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp_types import CallToolResult, ImageContent

from cursor_cloud_agents.api import CursorClient
from cursor_cloud_agents.config import Secret, Settings
from cursor_cloud_agents.core.review.changes import GitPlaces
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.server.app import build_server
from cursor_cloud_agents.simulator import SIMULATED_API_KEY, Faults, ManualClock, RunningSimulator, World, serve


@dataclass
class Reply:
    """One tool answer: its JSON object (checked identical in text and structured content)."""

    data: dict[str, Any]
    is_error: bool
    size: int

    @property
    def code(self) -> str | None:
        return self.data.get("code") if self.is_error else None


@dataclass
class Harness:
    """The pieces of one end-to-end tool test."""

    clock: ManualClock
    world: World
    sim: RunningSimulator
    api: CursorClient
    mcp: Client
    redactor: Redactor
    progress: list[str] = field(default_factory=list[str])

    async def call(self, tool: str, arguments: dict[str, Any] | None = None) -> Reply:
        """Call `tool` and return its answer, recording any progress messages."""

        async def on_progress(progress: float, total: float | None, message: str | None) -> None:
            del progress, total
            self.progress.append(message or "")

        with anyio.fail_after(30):
            result = await self.mcp.call_tool(tool, arguments or {}, progress_callback=on_progress)
        return reply_of(result)

    def requests(self, method: str | None = None) -> list[Any]:
        """What the simulator received (optionally only one method), oldest first."""
        return [record for record in self.sim.faults.requests if method is None or record.method == method]


def reply_of(result: CallToolResult) -> Reply:
    block = result.content[0]
    text = getattr(block, "text", None)
    assert isinstance(text, str)
    data = json.loads(text)
    if any(isinstance(block, ImageContent) for block in result.content):
        assert result.structured_content is None, "an answer with an image carries structuredContent"
    else:
        assert data == result.structured_content, "text and structuredContent differ"
    return Reply(data, bool(result.is_error), len(text.encode()))


OpenHarness = Callable[..., AbstractAsyncContextManager[Harness]]


@asynccontextmanager
async def open_harness(
    world: World | None = None,
    *,
    faults: Faults | None = None,
    api_key: str = SIMULATED_API_KEY,
    client_options: dict[str, Any] | None = None,
    server_options: dict[str, Any] | None = None,
    silence_scale: float = 1.0,
    git_places: GitPlaces | None = None,
    **settings: Any,
) -> AsyncGenerator[Harness, None]:
    """A harness over `world` (a fresh one by default); `settings` override Settings fields.

    Writes are on by default (tests of the gates turn them off); deletion is off; the limit of agents
    running at once is out of the way (tests of it set `max_active_agents`). `api_key` must be one the
    world accepts (`world.add_api_key`). `client_options` go to the MCP client (an elicitation callback,
    the protocol `mode`). `silence_scale`: the replay walks' silences in real time (`CursorClient`), for
    tests that listen to quiet replays without waiting 1.5 s each. `git_places`: where the changes tools find
    git (none by default); `server_options` go to the server's toolkit.
    """
    clock = world.clock if world is not None else ManualClock()
    assert isinstance(clock, ManualClock)
    world = world if world is not None else World(clock)
    options: dict[str, Any] = {"api_key": Secret(api_key), "allow_writes": True, "max_active_agents": 10_000}
    options |= settings
    config = Settings(**options)

    async def advance(seconds: float) -> None:
        clock.advance(seconds)
        await anyio.lowlevel.checkpoint()

    async with serve(world, faults=faults) as sim:
        # The client's caches, limiter and stream connection time run on the world's clock too.
        api = CursorClient(
            sim.base_url,
            api_key,
            allow_loopback_artifacts=True,
            clock=clock.now,
            wall_clock=clock.now,
            sleep=advance,
            silence_scale=silence_scale,
        )

        @asynccontextmanager
        async def borrow() -> AsyncGenerator[CursorClient, None]:
            yield api

        redactor = Redactor(config.secrets())
        server = build_server(
            config,
            redactor,
            borrow,
            clock=clock.now,
            sleep=advance,
            hard_stop_grace=0.5,
            **({"git_places": git_places} | (server_options or {})),
        )
        client_settings: dict[str, Any] = {"mode": "legacy"} | (client_options or {})
        async with api, Client(server, **client_settings) as client:
            yield Harness(clock, world, sim, api, client, redactor)


@pytest.fixture
def harness_factory() -> OpenHarness:
    """`async with harness_factory(world, allow_writes=False) as h:` for tests that shape their world."""
    return open_harness


@pytest.fixture
async def harness() -> AsyncGenerator[Harness, None]:
    """A harness over a fresh world with writes on."""
    async with open_harness() as opened:
        yield opened
