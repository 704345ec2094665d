"""Assembly of the MCP server: its state, the toolkit with every tool, tasks, the instructions and the lifespan.

The server is the SDK's low-level `Server`, its public surface only: `tools/list` answers the
toolkit's listing and every `tools/call` goes to the toolkit's guard, so our strict validation and
our compact schemas are what clients meet. A `tools/call` whose work is waiting, from a client that
declares the Tasks extension on that request, answers with a task instead (`tasks.py`).
"""

from __future__ import annotations

import io
import logging
import math
import os
import signal
import time
from collections.abc import AsyncGenerator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import TYPE_CHECKING, Any, BinaryIO, cast

import anyio
from mcp import MCPError
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server
from mcp_types import (
    CallToolRequestParams,
    CancelTaskRequestParams,
    GetTaskRequestParams,
    ListToolsResult,
    PaginatedRequestParams,
    RequestParams,
)

from cursor_cloud_agents import __version__
from cursor_cloud_agents.api import Deadline
from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.core import Store, StoreUnusable, queue
from cursor_cloud_agents.core.timing import WAIT_POLL_SECONDS, CallTime, Clock
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.server import tasks
from cursor_cloud_agents.server.asking import Seal, peer_for
from cursor_cloud_agents.server.declaration import Catalogue
from cursor_cloud_agents.server.instructions import instructions
from cursor_cloud_agents.server.state import ServerState
from cursor_cloud_agents.server.tasks import TaskStore
from cursor_cloud_agents.server.toolkit import HARD_STOP_GRACE, Toolkit
from cursor_cloud_agents.server.tools import CATALOGUE
from cursor_cloud_agents.server.wire import Reader, Writer

if TYPE_CHECKING:
    from cursor_cloud_agents.api.client import CursorClient

NAME = "cursor-cloud-agents"

# Opens the API client for the life of a connection (the composition root decides real or simulated).
ClientFactory = Callable[[], AbstractAsyncContextManager["CursorClient"]]
Lifespan = Callable[[Server[None]], AbstractAsyncContextManager[None]]

logger = logging.getLogger("cursor_cloud_agents.server")


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
    return Toolkit(state, Catalogue(CATALOGUE), hard_stop_grace=hard_stop_grace)


class UpdateTaskParams(RequestParams):
    """`tasks/update` (no task of ours asks for input, so the responses are acknowledged and ignored)."""

    task_id: str
    input_responses: dict[str, Any] = {}


def serve_toolkit(
    kit: Toolkit, *, lifespan: Lifespan | None = None, name: str = NAME, cached: bool = True
) -> Server[None]:
    """A low-level SDK server that lists the toolkit's tools, runs every call through it and serves tasks
    (`cached=False`: every schema built from the code, not read from the schema cache)."""
    store = TaskStore(
        kit.run_unattended,
        kit.state.clock,
        max_seconds=kit.state.settings.task_max_seconds,
        poll_seconds=WAIT_POLL_SECONDS,
        records=kit.state.store,
    )

    seal = Seal()

    async def list_tools(_ctx: ServerRequestContext[None], _params: PaginatedRequestParams | None) -> ListToolsResult:
        return ListToolsResult(tools=kit.listed(cached=cached))

    async def call_tool(ctx: ServerRequestContext[None], params: CallToolRequestParams) -> dict[str, Any]:
        arguments = params.arguments or {}
        if tasks.declared(ctx.meta) and kit.may_become_task(params.name, arguments) and store.has_room():
            return await store.start(params.name, arguments)

        async def report(progress: float, message: str) -> None:
            await ctx.session.report_progress(progress, None, message)

        call = (params.name, arguments)
        peer = peer_for(ctx.session, ctx.request_id, params.input_responses, params.request_state, seal, call)
        result = await kit.run(params.name, arguments, report, peer)
        return result.model_dump(by_alias=True, exclude_none=True, mode="json")

    @asynccontextmanager
    async def running(server: Server[None]) -> AsyncGenerator[None, None]:
        async with anyio.create_task_group() as group:
            store.group = group
            try:
                if lifespan is None:
                    yield None
                else:
                    async with lifespan(server):
                        yield None
            finally:
                store.group = None
                group.cancel_scope.cancel()  # the process ends: its tasks end with it

    server = Server[None](
        name,
        version=__version__,
        instructions=instructions(kit.state.settings),
        on_list_tools=list_tools,
        lifespan=running,
    )
    server.add_request_handler("tools/call", CallToolRequestParams, call_tool)
    _serve_tasks(server, store)
    server.extensions[tasks.EXTENSION] = {}
    return server


