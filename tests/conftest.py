"""Shared fixtures: every async test runs on asyncio through anyio's pytest plugin, and the tool harness
(`tests/tool_harness.py`: a real MCP client session over the server against the simulator) is at hand everywhere."""

import gc

import pytest

from tests.tool_harness import harness, harness_factory

__all__ = ["harness", "harness_factory"]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection built (every test module, its imports, the items) lives until the end: frozen out of the
    collector's sight, so that each automatic collection during a test walks only what tests make since."""
    gc.freeze()
