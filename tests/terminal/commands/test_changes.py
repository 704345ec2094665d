"""`diff` and `apply`'s declarations: an agent or one of its runs, the paths, and how to apply."""

from __future__ import annotations

from pathlib import Path

import pytest

from cursor_cloud_agents.terminal import changes
from cursor_cloud_agents.terminal.commands import changes as declared
from tests.terminal.commands.binding import AGENT, ENV, RUN, bound, parsed


def test_diff_binds_the_run_and_the_paths() -> None:
    func, keywords = bound(declared._diff(parsed("diff", f"{AGENT}:{RUN}", "src"), ENV))  # pyright: ignore[reportPrivateUsage]
    assert func is changes.diff_command
    assert keywords == {"agent_id": AGENT, "run_id": RUN, "paths": ["src"], "cwd": Path.cwd(), "env": ENV}


def test_apply_fast_forwards_by_default_and_takes_the_reviewed_commit_in_lower_case() -> None:
    commit = "AB" * 20
    func, keywords = bound(declared._apply(parsed("apply", AGENT, "--commit", commit), ENV))  # pyright: ignore[reportPrivateUsage]
    assert func is changes.apply_command
    assert (keywords["mode"], keywords["commit"], keywords["confirmed"]) == ("fast-forward", commit.lower(), False)
    _, keywords = bound(declared._apply(parsed("apply", AGENT, "--cherry-pick", "--yes"), ENV))  # pyright: ignore[reportPrivateUsage]
    assert (keywords["mode"], keywords["confirmed"]) == ("cherry-pick", True)


def test_apply_refuses_a_short_commit(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        parsed("apply", AGENT, "--commit", "abc123")
    assert exited.value.code == 2 and "is not a full commit id" in capsys.readouterr().err
