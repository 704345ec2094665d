"""The toolkit: the one wrapper through which every tool is declared, listed and run.

A tool is an async function with typed parameters, a docstring and a small body. Everything the
tools share lives here, once (docs/architecture.md, "The tool contract"):

1. arguments judged strictly (unknown names refused, JSON types exact, ids by pattern; waits
   clamped to their maximum), so even a malformed call answers our JSON `VALIDATION` error and
   nothing is sent;
2. the write and delete gates;
3. a hard deadline per call, one `Deadline` value shared with the API client;
4. errors as stable `{code, message, ...}` objects; a bug becomes a generic INTERNAL error;
5. compact JSON, identical in the text content and in `structuredContent` (the answer builder);
6. a byte cap on every result (`RESULT_TOO_LARGE`, never a silent cut); an image a tool attaches
   (`current_call().attach_image(...)`) follows the text and is bounded by its own limit instead, and its
   answer carries no `structuredContent` (the JSON stays in the text), so that every client shows the image;
7. agent-produced text cleaned of hidden characters;
8. secrets masked in results, errors and logs;
9. the four annotation hints set explicitly;
10. progress reporting for waits (`current_call().progress(...)`), a heartbeat filling any silence of 15 s
    (`heartbeat.py`), and cancellation left to anyio;
11. one log line per call on stderr.

It stands on the SDK's public types only: the server (`app.py`) lists `listed()` and hands every
`tools/call` to `run()`.
"""

from __future__ import annotations

import base64
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, cast

import anyio
from mcp_types import CallToolResult, ImageContent, InputRequiredResult, TextContent, Tool, ToolAnnotations

from cursor_cloud_agents.api import errors as api_errors
from cursor_cloud_agents.api.deadline import deadline_after
from cursor_cloud_agents.core import failures
from cursor_cloud_agents.core.call import Question
from cursor_cloud_agents.core.failures import ToolFailure
from cursor_cloud_agents.core.timing import ASK_RESERVE, HARD_STOP_GRACE, CallTime
from cursor_cloud_agents.server import schemacache
from cursor_cloud_agents.server.answers import size as answer_size
from cursor_cloud_agents.server.arguments import Judged, StrictArguments
from cursor_cloud_agents.server.asking import Consent, InputNeeded, NoPeer, Peer
from cursor_cloud_agents.server.declined import declined
from cursor_cloud_agents.server.heartbeat import Silence, beating
from cursor_cloud_agents.server.state import ServerState

logger = logging.getLogger("cursor_cloud_agents.tools")

ToolFn = Callable[..., Awaitable[Any]]
Budget = Callable[[Mapping[str, Any]], float]
Report = Callable[[float, str], Awaitable[None]]

MAX_MESSAGE_CHARS = 2_000


class Access(Enum):
    """What a tool may do; it sets the annotations and the gates."""

    READ = "read"
    WRITE = "write"  # creates or changes state (paid), not destructive
    DESTRUCTIVE = "destructive"  # cancels or hides work
    DELETE = "delete"  # irreversible: a second switch and a confirmation
    LOCAL = "local"  # runs the person's own configured command on this machine: no Cursor state, not read-only


_HINTS = {
    Access.READ: (True, False),
    Access.WRITE: (False, False),
    Access.DESTRUCTIVE: (False, True),
    Access.DELETE: (False, True),
    Access.LOCAL: (False, False),
}
_CHANGES_NOTHING_AT_CURSOR = (Access.READ, Access.LOCAL)


@dataclass(frozen=True)
class ToolSpec:
    """A declared tool: the function and what the toolkit needs to know to run it."""

    fn: ToolFn
    title: str
    access: Access
    idempotent: bool
    budget: Budget | None
    shrink_hint: str
    arguments: StrictArguments

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

    def listed(self, schema: dict[str, Any] | None) -> Tool:
        """The tool as `tools/list` shows it (the title travels in the annotations, where clients read it)."""
        return Tool(
            name=self.name,
            description=" ".join((self.fn.__doc__ or "").split()),
            input_schema=schema if schema is not None else self.arguments.schema(),
            annotations=self.annotations(),
        )