def _serve_tasks(server: Server[None], store: TaskStore) -> None:
    def declaring(ctx: ServerRequestContext[None]) -> None:
        if not tasks.declared(ctx.meta):
            data: dict[str, Any] = {"requiredCapabilities": {"extensions": {tasks.EXTENSION: {}}}}
            raise MCPError(code=tasks.MISSING_CAPABILITY, message="Missing required client capability", data=data)

    async def get(ctx: ServerRequestContext[None], params: GetTaskRequestParams) -> dict[str, Any]:
        declaring(ctx)
        return await store.get(params.task_id)

    async def update(ctx: ServerRequestContext[None], params: UpdateTaskParams) -> dict[str, Any]:
        declaring(ctx)
        await store.get(params.task_id)  # unknown ids are refused like tasks/get
        return {"resultType": "complete"}

    async def cancel(ctx: ServerRequestContext[None], params: CancelTaskRequestParams) -> dict[str, Any]:
        declaring(ctx)
        return await store.cancel(params.task_id)

    server.add_request_handler("tasks/get", GetTaskRequestParams, get)
    server.add_request_handler("tasks/update", UpdateTaskParams, update)
    server.add_request_handler("tasks/cancel", CancelTaskRequestParams, cancel)


async def say_what_the_store_holds(store: Store, now: float) -> None:
    """Read the store of paid acts once at start-up, so that what cannot be read as written (a torn or garbage
    entry, counted as a creation made now) or a store that cannot be used is said on stderr before any call."""
    try:
        await store.read(now)
    except StoreUnusable as unusable:
        logger.warning(
            "%s: creations and follow-ups will be refused until CURSOR_MCP_STATE_DIR is usable", unusable.why
        )


def build_server(settings: Settings, redactor: Redactor, open_client: ClientFactory, **options: Any) -> Server[None]:
    """The MCP server; `open_client` is entered once per connection and closed with it; `options` go to
    `build_toolkit` (tests pass the simulator's clock)."""
    kit = build_toolkit(settings, redactor, **options)

    @asynccontextmanager
    async def lifespan(_server: Server[None]) -> AsyncGenerator[None, None]:
        await say_what_the_store_holds(kit.state.store, kit.state.clock.now())
        async with open_client() as client, anyio.create_task_group() as group:
            kit.state.client = client
            # Follow-ups queued for busy agents are sent by whichever of our processes is alive (issue 32).
            group.start_soon(queue.keep_going, kit.state, CallTime(Deadline(math.inf), kit.state.clock))
            try:
                yield None
            finally:
                group.cancel_scope.cancel()
                kit.state.client = None

    return serve_toolkit(kit, lifespan=lifespan)


async def run_stdio(server: Server[None]) -> int:
    """Serve `server` on this process's stdin and stdout until the client closes them, stdout closes, or
    SIGINT or SIGTERM arrives; the exit status (0, or 128 + the signal's number)."""
    stdin, stdout = _claim_stdio()
    stopped: list[int] = []
    with anyio.CancelScope() as scope, anyio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:

        async def stop_on_signal() -> None:
            async for number in signals:
                stopped.append(number)
                scope.cancel()  # calls in flight are cancelled as a client's cancel would (the journal stays)

        writer = Writer(stdout, closed=scope.cancel)
        reader = cast(Any, Reader(stdin, writer))  # the SDK reads any async iterable of lines
        async with anyio.create_task_group() as group:
            group.start_soon(stop_on_signal)
            async with stdio_server(stdin=reader, stdout=cast(Any, writer)) as (read_stream, write_stream):
                await server.run(read_stream, write_stream, server.create_initialization_options())
            group.cancel_scope.cancel()
    return 128 + stopped[0] if stopped else 0


def _claim_stdio() -> tuple[io.BufferedReader, BinaryIO]:
    """Private copies of stdin and stdout for the protocol; fd 0 then reads nothing and fd 1 goes to
    stderr, so a stray write by any library cannot corrupt the wire."""
    wire_in = os.fdopen(os.dup(0), "rb")
    wire_out = os.fdopen(os.dup(1), "wb", buffering=0)
    nothing = os.open(os.devnull, os.O_RDONLY)
    os.dup2(nothing, 0)
    os.close(nothing)
    os.dup2(2, 1)
    return wire_in, cast(BinaryIO, wire_out)
