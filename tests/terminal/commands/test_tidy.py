"""`tidy`'s declaration: a dry run, the consent and the idle days reach `terminal/tidy.tidy`."""

from __future__ import annotations

from cursor_cloud_agents.terminal import tidy
from cursor_cloud_agents.terminal.commands import tidy as declared
from tests.terminal.commands.binding import ENV, bound, parsed


def test_tidy_binds_its_options_seven_idle_days_by_default() -> None:
    func, keywords = bound(declared._bind(parsed("tidy", "--dry-run"), ENV))  # pyright: ignore[reportPrivateUsage]
    assert func is tidy.tidy
    assert keywords == {"dry_run": True, "confirmed": False, "idle_days": 7.0, "env": ENV}
