"""cursor_get_account end to end: the tool, the client's GET /v1/me and the simulator over HTTP."""

from __future__ import annotations

import pytest

from tests.tool_harness import Harness, OpenHarness

pytestmark = pytest.mark.anyio


async def test_get_account_shows_the_key_owner_and_the_server_permissions(harness: Harness) -> None:
    """Issue 2: the first tool end to end (docs/api-contract.md §3.1, user-key shape)."""
    reply = await harness.call("cursor_get_account")
    assert not reply.is_error
    assert reply.data["key"]["name"]
    assert reply.data["key"]["user_email"]
    assert reply.data["server"] == {"writes": True, "delete": False, "forward_env": []}
    # The key, and one read of the agents for the running-agents limit (no spend limit set: no usage read).
    assert [record.path for record in harness.requests("GET")] == ["/v1/me", "/v1/agents"]
    assert [limit["variable"] for limit in reply.data["limits"]] == [
        "CURSOR_MCP_MAX_NEW_AGENTS",
        "CURSOR_MCP_MAX_ACTIVE_AGENTS",
        "CURSOR_MCP_MAX_SPEND_CENTS",
    ]


async def test_get_account_with_writes_off_still_reads(harness_factory: OpenHarness) -> None:
    """Reads are never gated: the account shows writes off, so the model can tell the user."""
    async with harness_factory(allow_writes=False) as harness:
        reply = await harness.call("cursor_get_account")
    assert reply.data["server"]["writes"] is False
