"""`compare` and `keep`'s declarations: a group id, lower-cased, reaches `terminal/attempts.py`."""

from __future__ import annotations

from pathlib import Path

import pytest

from cursor_cloud_agents.terminal import attempts
from cursor_cloud_agents.terminal.commands import attempts as declared
from tests.terminal.commands.binding import ENV, GROUP, bound, parsed


def test_compare_binds_the_group_here() -> None:
    func, keywords = bound(declared._compare(parsed("compare", GROUP.upper()), ENV))  # pyright: ignore[reportPrivateUsage]
    assert func is attempts.compare_group
    assert keywords == {"group": GROUP, "cwd": Path.cwd(), "env": ENV}


def test_keep_binds_the_group_and_the_attempt() -> None:
    func, keywords = bound(declared._keep(parsed("keep", GROUP, "2"), ENV))  # pyright: ignore[reportPrivateUsage]
    assert func is attempts.keep_attempt and keywords == {"group": GROUP, "agent_id": "2"}


def test_compare_refuses_what_is_not_a_group(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        parsed("compare", "bc-00000000-0000-4000-8000-000000000001")
    assert exited.value.code == 2 and "is not a group id" in capsys.readouterr().err
