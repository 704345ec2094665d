"""Starts the TypeScript SDK client check in the background when its tests were collected (tests/e2e/ts_check.py)."""

from __future__ import annotations

import pytest

from tests.e2e import ts_check

TS_TESTS = "tests/e2e/test_ts_sdk_client.py::"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The client's tests last, so the check runs beside the rest of the suite and is done by then."""
    items.sort(key=lambda item: item.nodeid.startswith(TS_TESTS))


def pytest_collection_finish(session: pytest.Session) -> None:
    if any(item.nodeid.startswith(TS_TESTS) for item in session.items):
        ts_check.start(session.config)


def pytest_sessionfinish(session: pytest.Session) -> None:
    ts_check.stop(session.config)
