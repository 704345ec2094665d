"""Assembly of the MCP server: the toolkit, the tools, the instructions and the client's lifespan."""

from __future__ import annotations

from collections.abc import AsyncGenerator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import TYPE_CHECKING, Any

from mcp.server.mcpserver import MCPServer

from cursor_cloud_agents import __version__
from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.server.instructions import instructions
from cursor_cloud_agents.server.toolkit import Toolkit
from cursor_cloud_agents.server.tools import register_all

if TYPE_CHECKING:
    from cursor_cloud_agents.api.client import CursorClient

# Opens the API client for the life of a connection (the composition root decides real or simulated).
ClientFactory = Callable[[], AbstractAsyncContextManager["CursorClient"]]


def build_toolkit(settings: Settings, redactor: Redactor, **options: Any) -> Toolkit:
    """A toolkit with every tool declared (no client attached yet); `options` go to `Toolkit`."""
    kit = Toolkit(settings, redactor, **options)
    register_all(kit)
    return kit


def build_server(settings: Settings, redactor: Redactor, open_client: ClientFactory, **options: Any) -> MCPServer[None]:
    """The MCP server; `open_client` is entered once per connection and closed with it."""
    kit = build_toolkit(settings, redactor, **options)

    @asynccontextmanager
    async def lifespan(_server: MCPServer[None]) -> AsyncGenerator[None, None]:
        async with open_client() as client:
            kit.attach(client)
            try:
                yield None
            finally:
                kit.attach(None)

    return MCPServer(
        "cursor-cloud-agents",
        version=__version__,
        instructions=instructions(settings),
        tools=kit.build(),
        lifespan=lifespan,
    )