@dataclass
class Call:
    """The call in progress: its time, and what a tool may tell the toolkit while it runs."""

    tool: str
    report: Report
    time: CallTime
    peer: Peer = field(default_factory=NoPeer)
    ids: dict[str, str] = field(default_factory=dict[str, str])
    steps: int = 0
    attachments: list[ImageContent] = field(default_factory=list[ImageContent])
    silence: Silence = field(default_factory=Silence)
    """When progress was last reported (real time): the heartbeat fills silences (`heartbeat.py`)."""
    waiting_since: float | None = None
    """When this call is one round of a task's wait: the moment the task began (on the state's clock), so
    that the answer says how long the whole wait lasted, not this round."""
    _reporting: anyio.Lock = field(default_factory=anyio.Lock)

    def note(self, **ids: str | None) -> None:
        """Record ids known so far: they go into the log line and into any failure of this call."""
        self.ids.update({key: value for key, value in ids.items() if value})

    def attach_image(self, data: bytes, mime_type: str) -> None:
        """Send an image after the JSON text of a successful answer; it is not counted in the result cap."""
        self.attachments.append(ImageContent(data=base64.b64encode(data).decode("ascii"), mime_type=mime_type))

    @property
    def can_ask(self) -> bool:
        """Whether the client declared it can ask its user (MCP elicitation)."""
        return self.peer.can_ask

    async def roots(self) -> list[Path] | None:
        """The client's roots, waiting at most what the deadline leaves (None: it declares none)."""
        return await self.peer.roots(self.time.deadline.remaining(ASK_RESERVE))

    async def progress(self, message: str) -> None:
        """Report one more step of a wait as MCP progress (a no-op when the client asked for none)."""
        async with self._reporting:  # the heartbeat reports too: notifications keep their order
            self.steps += 1
            self.silence.heard()
            await self.report(self.steps, message)

    async def confirm(self, question: Question, unsent: str) -> None:
        """Go on only if the person says yes; else `DECLINED`, saying `unsent` (what was not done) and what the
        client answered (`server/declined.py`).

        The question waits at most what the call's deadline leaves (less a reserve to answer)."""
        answer = await self.peer.ask(question, self.time.deadline.remaining(ASK_RESERVE))
        if answer.consent is not Consent.ACCEPTED:
            raise declined(answer, question.act, unsent)


_current: ContextVar[Call | None] = ContextVar("cursor_cloud_agents_call", default=None)


def current_call() -> Call:
    """The call being served by this task (tools use it for time, progress and ids)."""
    call = _current.get()
    if call is None:
        raise RuntimeError("current_call() used outside a tool call")
    return call


def _single(exc: Exception) -> Exception:
    """The one error inside a task group's exception group (as many levels deep as it is), else `exc`."""
    candidate: object = exc  # narrowed on its own, so that `exc` keeps its type
    grouped = cast(ExceptionGroup[Exception], candidate).exceptions if isinstance(candidate, ExceptionGroup) else ()
    return _single(grouped[0]) if len(grouped) == 1 else exc


