"""The demo's story (issue 5) as a test: every step succeeds and every answer fits the result cap."""

from __future__ import annotations

from pathlib import Path

import pytest

from cursor_cloud_agents.cli.demo import CHECK_COMMAND, Walk, story
from cursor_cloud_agents.simulator import ManualClock, World
from tests.stand_in import make_remote
from tests.tool_harness import OpenHarness

pytestmark = pytest.mark.anyio


async def test_the_demo_story_runs_every_step_without_an_error_and_within_the_cap(
    harness_factory: OpenHarness, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 5: account, models, create, wait, events, usage, follow-up, replace, supervise, cancel, archive, delete;
    issue 30: the change of the agent it ran (its files and diff printed) and the demo's check command on it."""
    remote = make_remote(tmp_path)
    world = remote.attach(World(ManualClock()))
    options = {"git_places": remote.places(), "check_command": CHECK_COMMAND}
    async with harness_factory(world, allow_delete=True, **options) as h:
        walk = Walk(h.mcp)
        await story(walk)
    printed = capsys.readouterr().out
    assert walk.errors == 0, printed
    assert 0 < walk.largest <= 38_000
    assert "replaced_run_id" in printed and '"deleted":true' in printed
    assert "modified README.md  +5 -0" in printed and "│ +## Setup" in printed
    assert "check passed (exit 0" in printed
