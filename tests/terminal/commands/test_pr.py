"""`pr` and `babysit`'s declarations: the agent or its PR, and the watch's limits (the commands are proved in
`tests/terminal/test_pr.py`)."""

from __future__ import annotations

import pytest

from cursor_cloud_agents.terminal import pr
from cursor_cloud_agents.terminal.commands import pr as declared
from tests.terminal.commands.binding import ENV, bound, parsed


def test_babysit_binds_its_watch_three_fixes_a_minute_apart_by_default() -> None:
    func, keywords = bound(declared._babysit(parsed("babysit", "o/r#7"), ENV))  # pyright: ignore[reportPrivateUsage]
    assert func is pr.babysit
    assert keywords == {"target": "o/r#7", "watching": pr.Watching(3, 60.0, False), "env": ENV}


def test_babysit_refuses_more_than_fifty_fixes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        parsed("babysit", "o/r#7", "--max-fixes", "51")
    assert exited.value.code == 2 and "must be between 0 and 50" in capsys.readouterr().err