class Toolkit:
    """Declares tools and runs every call through the guard, on the server's state."""

    def __init__(self, state: ServerState, *, hard_stop_grace: float = HARD_STOP_GRACE) -> None:
        self.state = state
        self.hard_stop_grace = hard_stop_grace
        self.specs: dict[str, ToolSpec] = {}

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
            spec = ToolSpec(fn, title, access, is_idempotent, budget, shrink_hint, StrictArguments(fn))
            self.specs[spec.name] = spec
            return fn

        return register

    def listed(self, *, cached: bool = True) -> list[Tool]:
        """Every tool as `tools/list` shows it; `cached=False` builds every schema afresh."""
        schemas = schemacache.load() if cached else {}
        return [spec.listed(schemas.get(name)) for name, spec in self.specs.items()]

    async def run(
        self,
        name: str,
        raw: Mapping[str, Any] | None,
        report: Report,
        peer: Peer | None = None,
        *,
        waiting_since: float | None = None,
    ) -> CallToolResult | InputRequiredResult:
        """Run one `tools/call`: the guard, the tool, the answer (never raises but for cancellation).

        `peer` is the client, when it can ask its user; a question a 2026-07-28 client must answer
        first ends the call with `input_required` (the client calls again with the answer)."""
        peer = peer or NoPeer()
        spec = self.specs.get(name)
        if spec is None:
            return self._error_result(ToolFailure(failures.VALIDATION, f"Unknown tool {name[:100]!r}."))
        started = time.perf_counter()
        call: Call | None = None
        failure: ToolFailure | None = None
        try:
            try:
                judged = self._admit(spec, dict(raw or {}), peer)
            except ToolFailure as refused:
                failure = refused
                return self._error_result(refused)
            budget = self._budget(spec, judged.values)
            outcome: _Success | ToolFailure | InputRequiredResult | None = None
            with anyio.move_on_after(budget + self.hard_stop_grace), deadline_after(budget) as deadline:
                clock = CallTime(deadline, self.state.clock)
                call = Call(spec.name, self._masked(report), clock, peer, waiting_since=waiting_since)
                async with beating(call.silence, call.progress):
                    outcome = await self._invoke(spec, judged, call)
            if outcome is None:  # the hard stop cut the call
                outcome = self._hard_stop(spec, budget).with_ids(call.ids if call is not None else {})
            if isinstance(outcome, InputRequiredResult):
                failure = ToolFailure("input_required", "")  # for the log line: the call ends asking, not done
                return outcome
            if isinstance(outcome, ToolFailure):
                failure = outcome
                return self._error_result(failure)
            result, failure = self._rendered(outcome, spec, call)
            if failure is None and call is not None and call.attachments:
                return _with_images(result, call.attachments)
            return result
        except anyio.get_cancelled_exc_class():
            failure = ToolFailure("cancelled", "")
            raise
        finally:
            self._log(spec.name, call, failure, time.perf_counter() - started)

    async def run_unattended(
        self, name: str, raw: Mapping[str, Any] | None, report: Report, waiting_since: float
    ) -> CallToolResult:
        """Run a call no one can be asked about (one round of a task that began at `waiting_since`): a
        question declines it."""
        result = await self.run(name, raw, report, waiting_since=waiting_since)
        if isinstance(result, InputRequiredResult):  # NoPeer never asks; kept total for the type
            return self._error_result(ToolFailure(failures.DECLINED, "No one can be asked during a task."))
        return result

    def _masked(self, report: Report) -> Report:
        async def masked(progress: float, message: str) -> None:
            # Prepared as an answer is (masked, cleaned): a lone surrogate (say, in a status Cursor sent) cannot
            # be written as UTF-8, and the SDK's stdout writer failing on one would end the whole server.
            await report(progress, self.state.answers.text(message))

        return masked

    def _admit(self, spec: ToolSpec, raw: dict[str, Any], peer: Peer) -> Judged:
        """The judged arguments of a call that may run: VALIDATION, the gates and a missing key refuse it."""
        judged = spec.arguments.judge(raw)
        self._gate(spec, judged.values, peer)
        settings = self.state.settings
        if settings.key_problem is not None and not settings.simulated:
            raise ToolFailure(failures.CONFIGURATION_MISSING, settings.key_problem)
        return judged

    async def _invoke(self, spec: ToolSpec, judged: Judged, call: Call) -> _Success | ToolFailure | InputRequiredResult:
        """The tool's answer (with what was clamped), the failure for anything expected to go wrong, or the
        question the client must answer first."""
        token = _current.set(call)
        try:
            return _Success(await spec.fn(**judged.values), judged.clamped)
        except Exception as raised:  # the one top-level guard
            exc = _single(raised)
            if isinstance(exc, InputNeeded):
                return exc.result
            if isinstance(exc, ToolFailure):
                return exc.with_ids(call.ids)
            if isinstance(exc, api_errors.CursorError):
                return failures.from_api_error(exc).with_ids(call.ids)
            # A bug in our code: the traceback goes to the log, never to the model.
            logger.exception("internal error in %s", spec.name)
            return ToolFailure(failures.INTERNAL, f"Internal error in {spec.name}; see the server log.")
        finally:
            _current.reset(token)

    def _gate(self, spec: ToolSpec, arguments: Mapping[str, Any], peer: Peer) -> None:
        if spec.access in _CHANGES_NOTHING_AT_CURSOR:
            return
        if not self.state.settings.allow_writes:
            raise ToolFailure(
                failures.READ_ONLY,
                f"{spec.name} changes state and writes are off. The user must set "
                "CURSOR_MCP_ALLOW_WRITES=1 in this MCP server's environment and restart the client.",
            )
        if spec.access is Access.DELETE:
            self._gate_delete(spec, arguments, peer)

    def _gate_delete(self, spec: ToolSpec, arguments: Mapping[str, Any], peer: Peer) -> None:
        if not self.state.settings.allow_delete:
            raise ToolFailure(
                failures.DELETE_DISABLED,
                f"{spec.name} is permanent and deletion is off. The user must set "
                "CURSOR_MCP_ALLOW_DELETE=1 (with CURSOR_MCP_ALLOW_WRITES=1) and restart the client; "
                "cursor_archive_agent is the reversible alternative.",
            )
        confirmation = arguments.get("confirm_agent_id")
        if peer.can_ask and "delete" in self.state.settings.ask and confirmation is None:
            return  # the tool asks the user, which is worth more than an id typed by the model
        if confirmation != arguments.get("agent_id"):
            raise ToolFailure(
                failures.CONFIRMATION_REQUIRED, "Deletion is permanent: pass confirm_agent_id equal to agent_id."
            )

    def _budget(self, spec: ToolSpec, arguments: Mapping[str, Any]) -> float:
        limit = self.state.settings.max_call_seconds
        return min(limit if spec.budget is None else spec.budget(arguments), limit)

    def _hard_stop(self, spec: ToolSpec, budget: float) -> ToolFailure:
        if spec.access in _CHANGES_NOTHING_AT_CURSOR:
            return ToolFailure(
                failures.TIMEOUT,
                f"{spec.name} did not finish within its {budget:.0f} s budget; nothing changed. "
                "Call it again (runs go on server-side).",
            )
        # A write stopped mid-way may have reached Cursor: never report it as not done.
        return ToolFailure(
            failures.MUTATION_OUTCOME_UNKNOWN,
            f"{spec.name} was stopped at its {budget:.0f} s budget and may or "
            "may not have taken effect. Do NOT send it again: read the agent (cursor_get_agent) to find out.",
        )

    def _rendered(
        self, success: _Success, spec: ToolSpec, call: Call | None
    ) -> tuple[CallToolResult, ToolFailure | None]:
        """The answer as `_result` makes it, or INTERNAL (with the call's ids) when it cannot be made: raised out of
        the handler, a value that is not JSON reached the client as a bare JSON-RPC error with its text."""
        try:
            return self._result(success, spec)
        except Exception:
            logger.exception("internal error in the answer of %s", spec.name)
        ran = (
            ""
            if spec.access in _CHANGES_NOTHING_AT_CURSOR
            else " It ran and may have taken effect: do NOT send it again."
        )
        failure = ToolFailure(failures.INTERNAL, f"Internal error in {spec.name}'s answer.{ran} See the server log.")
        failure.with_ids(call.ids if call is not None else {})
        return self._error_result(failure), failure

    def _result(self, success: _Success, spec: ToolSpec) -> tuple[CallToolResult, ToolFailure | None]:
        answers = self.state.answers
        data = answers.prepare(success.answer)
        if success.clamped and isinstance(data, dict):
            data = cast(dict[str, Any], data) | {"clamped": success.clamped}
        data, text = answers.render(data)
        size = answer_size(data)
        if size <= answers.max_bytes:
            return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data), None
        failure = ToolFailure(
            failures.RESULT_TOO_LARGE,
            f"The answer would be {size} bytes, over the "
            f"{answers.max_bytes}-byte cap (CURSOR_MCP_MAX_RESULT_BYTES). To get it, {spec.shrink_hint}.",
            size_bytes=size,
            max_bytes=answers.max_bytes,
        )
        return self._error_result(failure), failure

    def _error_result(self, failure: ToolFailure) -> CallToolResult:
        payload = failure.payload()
        message = self.state.answers.redactor.mask(failure.message)  # whole: a cut secret would not be recognised
        if len(message) > MAX_MESSAGE_CHARS:
            payload["message"] = message[:MAX_MESSAGE_CHARS] + " [clipped]"
        data, text = self.state.answers.fit_failure(payload)
        return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data, is_error=True)

    def _log(self, tool: str, call: Call | None, failure: ToolFailure | None, seconds: float) -> None:
        fields = dict(sorted((call.ids if call is not None else {}).items()))
        if failure is not None:
            fields |= {
                key: str(failure.context[key]) for key in ("http_status", "request_id") if key in failure.context
            }
        detail = " ".join(f"{key}={value}" for key, value in fields.items())
        outcome = "ok" if failure is None else failure.code
        logger.info("tool=%s outcome=%s duration_ms=%d %s", tool, outcome, seconds * 1000, detail)


def _with_images(result: CallToolResult, images: list[ImageContent]) -> CallToolResult:
    """The answer with its images after the JSON text, and without `structuredContent`: Codex hands its model only
    the structured content when there is one, so the image beside it never reached the model; without it, Codex,
    Claude Code and OpenCode all pass the text and the image on (docs/clients.md, issue 22)."""
    return CallToolResult(content=[*result.content, *images])


@dataclass(frozen=True)
class _Success:
    answer: Any
    clamped: dict[str, int]
