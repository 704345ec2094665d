"""Issue 15 acceptance: the demo story recorded, then replayed from the trace, answers identically (ids included)."""

from __future__ import annotations

from collections.abc import AsyncGenerator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from cursor_cloud_agents.api import CursorClient
from cursor_cloud_agents.api.record import Recorder
from cursor_cloud_agents.cli.demo import Walk, story
from cursor_cloud_agents.config import Secret, Settings
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.server.app import build_server
from cursor_cloud_agents.simulator import SIMULATED_API_KEY, ManualClock, build_scenario, serve, serve_replay

pytestmark = pytest.mark.anyio

AGENT_ID = "bc-15151515-1515-4515-8515-151515151515"


class Transcript(Walk):
    """The demo's walk, keeping every whole answer."""

    answers: list[dict[str, Any]]

    async def call(self, tool: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        answer = await super().call(tool, arguments)
        self.answers = [*getattr(self, "answers", []), {"tool": tool, "answer": answer}]
        return answer


async def walk_story(base_url: str, clock: ManualClock, recorder: Recorder | None) -> list[dict[str, Any]]:
    """The demo story through the MCP server, its client on `clock`, which the tools' waits advance."""

    async def advance(seconds: float) -> None:
        clock.advance(seconds)
        await anyio.lowlevel.checkpoint()

    api = CursorClient(
        base_url,
        SIMULATED_API_KEY,
        allow_loopback_artifacts=True,
        clock=clock.now,
        wall_clock=clock.now,
        sleep=advance,
        observer=recorder,
    )

    @asynccontextmanager
    async def borrow() -> AsyncGenerator[CursorClient]:
        yield api

    opener: Callable[[], AbstractAsyncContextManager[CursorClient]] = borrow
    settings = Settings(api_key=Secret(SIMULATED_API_KEY), allow_writes=True, allow_delete=True)
    server = build_server(settings, Redactor(settings.secrets()), opener, clock=clock.now, sleep=advance)
    async with api, Client(server, mode="legacy") as mcp:
        walk = Transcript(mcp)
        with anyio.fail_after(60):
            await story(walk, AGENT_ID, changes=False)  # a trace holds the API's answers, not git's
    assert walk.errors == 0
    return walk.answers


async def test_the_demo_story_recorded_then_replayed_gives_identical_tool_answers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 15: a `--record` of the demo replays through `simulate --replay` with the same answers, ids included."""
    world = build_scenario("demo", ManualClock())
    assert isinstance(world.clock, ManualClock)
    async with serve(world) as sim:
        recorded = await walk_story(sim.base_url, world.clock, Recorder(tmp_path, mask=str, keep_text=True))
    async with serve_replay(tmp_path) as replay_url:
        replayed = await walk_story(replay_url, ManualClock(), None)  # the same start: the same "now" for the tools
    capsys.readouterr()
    assert len(recorded) == 12 and AGENT_ID in str(recorded)
    assert replayed == recorded
