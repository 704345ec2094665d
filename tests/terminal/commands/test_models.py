"""`models`' declaration: it binds `terminal/models.models` as is."""

from __future__ import annotations

from cursor_cloud_agents.terminal import models
from cursor_cloud_agents.terminal.commands import models as declared
from tests.terminal.commands.binding import ENV, parsed


def test_models_binds_its_coroutine() -> None:
    assert declared._bind(parsed("models"), ENV) is models.models  # pyright: ignore[reportPrivateUsage]
