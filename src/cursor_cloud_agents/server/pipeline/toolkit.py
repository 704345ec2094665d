"""The toolkit: the one wrapper through which every tool is declared, listed and run.

A tool is a module-level async function with typed parameters, a docstring and a small body, declared in
a `Catalogue` beside it (`declaration.py`); what it asks for by type (the server's state, the call in
progress) is handed in here, the rest are the model's arguments. Everything the tools share lives here,
once (docs/architecture.md, "The tool contract"):

1. arguments judged strictly (unknown names refused, JSON types exact, ids by pattern; waits
   clamped to their maximum), so even a malformed call answers our JSON `VALIDATION` error and
   nothing is sent;
2. the write and delete gates;
3. a hard deadline per call, one `Deadline` value shared with the API client;
4. errors as stable `{code, message, ...}` objects; a bug becomes a generic INTERNAL error;
5. compact JSON, identical in the text content and in `structuredContent` (the answer builder);
6. a byte cap on every result (`RESULT_TOO_LARGE`, never a silent cut); an image a tool attaches
   (`call.attach_image(...)`) follows the text and is bounded by its own limit instead, and its
   answer carries no `structuredContent` (the JSON stays in the text), so that every client shows the image;
7. agent-produced text cleaned of hidden characters;
8. secrets masked in results, errors and logs;
9. the four annotation hints set explicitly;
10. progress reporting for waits (`call.progress(...)`), a heartbeat filling any silence of 15 s
    (`heartbeat.py`), and cancellation left to anyio;
11. one log line per call on stderr.

It stands on the SDK's public types only: the server (`app.py`) lists `listed()` and hands every
`tools/call` to `run()`. What a call may do is decided in `gates.py` (point 2) and what it answers is made
in `results.py` (points 4 to 8); the toolkit holds the declared tools and runs each call between them.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import Any, cast

import anyio
from mcp_types import CallToolResult, InputRequiredResult, Tool

from cursor_cloud_agents.api import errors as api_errors
from cursor_cloud_agents.api.deadline import deadline_after
from cursor_cloud_agents.core import Advice, Step, ToolFailure, failures
from cursor_cloud_agents.core.timing import HARD_STOP_GRACE, CallTime
from cursor_cloud_agents.server.pipeline import schemacache
from cursor_cloud_agents.server.pipeline.arguments import Judged
from cursor_cloud_agents.server.pipeline.declaration import Catalogue, ToolSpec
from cursor_cloud_agents.server.pipeline.gates import gate, hard_stop
from cursor_cloud_agents.server.pipeline.heartbeat import beating
from cursor_cloud_agents.server.pipeline.prtargets import judged_with_stand_in, pr_named, with_agent_of
from cursor_cloud_agents.server.pipeline.results import Results, Success, with_images
from cursor_cloud_agents.server.pipeline.state import ServerState
from cursor_cloud_agents.server.pipeline.toolcall import Report, ToolCall
from cursor_cloud_agents.server.protocol.asking import InputNeeded, NoPeer, Peer

logger = logging.getLogger("cursor_cloud_agents.tools")


def _single(exc: Exception) -> Exception:
    """The one error inside a task group's exception group (as many levels deep as it is), else `exc`."""
    candidate: object = exc  # narrowed on its own, so that `exc` keeps its type
    grouped = cast(ExceptionGroup[Exception], candidate).exceptions if isinstance(candidate, ExceptionGroup) else ()
    return _single(grouped[0]) if len(grouped) == 1 else exc


