"""`fleet`'s declaration: its refresh interval, above 0, reaches `terminal/fleet.fleet`."""

from __future__ import annotations

import pytest

from cursor_cloud_agents.terminal import fleet
from cursor_cloud_agents.terminal.commands import fleet as declared
from tests.terminal.commands.binding import ENV, bound, parsed


def test_fleet_refreshes_every_ten_seconds_unless_told() -> None:
    func, keywords = bound(declared._bind(parsed("fleet"), ENV))  # pyright: ignore[reportPrivateUsage]
    assert func is fleet.fleet and keywords == {"interval": 10.0}
    _, keywords = bound(declared._bind(parsed("fleet", "--interval", "2.5"), ENV))  # pyright: ignore[reportPrivateUsage]
    assert keywords == {"interval": 2.5}


def test_fleet_refuses_an_interval_of_zero(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        parsed("fleet", "--interval", "0")
    assert exited.value.code == 2 and "must be above 0" in capsys.readouterr().err
