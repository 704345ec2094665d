"""Fixtures of the SDK tests: a program's environment with only the key and the base URL of a mock set."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from cursor_cloud_agents.sdk import close_default_client
from tests.sdk.mockapi import KEY

ProgramEnvironment = Callable[[str], None]


@pytest.fixture
def program_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[ProgramEnvironment]:
    """Set the process environment as a program's would be: `CURSOR_API_KEY` and `CURSOR_API_BASE_URL` only
    (every other CURSOR_ variable removed; HOME a fresh folder, so the store of paid acts is the test's own)."""

    def set_for(base_url: str) -> None:
        for name in list(os.environ):
            if name.startswith("CURSOR_") or name == "XDG_STATE_HOME":
                monkeypatch.delenv(name)
        monkeypatch.setenv("HOME", str(tmp_path))
        monkeypatch.setenv("CURSOR_API_KEY", KEY)
        monkeypatch.setenv("CURSOR_API_BASE_URL", base_url)

    yield set_for
    close_default_client()
