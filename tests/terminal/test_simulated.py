"""`terminal/simulated.py`: a `--simulated` command's session against the person's lasting world."""

from __future__ import annotations

from pathlib import Path

import pytest

from cursor_cloud_agents.terminal import lasting, simulated

pytestmark = pytest.mark.anyio


async def test_the_lasting_worlds_session_reads_github_from_that_world(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 43 with issue 46: `pr` and `babysit --simulated` read the PRs of the world they reach, the lasting
    one's GitHub stand-in (`make demo`'s babysit found no GitHub when the session named none)."""
    world = lasting.WorldRecord(
        pid=1, base_url="http://127.0.0.1:9", key="k", scenario="demo", speed=1.0, started=0.0, world_at=0.0
    )

    def reach(*_args: object) -> lasting.WorldRecord:
        return world

    monkeypatch.setattr(lasting, "reach", reach)
    async with simulated.lasting_session(tmp_path, None, None, {}) as session:
        assert session.github_url == "http://127.0.0.1:9/github"
        assert session.base_url == "http://127.0.0.1:9"
