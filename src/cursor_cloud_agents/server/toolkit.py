"""The toolkit: the one wrapper through which every tool is declared and run.

A tool is an async function with typed parameters, a docstring and a small body. Everything the
tools share lives here, once (ARCHITECTURE.md, "The tool contract"):

1. arguments validated strictly by us (unknown names refused, JSON types exact, ids by pattern),
   so even a malformed call answers our JSON `VALIDATION` error and nothing is sent;
2. the write and delete gates;
3. a hard deadline per call, shared with the API client through `api.deadline`;
4. errors as stable `{code, message, ...}` objects; a bug becomes a generic INTERNAL error;
5. compact JSON, identical in the text content and in `structuredContent`;
6. a byte cap on every result (`RESULT_TOO_LARGE`, never a silent cut);
7. agent-produced text cleaned of hidden characters;
8. secrets masked in results, errors and logs;
9. the four annotation hints set explicitly;
10. progress reporting for waits (`current_call().progress(...)`), and cancellation left to anyio;
11. one log line per call on stderr.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any, cast

import anyio
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.tools.base import Tool
from mcp.server.mcpserver.utilities.func_metadata import FuncMetadata
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel

from cursor_cloud_agents.api import errors as api_errors
from cursor_cloud_agents.api.deadline import deadline_after
from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.server import arguments, failures, schemacache
from cursor_cloud_agents.server.failures import ToolFailure
from cursor_cloud_agents.server.untrusted import clean_data

if TYPE_CHECKING:
    from cursor_cloud_agents.api.client import CursorClient

logger = logging.getLogger("cursor_cloud_agents.tools")

ToolFn = Callable[..., Awaitable[Any]]
Budget = Callable[[Mapping[str, Any]], float]

# Past the deadline the API client sees, the hard stop waits this much longer, so that the client's
# own timeout (which knows whether a mutation was sent) fires first.
HARD_STOP_GRACE = 1.5
MAX_MESSAGE_CHARS = 2_000


class Access(Enum):
    """What a tool may do; it sets the annotations and the gates."""

    READ = "read"
    WRITE = "write"  # creates or changes state (paid), not destructive
    DESTRUCTIVE = "destructive"  # cancels or hides work
    DELETE = "delete"  # irreversible: a second switch and a confirmation


_HINTS = {
    Access.READ: (True, False),
    Access.WRITE: (False, False),
    Access.DESTRUCTIVE: (False, True),
    Access.DELETE: (False, True),
}


@dataclass(frozen=True)
class ToolSpec:
    """A declared tool: the function and what the toolkit needs to know to run it."""

    fn: ToolFn
    title: str
    access: Access
    idempotent: bool
    budget: Budget | None
    shrink_hint: str

    @property
    def name(self) -> str:
        return self.fn.__name__

    def annotations(self) -> ToolAnnotations:
        read_only, destructive = _HINTS[self.access]
        return ToolAnnotations(
            title=self.title,
            read_only_hint=read_only,
            destructive_hint=destructive,
            idempotent_hint=self.idempotent,
            open_world_hint=True,
        )


@dataclass
class Call:
    """The call in progress: what a tool may tell the toolkit while it runs."""

    tool: str
    report: Callable[[float, str], Awaitable[None]]
    ids: dict[str, str] = field(default_factory=dict[str, str])
    steps: int = 0

    def note(self, **ids: str | None) -> None:
        """Record ids known so far: they go into the log line and into any failure of this call."""
        self.ids.update({key: value for key, value in ids.items() if value})

    async def progress(self, message: str) -> None:
        """Report one more step of a wait as MCP progress (a no-op when the client asked for none)."""
        self.steps += 1
        await self.report(self.steps, message)


_current: ContextVar[Call | None] = ContextVar("cursor_cloud_agents_call", default=None)


def current_call() -> Call:
    """The call being served by this task (tools use it for progress and ids)."""
    call = _current.get()
    if call is None:
        raise RuntimeError("current_call() used outside a tool call")
    return call


def _without_nulls(data: Any) -> Any:
    if isinstance(data, BaseModel):
        data = data.model_dump(mode="json", exclude_none=True)
    if isinstance(data, dict):
        return {key: _without_nulls(value) for key, value in data.items() if value is not None}  # pyright: ignore[reportUnknownVariableType]  # JSON object
    if isinstance(data, list | tuple):
        return [_without_nulls(item) for item in data]  # pyright: ignore[reportUnknownVariableType]  # JSON array
    return data


def _single(exc: Exception) -> Exception:
    """The one error inside a task group's exception group (as many levels deep as it is), else `exc`."""
    candidate: object = exc  # narrowed on its own, so that `exc` keeps its type
    grouped = cast(ExceptionGroup[Exception], candidate).exceptions if isinstance(candidate, ExceptionGroup) else ()
    return _single(grouped[0]) if len(grouped) == 1 else exc


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def encoded_size(data: Any) -> int:
    """Bytes of `data` as an answer carries it: nulls dropped, compact JSON, UTF-8 (never raising on a
    lone surrogate, which the answer's cleaning removes anyway)."""
    return len(_dumps(_without_nulls(data)).encode("utf-8", "surrogatepass"))


