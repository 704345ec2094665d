"""Starts the TypeScript SDK client check in the background when its tests were collected (tests/e2e/ts_check.py),
and holds the one spawned server the wire cases that only exchange lines share."""

from __future__ import annotations

import subprocess
from collections.abc import Generator

import pytest

from tests.e2e import ts_check
from tests.e2e.wire import initialized, server

TS_TESTS = "tests/e2e/test_ts_sdk_client.py::"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The client's tests last, so the check runs beside the rest of the suite and is done by then."""
    items.sort(key=lambda item: item.nodeid.startswith(TS_TESTS))


def pytest_collection_finish(session: pytest.Session) -> None:
    if any(item.nodeid.startswith(TS_TESTS) for item in session.items):
        ts_check.start(session.config)


def pytest_sessionfinish(session: pytest.Session) -> None:
    ts_check.stop(session.config)


@pytest.fixture(scope="session")
def answering() -> Generator[subprocess.Popen[bytes], None, None]:
    """One initialized server (a process of the suite's worker) for the wire cases that only send lines and read
    their answers, instead of a spawn (about a second of the SDK's import) each: every such case ends with
    `still_in_step`, so one that left an answer unread fails itself, and each case's lines are answered by a
    server that has answered others' before."""
    with server() as process:
        initialized(process)
        yield process
