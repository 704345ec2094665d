"""The server's `tools/list` as clients receive it, for the committed snapshot, its tests and the catalogue bench."""

from __future__ import annotations

from typing import Any

from mcp import Client

from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.server.app import build_toolkit, serve_toolkit


async def list_tools(settings: Settings | None = None, *, cached: bool = True) -> list[dict[str, Any]]:
    """Every tool in wire form (camelCase, no nulls), as a client lists them over JSON-RPC.

    `cached=False` builds every schema from the code, ignoring the schema cache.
    """
    kit = build_toolkit(settings or Settings(), Redactor())
    async with Client(serve_toolkit(kit, name="catalogue", cached=cached), mode="legacy") as client:
        listed = await client.list_tools()
    return [tool.model_dump(by_alias=True, exclude_none=True, mode="json") for tool in listed.tools]
