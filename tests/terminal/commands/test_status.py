"""`status`' declaration: it binds `terminal/status.status` as is."""

from __future__ import annotations

from cursor_cloud_agents.terminal import status
from cursor_cloud_agents.terminal.commands import status as declared
from tests.terminal.commands.binding import ENV, parsed


def test_status_binds_its_coroutine() -> None:
    assert declared._bind(parsed("status", "--json"), ENV) is status.status  # pyright: ignore[reportPrivateUsage]
