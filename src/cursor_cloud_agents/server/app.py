"""Assembly of the MCP server: its state, the toolkit with every tool, the instructions and the lifespan.

The server is the SDK's low-level `Server`, its public surface only: `tools/list` answers the
toolkit's listing and every `tools/call` goes to the toolkit's guard, so our strict validation and
our compact schemas are what clients meet.
"""

from __future__ import annotations

import time
from collections.abc import AsyncGenerator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import TYPE_CHECKING, Any

import anyio
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server
from mcp_types import CallToolRequestParams, CallToolResult, ListToolsResult, PaginatedRequestParams

from cursor_cloud_agents import __version__
from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.server.deadline import Clock
from cursor_cloud_agents.server.instructions import instructions
from cursor_cloud_agents.server.state import ServerState
from cursor_cloud_agents.server.toolkit import HARD_STOP_GRACE, Toolkit
from cursor_cloud_agents.server.tools import register_all

if TYPE_CHECKING:
    from cursor_cloud_agents.api.client import CursorClient

NAME = "cursor-cloud-agents"

# Opens the API client for the life of a connection (the composition root decides real or simulated).
ClientFactory = Callable[[], AbstractAsyncContextManager["CursorClient"]]
Lifespan = Callable[[Server[None]], AbstractAsyncContextManager[None]]


def build_toolkit(
    settings: Settings,
    redactor: Redactor,
    *,
    clock: Callable[[], float] = time.time,
    sleep: Callable[[float], Awaitable[None]] = anyio.sleep,
    hard_stop_grace: float = HARD_STOP_GRACE,
) -> Toolkit:
    """A toolkit over a new server state, with every tool declared (no client attached yet)."""
    state = ServerState(settings, redactor, Clock(clock, sleep))
    kit = Toolkit(state, hard_stop_grace=hard_stop_grace)
    register_all(kit, state)
    return kit


def serve_toolkit(
    kit: Toolkit, *, lifespan: Lifespan | None = None, name: str = NAME, cached: bool = True
) -> Server[None]:
    """A low-level SDK server that lists the toolkit's tools and runs every call through it (`cached=False`:
    every schema built from the code, not read from the schema cache)."""

    async def list_tools(_ctx: ServerRequestContext[None], _params: PaginatedRequestParams | None) -> ListToolsResult:
        return ListToolsResult(tools=kit.listed(cached=cached))

    async def call_tool(ctx: ServerRequestContext[None], params: CallToolRequestParams) -> CallToolResult:
        async def report(progress: float, message: str) -> None:
            await ctx.session.report_progress(progress, None, message)

        return await kit.run(params.name, params.arguments, report)

    options: dict[str, Any] = {} if lifespan is None else {"lifespan": lifespan}
    return Server[None](
        name,
        version=__version__,
        instructions=instructions(kit.state.settings),
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        **options,
    )


def build_server(settings: Settings, redactor: Redactor, open_client: ClientFactory, **options: Any) -> Server[None]:
    """The MCP server; `open_client` is entered once per connection and closed with it; `options` go to
    `build_toolkit` (tests pass the simulator's clock)."""
    kit = build_toolkit(settings, redactor, **options)

    @asynccontextmanager
    async def lifespan(_server: Server[None]) -> AsyncGenerator[None, None]:
        async with open_client() as client:
            kit.state.client = client
            try:
                yield None
            finally:
                kit.state.client = None

    return serve_toolkit(kit, lifespan=lifespan)


async def run_stdio(server: Server[None]) -> None:
    """Serve `server` on this process's stdin and stdout until the client closes them."""
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())
