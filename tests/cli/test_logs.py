"""Logging (`cli/logs.py`): every record to stderr, masked, nothing on stdout (the MCP protocol's channel)."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from cursor_cloud_agents.cli.logs import setup_logging
from cursor_cloud_agents.redact import Redactor

SECRET = "sk-live-abcdef0123456789"


@pytest.fixture
def root_restored() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
    logging.getLogger("httpx2").setLevel(logging.NOTSET)


def test_a_log_line_goes_to_stderr_masked_and_never_to_stdout(
    root_restored: None, capsys: pytest.CaptureFixture[str]
) -> None:
    setup_logging("INFO", Redactor([SECRET]))
    logging.getLogger("cursor_cloud_agents.test").info("key %s", SECRET)
    out, err = capsys.readouterr()
    assert out == "" and "key " in err and SECRET not in err


def test_chatty_libraries_are_quiet_unless_debugging(root_restored: None) -> None:
    setup_logging("INFO", Redactor())
    assert logging.getLogger("httpx2").level == logging.WARNING
    setup_logging("DEBUG", Redactor())
    assert logging.getLogger("httpx2").level == logging.DEBUG
