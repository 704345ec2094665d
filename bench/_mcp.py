"""What the benches share: our MCP server in memory, with the API client as it ships, and its answers."""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator
from contextlib import asynccontextmanager
from typing import Any

from mcp import Client
from mcp_types import CallToolResult, TextContent

from cursor_cloud_agents.api import CursorClient
from cursor_cloud_agents.config import Secret, Settings
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.server.app import build_server
from cursor_cloud_agents.simulator import SIMULATED_API_KEY


@asynccontextmanager
async def mcp_server_at(base_url: str, **settings_fields: Any) -> AsyncGenerator[Client, None]:
    """A fresh server (no cache carried over) talking to the simulator at `base_url`, through a client;
    `settings_fields` override the settings (writes, limits)."""
    fields: dict[str, Any] = {"api_key": Secret(SIMULATED_API_KEY)} | settings_fields
    settings = Settings(**fields)
    api = CursorClient(base_url, SIMULATED_API_KEY)

    @asynccontextmanager
    async def borrow() -> AsyncGenerator[CursorClient, None]:
        yield api

    server = build_server(settings, Redactor(settings.secrets()), borrow)
    async with api, Client(server, mode="legacy") as client:
        yield client


def answer_of(result: CallToolResult) -> tuple[dict[str, Any], int]:
    """A tool's JSON answer and its size in bytes."""
    block = result.content[0]
    assert isinstance(block, TextContent)
    data: dict[str, Any] = json.loads(block.text)
    return data, len(block.text.encode())