class Toolkit:
    """Declares tools, holds what they share (settings, redactor, API client) and runs every call."""

    def __init__(
        self,
        settings: Settings,
        redactor: Redactor,
        *,
        hard_stop_grace: float = HARD_STOP_GRACE,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[None]] = anyio.sleep,
    ) -> None:
        self.settings = settings
        self.redactor = redactor
        self.hard_stop_grace = hard_stop_grace
        self.now = clock  # wall-clock seconds: tests run tools on the simulator's clock
        self.sleep = sleep  # how tools pause between re-reads: tests advance a manual clock instead
        self.specs: list[ToolSpec] = []
        self._client: CursorClient | None = None

    @property
    def api(self) -> CursorClient:
        """The API client of this server (opened by the server's lifespan)."""
        if self._client is None:
            raise RuntimeError("the API client is not open")
        return self._client

    def attach(self, client: CursorClient | None) -> None:
        """Give the tools their API client (None when the server stops)."""
        self._client = client

    def tool(
        self,
        *,
        title: str,
        access: Access = Access.READ,
        idempotent: bool | None = None,
        budget: Budget | None = None,
        shrink_hint: str = "ask for less (a smaller limit or a narrower filter)",
    ) -> Callable[[ToolFn], ToolFn]:
        """Declare a tool; its name is the function's, its description the docstring."""

        def register(fn: ToolFn) -> ToolFn:
            is_idempotent = access in (Access.READ, Access.DELETE) if idempotent is None else idempotent
            self.specs.append(ToolSpec(fn, title, access, is_idempotent, budget, shrink_hint))
            return fn

        return register

    def build(self, *, cached: bool = True) -> list[Tool]:
        """The SDK tools, each running through the guard; `cached=False` builds every schema afresh."""
        schemas = schemacache.load() if cached else {}
        return [self._build_one(spec, schemas.get(spec.name)) for spec in self.specs]

    def _build_one(self, spec: ToolSpec, schema: dict[str, Any] | None) -> Tool:
        if schema is None:
            described = Tool.from_function(spec.fn, name=spec.name, structured_output=False)
            schema = arguments.advertised_schema(described)
        strict = arguments.StrictArguments(spec.fn)

        async def guarded(ctx: Context, **raw: Any) -> CallToolResult:
            return await self._run(spec, strict.model(), ctx, raw)

        return Tool(
            fn=guarded,
            name=spec.name,
            title=None,  # the title travels in the annotations, as clients read it there
            description=" ".join((spec.fn.__doc__ or "").split()),
            parameters=schema,
            fn_metadata=FuncMetadata(arg_model=arguments.RawArguments),
            is_async=True,
            context_kwarg="ctx",
            annotations=spec.annotations(),
        )

    async def _run(self, spec: ToolSpec, strict: type[BaseModel], ctx: Context, raw: dict[str, Any]) -> CallToolResult:
        async def report(progress: float, message: str) -> None:
            await ctx.report_progress(progress, None, self.redactor.mask(message))

        call = Call(spec.name, report)
        token = _current.set(call)
        started = time.perf_counter()
        failure: ToolFailure | None = None
        try:
            outcome = await self._outcome(spec, strict, raw, call)
            if isinstance(outcome, ToolFailure):
                failure = outcome
                return self._error_result(failure)
            result, failure = self._result(outcome, spec)
            return result
        except anyio.get_cancelled_exc_class():
            failure = ToolFailure("cancelled", "")
            raise
        finally:
            _current.reset(token)
            self._log(call, failure, time.perf_counter() - started)

    async def _outcome(
        self, spec: ToolSpec, strict: type[BaseModel], raw: dict[str, Any], call: Call
    ) -> dict[str, Any] | ToolFailure:
        """The success payload, or the failure for anything expected to go wrong."""
        try:
            validated = arguments.validate(strict, raw)
            self._gate(spec, validated)
            return await self._invoke(spec, validated)
        except Exception as raised:  # the one top-level guard
            exc = _single(raised)
            if isinstance(exc, ToolFailure):
                return exc.with_ids(call.ids)
            if isinstance(exc, api_errors.CursorError):
                return failures.from_api_error(exc).with_ids(call.ids)
            # A bug in our code: the traceback goes to the log, never to the model.
            logger.exception("internal error in %s", spec.name)
            return ToolFailure(failures.INTERNAL, f"Internal error in {spec.name}; see the server log.")

    def _gate(self, spec: ToolSpec, arguments: Mapping[str, Any]) -> None:
        if spec.access is Access.READ:
            return
        if not self.settings.allow_writes:
            raise ToolFailure(
                failures.READ_ONLY, f"{spec.name} changes state and writes are off. The user must set "
                "CURSOR_MCP_ALLOW_WRITES=1 in this MCP server's environment and restart the client.",
            )  # fmt: skip
        if spec.access is Access.DELETE:
            self._gate_delete(spec, arguments)

    def _gate_delete(self, spec: ToolSpec, arguments: Mapping[str, Any]) -> None:
        if not self.settings.allow_delete:
            raise ToolFailure(
                failures.DELETE_DISABLED, f"{spec.name} is permanent and deletion is off. The user must set "
                "CURSOR_MCP_ALLOW_DELETE=1 (with CURSOR_MCP_ALLOW_WRITES=1) and restart the client; "
                "cursor_archive_agent is the reversible alternative.",
            )  # fmt: skip
        if arguments.get("confirm_agent_id") != arguments.get("agent_id"):
            raise ToolFailure(
                failures.CONFIRMATION_REQUIRED, "Deletion is permanent: pass confirm_agent_id equal to agent_id."
            )

    def _budget(self, spec: ToolSpec, arguments: Mapping[str, Any]) -> float:
        wanted = self.settings.max_call_seconds if spec.budget is None else spec.budget(arguments)
        return min(wanted, self.settings.max_call_seconds)

    async def _invoke(self, spec: ToolSpec, arguments: dict[str, Any]) -> dict[str, Any]:
        if self.settings.key_problem is not None and self._needs_key():
            raise ToolFailure(failures.CONFIGURATION_MISSING, self.settings.key_problem)
        budget = self._budget(spec, arguments)
        with anyio.move_on_after(budget + self.hard_stop_grace) as scope, deadline_after(budget):
            return _without_nulls(await spec.fn(**arguments))
        assert scope.cancelled_caught
        raise self._hard_stop(spec, budget)

    def _needs_key(self) -> bool:
        return not self.settings.simulated

    def _hard_stop(self, spec: ToolSpec, budget: float) -> ToolFailure:
        if spec.access is Access.READ:
            return ToolFailure(
                failures.TIMEOUT, f"{spec.name} did not finish within its {budget:.0f} s budget; nothing changed. "
                "Call it again (runs go on server-side).",
            )  # fmt: skip
        # A write stopped mid-way may have reached Cursor: never report it as not done.
        return ToolFailure(
            failures.MUTATION_OUTCOME_UNKNOWN, f"{spec.name} was stopped at its {budget:.0f} s budget and may or "
            "may not have taken effect. Do NOT send it again: read the agent (cursor_get_agent) to find out.",
        )  # fmt: skip

    def _finish(self, payload: Any) -> tuple[Any, str]:
        data = self.redactor.mask_data(clean_data(payload))
        return data, _dumps(data)

    def _result(self, payload: dict[str, Any], spec: ToolSpec) -> tuple[CallToolResult, ToolFailure | None]:
        data, text = self._finish(payload)
        size = len(text.encode())
        if size <= self.settings.max_result_bytes:
            return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data), None
        failure = ToolFailure(
            failures.RESULT_TOO_LARGE, f"The answer would be {size} bytes, over the "
            f"{self.settings.max_result_bytes}-byte cap (CURSOR_MCP_MAX_RESULT_BYTES). To get it, {spec.shrink_hint}.",
            size_bytes=size, max_bytes=self.settings.max_result_bytes,
        )  # fmt: skip
        return self._error_result(failure), failure

    def _error_result(self, failure: ToolFailure) -> CallToolResult:
        payload = failure.payload()
        if len(failure.message) > MAX_MESSAGE_CHARS:
            payload["message"] = failure.message[:MAX_MESSAGE_CHARS] + " [clipped]"
        data, text = self._finish(payload)
        return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data, is_error=True)

    def _log(self, call: Call, failure: ToolFailure | None, seconds: float) -> None:
        fields = dict(sorted(call.ids.items()))
        if failure is not None:
            fields |= {
                key: str(failure.context[key]) for key in ("http_status", "request_id") if key in failure.context
            }
        detail = " ".join(f"{key}={value}" for key, value in fields.items())
        outcome = "ok" if failure is None else failure.code
        logger.info("tool=%s outcome=%s duration_ms=%d %s", call.tool, outcome, seconds * 1000, detail)
