"""Assembly of the MCP server: its state, the toolkit with every tool, tasks, the instructions and the lifespan.

The server is the SDK's low-level `Server`, its public surface only: `tools/list` answers the
toolkit's listing and every `tools/call` goes to the toolkit's guard, so our strict validation and
our compact schemas are what clients meet. A `tools/call` whose work is waiting, from a client that
declares the Tasks extension on that request, answers with a task instead (`tasks.py`).

Start-up loads what `initialize` and `tools/list` need and no more, since every client pays it at each
launch (some launch a server per session): the listing comes from
the precomputed one (`listing.py`), and the toolkit (the tools, their views, the state and the API
client's models), the read of the store and the API client (in simulated mode, the embedded simulator)
are made at the first request that needs them, before it is served. So a server costs about the SDK's
own import until it is used.
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
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, BinaryIO, cast

import anyio
from anyio.abc import TaskGroup, TaskStatus
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
    Tool,
)

from cursor_cloud_agents import __version__
from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.core import Store, StoreUnusable
from cursor_cloud_agents.core.timing import HARD_STOP_GRACE, WAIT_POLL_SECONDS, WARM_UP_AFTER_LIST_SECONDS
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.server import listing as precomputed
from cursor_cloud_agents.server.pipeline.hints import TASK_CANCELLED
from cursor_cloud_agents.server.pipeline.pages import client_name
from cursor_cloud_agents.server.protocol import tasks
from cursor_cloud_agents.server.protocol.asking import Seal, peer_for
from cursor_cloud_agents.server.protocol.instructions import instructions
from cursor_cloud_agents.server.protocol.tasks import TaskStore
from cursor_cloud_agents.server.protocol.wire import Reader, Writer

if TYPE_CHECKING:
    from cursor_cloud_agents.api.client import CursorClient
    from cursor_cloud_agents.core import GitPlaces
    from cursor_cloud_agents.server.pipeline.toolkit import Toolkit

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
    git_places: GitPlaces | None = None,
) -> Toolkit:
    """A toolkit over a new server state, with every tool declared (no client attached yet); `git_places`: where
    its git works on agents' repositories (the composition root's choice)."""
    # Imported here, not at the top: the tools and all they stand on load at the first call, so
    # that a client's start-up (initialize, tools/list) costs about the SDK's own import.
    from cursor_cloud_agents.core.timing import Clock
    from cursor_cloud_agents.server.pipeline.declaration import Catalogue
    from cursor_cloud_agents.server.pipeline.state import ServerState
    from cursor_cloud_agents.server.pipeline.toolkit import Toolkit
    from cursor_cloud_agents.server.tools import CATALOGUE

    state = ServerState(settings, redactor, Clock(clock, sleep), git_places=git_places)
    return Toolkit(state, Catalogue(CATALOGUE), hard_stop_grace=hard_stop_grace)


class UpdateTaskParams(RequestParams):
    """`tasks/update` (no task of ours asks for input, so the responses are acknowledged and ignored)."""

    task_id: str
    input_responses: dict[str, Any] = {}


@dataclass
class _Serving:
    """What serves calls and tasks: the toolkit, and the task store over its state."""

    kit: Toolkit
    tasks: TaskStore


class _Deferred:
    """The toolkit and its task store, made at the first request that needs them; `prepare` runs once then,
    before that request is served (a failure leaves nothing made: the next request tries again)."""

    def __init__(
        self, make: Callable[[], Toolkit], prepare: Callable[[Toolkit, TaskGroup], Awaitable[None]] | None = None
    ) -> None:
        self._make = make
        self._prepare = prepare
        self._kit: Toolkit | None = None
        self._serving: _Serving | None = None
        self._lock: anyio.Lock | None = None
        self.group: TaskGroup | None = None
        """The server's task group while it runs: tasks and the client's keeper run in it."""
        self._warming = False

    def kit(self) -> Toolkit:
        """The toolkit, made now if it was not yet."""
        if self._kit is None:
            self._kit = self._make()
        return self._kit

    async def ready(self) -> _Serving:
        """The toolkit and the task store, prepared (made, and `prepare` run, on the first request)."""
        if self._serving is not None:
            return self._serving
        self._lock = self._lock or anyio.Lock()
        async with self._lock:
            if self._serving is None:
                if self.group is None:
                    raise MCPError(code=-32603, message="The server is not running (no task group)")
                kit = self.kit()
                if self._prepare is not None:
                    await self._prepare(kit, self.group)
                settings = kit.state.settings
                store = TaskStore(
                    kit.run_unattended,
                    kit.state.clock,
                    max_seconds=settings.task_max_seconds,
                    poll_seconds=WAIT_POLL_SECONDS,
                    records=kit.state.store,
                    cancelled=TASK_CANCELLED,
                )
                store.group = self.group
                self._serving = _Serving(kit, store)
        return self._serving

    def warm_up_soon(self) -> None:
        """Make everything `WARM_UP_AFTER_LIST_SECONDS` from now, in the background, once: the answer being sent
        leaves first. A failure is left for the first request, which tries again and answers it."""
        if self._warming or self.group is None:
            return
        self._warming = True

        async def warm_up() -> None:
            await anyio.sleep(WARM_UP_AFTER_LIST_SECONDS)
            try:
                await self.ready()
            except Exception:  # said again, and answered, by the first request that needs it
                logger.warning("making the tools after start-up failed; the first call will try again", exc_info=True)

        self.group.start_soon(warm_up)

    def stopped(self) -> None:
        self.group = None
        if self._serving is not None:
            self._serving.tasks.group = None


def serve_toolkit(
    kit: Toolkit, *, lifespan: Lifespan | None = None, name: str = NAME, cached: bool = True
) -> Server[None]:
    """A low-level SDK server that lists the toolkit's tools, runs every call through it and serves tasks
    (`cached=False`: every schema built from the code, not read from the schema cache)."""

    def listing() -> list[Tool]:
        return kit.listed(cached=cached)

    return _server(_Deferred(lambda: kit), kit.state.settings, listing, lifespan=lifespan, name=name)


def _server(
    deferred: _Deferred,
    settings: Settings,
    listing: Callable[[], list[Tool]],
    *,
    lifespan: Lifespan | None = None,
    name: str = NAME,
) -> Server[None]:
    seal = Seal()

    async def list_tools(_ctx: ServerRequestContext[None], _params: PaginatedRequestParams | None) -> ListToolsResult:
        tools = listing()
        deferred.warm_up_soon()
        return ListToolsResult(tools=tools)

    async def call_tool(ctx: ServerRequestContext[None], params: CallToolRequestParams) -> dict[str, Any]:
        serving = await deferred.ready()
        kit, store = serving.kit, serving.tasks
        arguments = params.arguments or {}
        if tasks.declared(ctx.meta) and kit.may_become_task(params.name, arguments):
            started = await store.start(params.name, arguments)  # None past the bound: answered inline
            if started is not None:
                return started

        async def report(progress: float, message: str) -> None:
            await ctx.session.report_progress(progress, None, message)

        call = (params.name, arguments)
        peer = peer_for(ctx.session, ctx.request_id, params.input_responses, params.request_state, seal, call)
        client = client_name(getattr(ctx.session.client_params, "client_info", None), ctx.meta)
        result = await kit.run(params.name, arguments, report, peer, client=client)
        return result.model_dump(by_alias=True, exclude_none=True, mode="json")

    @asynccontextmanager
    async def running(server: Server[None]) -> AsyncGenerator[None, None]:
        async with anyio.create_task_group() as group:
            deferred.group = group
            try:
                if lifespan is None:
                    yield None
                else:
                    async with lifespan(server):
                        yield None
            finally:
                deferred.stopped()
                group.cancel_scope.cancel()  # the process ends: its tasks end with it

    server = Server[None](
        name,
        version=__version__,
        instructions=instructions(settings),
        on_list_tools=list_tools,
        lifespan=running,
    )
    server.add_request_handler("tools/call", CallToolRequestParams, call_tool)
    _serve_tasks(server, deferred)
    server.extensions[tasks.EXTENSION] = {}
    return server


def _serve_tasks(server: Server[None], deferred: _Deferred) -> None:
    def declaring(ctx: ServerRequestContext[None]) -> None:
        if not tasks.declared(ctx.meta):
            data: dict[str, Any] = {"requiredCapabilities": {"extensions": {tasks.EXTENSION: {}}}}
            raise MCPError(code=tasks.MISSING_CAPABILITY, message="Missing required client capability", data=data)

    async def get(ctx: ServerRequestContext[None], params: GetTaskRequestParams) -> dict[str, Any]:
        declaring(ctx)
        return await (await deferred.ready()).tasks.get(params.task_id)

    async def update(ctx: ServerRequestContext[None], params: UpdateTaskParams) -> dict[str, Any]:
        declaring(ctx)
        await (await deferred.ready()).tasks.get(params.task_id)  # unknown ids are refused like tasks/get
        return {"resultType": "complete"}

    async def cancel(ctx: ServerRequestContext[None], params: CancelTaskRequestParams) -> dict[str, Any]:
        declaring(ctx)
        return await (await deferred.ready()).tasks.cancel(params.task_id)

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
    except Exception:  # the server answers `initialize` whatever the state directory holds; the calls say the rest
        logger.exception("the store of paid acts %s could not be read at start-up", store.where)


def build_server(settings: Settings, redactor: Redactor, open_client: ClientFactory, **options: Any) -> Server[None]:
    """The MCP server; `options` go to `build_toolkit` (tests pass the simulator's clock).

    `tools/list` answers from the precomputed listing; the toolkit, the read of the store and `open_client`
    (entered once, kept open until the server stops) wait for the first call or task request."""

    async def prepare(kit: Toolkit, group: TaskGroup) -> None:
        await say_what_the_store_holds(kit.state.store, kit.state.clock.now())

        async def keep_client(*, task_status: TaskStatus[None] = anyio.TASK_STATUS_IGNORED) -> None:
            # A task of its own: the client's context (the embedded simulator's task group) is entered and
            # left by one task, open from the first call until the server's task group ends.
            from cursor_cloud_agents.api import Deadline
            from cursor_cloud_agents.core import keep_ceilings, keep_watches, queue
            from cursor_cloud_agents.core.timing import CallTime

            async with open_client() as client, anyio.create_task_group() as queued:
                kit.state.client = client
                # Follow-ups queued for busy agents are sent by whichever of our processes is alive.
                queued.start_soon(queue.keep_going, kit.state, CallTime(Deadline(math.inf), kit.state.clock))
                queued.start_soon(keep_watches, kit.state)  # PR watches of the store (docs/pr-loop.md), likewise
                queued.start_soon(keep_ceilings, kit.state)  # CURSOR_MCP_MAX_RUN_MINUTES, when set
                task_status.started()
                try:
                    await anyio.sleep_forever()
                finally:
                    queued.cancel_scope.cancel()
                    kit.state.client = None

        await group.start(keep_client)

    deferred = _Deferred(lambda: build_toolkit(settings, redactor, **options), prepare)

    listed: list[Tool] = []

    def listing() -> list[Tool]:
        if not listed:  # read once: the code this process runs does not change
            cached = precomputed.listing()
            if cached is None:  # an edited checkout: built from the code, as `make snapshot` would
                listed.extend(deferred.kit().listed(cached=False))
            else:
                listed.extend(Tool.model_validate(tool) for tool in cached)
        return listed

    return _server(deferred, settings, listing)


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
