"""Shared fixtures: every async test runs on asyncio through anyio's pytest plugin, and the tool harness
(`tests/harness.py`: a real MCP client session over the server against the simulator) is at hand everywhere."""

import pytest

from tests.harness import harness, harness_factory

__all__ = ["harness", "harness_factory"]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
