"""The process boundary: the server spawned over stdio writes nothing but JSON-RPC on stdout."""

from __future__ import annotations

import sys

import pytest

from devkit.probe import probe

pytestmark = pytest.mark.anyio


async def test_stdout_carries_only_json_rpc_through_initialize_list_and_a_call() -> None:
    """B-05, MCP stdio transport: the server MUST NOT write anything to stdout that is not an MCP message."""
    env = {"PATH": "/usr/bin:/bin", "CURSOR_MCP_LOG_LEVEL": "DEBUG"}
    result = await probe([sys.executable, "-m", "cursor_cloud_agents"], env, call=("cursor_get_account", {}))
    assert "cursor_get_account" in {tool["name"] for tool in result.tools}
    assert result.call_result is not None and result.call_result["isError"] is True
    assert result.call_result["structuredContent"]["code"] == "CONFIGURATION_MISSING"
    assert len(result.stdout_lines) == 3
