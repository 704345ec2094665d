"""The demo's story (issue 5) as a test: every step succeeds and every answer fits the result cap."""

from __future__ import annotations

import pytest

from cursor_cloud_agents.demo import Walk, story
from tests.tools.conftest import OpenHarness

pytestmark = pytest.mark.anyio


async def test_the_demo_story_runs_every_step_without_an_error_and_within_the_cap(
    harness_factory: OpenHarness, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 5: account, models, create, wait, events, usage, follow-up, replace, supervise, cancel, archive, delete."""
    async with harness_factory(allow_delete=True) as h:
        walk = Walk(h.mcp)
        await story(walk)
    printed = capsys.readouterr().out
    assert walk.errors == 0, printed
    assert 0 < walk.largest <= 38_000
    assert "replaced_run_id" in printed and '"deleted":true' in printed