class Toolkit:
    """Holds the declared tools and runs every call through the guard, on the server's state."""

    def __init__(
        self, state: ServerState, catalogue: Catalogue | None = None, *, hard_stop_grace: float = HARD_STOP_GRACE
    ) -> None:
        self.state = state
        self.hard_stop_grace = hard_stop_grace
        self.catalogue = catalogue if catalogue is not None else Catalogue()
        """Where `tool(...)` declares more (a test's own tools)."""
        self.results = Results(state.answers)
        """What every call answers, fitted (`results.py`)."""
        self.tool = self.catalogue.tool

    @property
    def specs(self) -> dict[str, ToolSpec]:
        """Every declared tool by name, in catalogue order."""
        return {spec.name: spec for spec in self.catalogue.specs}

    def may_become_task(self, name: str, arguments: Mapping[str, Any]) -> bool:
        """Whether the work of this call is waiting, by its tool's declaration (a declaring client gets a task)."""
        spec = self.specs.get(name)
        return spec is not None and spec.may_become_task(arguments)

    def listed(self, *, cached: bool = True) -> list[Tool]:
        """Every tool as `tools/list` shows it; `cached=False` builds every schema afresh."""
        schemas = schemacache.load(self.catalogue.specs) if cached else {}
        return [spec.listed(schemas.get(name)) for name, spec in self.specs.items()]

    async def run(
        self,
        name: str,
        raw: Mapping[str, Any] | None,
        report: Report,
        peer: Peer | None = None,
        *,
        waiting_since: float | None = None,
        client: str | None = None,
    ) -> CallToolResult | InputRequiredResult:
        """Run one `tools/call`: the guard, the tool, the answer (never raises but for cancellation).

        `peer` is the client, when it can ask its user; a question a 2026-07-28 client must answer
        first ends the call with `input_required` (the client calls again with the answer). `client` is its
        name, for the pages sized to what its model reads."""
        result, _waiting = await self._serve(name, raw, report, peer, waiting_since=waiting_since, client=client)
        return result

    async def _serve(
        self,
        name: str,
        raw: Mapping[str, Any] | None,
        report: Report,
        peer: Peer | None,
        *,
        waiting_since: float | None,
        client: str | None = None,
    ) -> tuple[CallToolResult | InputRequiredResult, bool]:
        """`run`'s answer, and whether the tool's typed answer says its wait goes on (`TaskRule`)."""
        peer = peer or NoPeer()
        spec = self.specs.get(name)
        if spec is None:
            return self.results.of_failure(ToolFailure(failures.VALIDATION, f"Unknown tool {name[:100]!r}.")), False
        started = time.perf_counter()
        call: ToolCall | None = None
        failure: ToolFailure | None = None
        try:
            pr = pr_named(spec, dict(raw or {}))  # an agent named by its PR: resolved once the call may run
            try:
                judged = self._admit(spec, judged_with_stand_in(dict(raw or {})) if pr else dict(raw or {}), peer)
            except ToolFailure as refused:
                failure = refused
                return self.results.of_failure(refused), False
            budget = self._budget(spec, judged.values)
            outcome: Success | ToolFailure | InputRequiredResult | None = None
            with anyio.move_on_after(budget + self.hard_stop_grace), deadline_after(budget) as deadline:
                clock = CallTime(deadline, self.state.clock)
                call = ToolCall(spec.name, self._masked(report), clock, peer, waiting_since=waiting_since)
                call.claude_plugin = self.state.settings.claude_plugin
                call.client = client
                async with beating(call.silence, call.progress):
                    outcome = await self._invoke(spec, judged, call, pr)
            if outcome is None:  # the hard stop cut the call
                outcome = hard_stop(spec, budget).with_ids(call.ids if call is not None else {})
            if isinstance(outcome, InputRequiredResult):
                failure = ToolFailure("input_required", "")  # for the log line: the call ends asking, not done
                return outcome, False
            if isinstance(outcome, ToolFailure):
                failure = outcome
                return self.results.of_failure(failure), False
            result, failure = self.results.of_success(outcome, spec, call.ids if call is not None else {})
            if failure is not None:
                return result, False
            if call is not None and call.attachments:
                result = with_images(result, call.attachments)
            return result, spec.still_waiting(outcome.answer)
        except anyio.get_cancelled_exc_class():
            failure = ToolFailure("cancelled", "")
            raise
        finally:
            self._log(spec.name, call, failure, time.perf_counter() - started)

    async def run_unattended(
        self, name: str, raw: Mapping[str, Any] | None, report: Report, waiting_since: float
    ) -> tuple[CallToolResult, bool]:
        """Run a call no one can be asked about (one round of a task that began at `waiting_since`): a
        question declines it. With the answer, whether it says the wait goes on (the task asks again)."""
        result, waiting = await self._serve(name, raw, report, None, waiting_since=waiting_since)
        if isinstance(result, InputRequiredResult):  # NoPeer never asks; kept total for the type
            return self.results.of_failure(ToolFailure(failures.DECLINED, "No one can be asked during a task.")), False
        return result, waiting

    def _masked(self, report: Report) -> Report:
        async def masked(progress: float, message: str) -> None:
            # Prepared as an answer is (masked, cleaned): a lone surrogate (say, in a status Cursor sent) cannot
            # be written as UTF-8, and the SDK's stdout writer failing on one would end the whole server.
            await report(progress, self.state.answers.text(message))

        return masked

    def _admit(self, spec: ToolSpec, raw: dict[str, Any], peer: Peer) -> Judged:
        """The judged arguments of a call that may run: VALIDATION, the gates and a missing key refuse it."""
        judged = spec.arguments.judge(raw)
        gate(self.state.settings, spec, judged.values, peer)
        settings = self.state.settings
        if settings.key_problem is not None and not settings.simulated:
            raise ToolFailure(failures.CONFIGURATION_MISSING, settings.key_problem, advice=Advice(Step.SET_KEY))
        return judged

    def _provided(self, spec: ToolSpec, call: ToolCall) -> dict[str, Any]:
        """What the tool asks for by type: the call in progress, the server's state."""
        return {
            name: call if issubclass(kind, ToolCall) else self.state for name, kind in spec.arguments.injected().items()
        }

    async def _invoke(
        self, spec: ToolSpec, judged: Judged, call: ToolCall, pr: str | None = None
    ) -> Success | ToolFailure | InputRequiredResult:
        """The tool's answer (with what was clamped), the failure for anything expected to go wrong, or the
        question the client must answer first."""
        try:
            values = await with_agent_of(self.state, judged.values, pr)
            return Success(await spec.fn(**self._provided(spec, call), **values), judged.clamped)
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

    def _budget(self, spec: ToolSpec, arguments: Mapping[str, Any]) -> float:
        limit = self.state.settings.max_call_seconds
        return min(limit if spec.budget is None else spec.budget(arguments), limit)

    def _log(self, tool: str, call: ToolCall | None, failure: ToolFailure | None, seconds: float) -> None:
        fields = dict(sorted((call.ids if call is not None else {}).items()))
        if failure is not None:
            fields |= {
                key: str(failure.context[key]) for key in ("http_status", "request_id") if key in failure.context
            }
        detail = " ".join(f"{key}={value}" for key, value in fields.items())
        outcome = "ok" if failure is None else failure.code
        logger.info("tool=%s outcome=%s duration_ms=%d %s", tool, outcome, seconds * 1000, detail)
