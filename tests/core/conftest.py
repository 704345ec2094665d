"""The tool harness (tests/tools/conftest.py) for core tests that go through the MCP face."""

from tests.tools.conftest import harness, harness_factory

__all__ = ["harness", "harness_factory"]
