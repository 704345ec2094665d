"""MCP Tasks (`io.modelcontextprotocol/tasks`, SEP-2663): a long wait answered at once with a task handle.

For a client that declares the extension on a request, a call whose work is waiting (`cursor_wait`,
`cursor_get_run` with a wait, `cursor_read_run_events` reading live) answers at once with a task; the
task runs the same tool again and again, each time inside the usual call limits, until the wait's
condition holds, `CURSOR_MCP_TASK_MAX_SECONDS` pass or the client cancels. Its final `result` is the
last of those answers, so it is exactly what the tool gives inline: same JSON, cap, masking and
cleaning. Tasks live in this process's memory: they end with it, and a run outlives its task.
"""

from __future__ import annotations

import logging
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

import anyio
from anyio.abc import TaskGroup
from mcp import MCPError
from mcp_types import CallToolResult

from cursor_cloud_agents.api import TERMINAL_RUN_STATUSES
from cursor_cloud_agents.api.times import iso
from cursor_cloud_agents.core.timing import Clock

logger = logging.getLogger("cursor_cloud_agents.tasks")

EXTENSION = "io.modelcontextprotocol/tasks"
TASK_NOT_FOUND = -32602
MISSING_CAPABILITY = -32021
WORKING_MAX = 10
"""Tasks waiting at once; a further wait is answered inline (the server decides per request): each task re-reads
Cursor until its runs end, so a model calling in a loop must not start pollers without end."""
FINISHED_KEPT = 100
"""Finished tasks kept for `tasks/get`; beyond that the oldest is dropped (memory stays bounded)."""
KEEP_SECONDS = 3600.0
"""How long a finished task stays readable after it ended (also bounded by FINISHED_KEPT)."""

RunTool = Callable[[str, Mapping[str, Any], Callable[[float, str], Awaitable[None]]], Awaitable[CallToolResult]]


def waits(tool: str, arguments: Mapping[str, Any]) -> bool:
    """Whether waiting is the work of this call (then a declaring client gets a task)."""
    if tool == "cursor_wait":
        return True
    if tool == "cursor_get_run":
        return bool(arguments.get("wait_seconds"))
    return tool == "cursor_read_run_events" and arguments.get("tail") is None


def still_waiting(tool: str, answer: Mapping[str, Any]) -> bool:
    """Whether an inline answer of a waiting tool says its condition does not hold yet (ask again)."""
    if tool == "cursor_read_run_events":
        # An ended run read past its last event answers nothing at once, and will never answer more.
        ended = answer.get("run_status") in TERMINAL_RUN_STATUSES
        return not answer.get("events") and not answer.get("finished") and not answer.get("interrupted") and not ended
    return answer.get("timed_out") is True


def declared(meta: Mapping[str, Any] | None) -> bool:
    """Whether this request's own capabilities declare the Tasks extension (2026-07-28 `_meta`)."""
    capabilities: object = (meta or {}).get("io.modelcontextprotocol/clientCapabilities")
    if not isinstance(capabilities, Mapping):
        return False
    extensions: object = cast(Mapping[str, object], capabilities).get("extensions")
    return isinstance(extensions, Mapping) and EXTENSION in extensions


@dataclass
class Task:
    """One task: its state as `tasks/get` reports it, and the scope that cancels its work."""

    task_id: str
    tool: str
    created_at: float
    updated_at: float
    status: str = "working"
    message: str | None = None
    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None
    ended_at: float | None = None
    scope: anyio.CancelScope = field(default_factory=anyio.CancelScope)


class TaskStore:
    """The tasks of this server process, run in the server's task group."""

    def __init__(self, run_tool: RunTool, clock: Clock, *, max_seconds: float, poll_seconds: float) -> None:
        self._run_tool = run_tool
        self._clock = clock
        self._max_seconds = max_seconds
        self._poll_ms = round(poll_seconds * 1000)
        self._tasks: OrderedDict[str, Task] = OrderedDict()
        self.group: TaskGroup | None = None

    def has_room(self) -> bool:
        """Whether one more task may start waiting (WORKING_MAX)."""
        return sum(task.ended_at is None for task in self._tasks.values()) < WORKING_MAX

    def start(self, tool: str, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """Create a task for this call and start its work; the `CreateTaskResult` to answer with."""
        if self.group is None:
            raise MCPError(code=-32603, message="The server is not running tasks (no task group)")
        now = self._clock.now()
        task = Task(secrets.token_urlsafe(24), tool, now, now, message=f"{tool}: waiting")
        self._tasks[task.task_id] = task
        self.group.start_soon(self._work, task, dict(arguments))
        return {"resultType": "task", **self.view(task)}

    def get(self, task_id: str) -> dict[str, Any]:
        """`tasks/get`: the task with its result, error or nothing more, as its status says."""
        return {"resultType": "complete", **self.detailed(self._find(task_id))}

    def cancel(self, task_id: str) -> dict[str, Any]:
        """`tasks/cancel`: stop the work and any request it has in flight at once."""
        task = self._find(task_id)
        if task.ended_at is None:
            task.scope.cancel()
            self._end(
                task, "cancelled", "Cancelled by the client; the agent's run goes on (read it with cursor_get_run)."
            )
        return {"resultType": "complete"}

    def view(self, task: Task) -> dict[str, Any]:
        """The `Task` fields of the extension."""
        view: dict[str, Any] = {
            "taskId": task.task_id,
            "status": task.status,
            "createdAt": iso(task.created_at, "milliseconds"),
            "lastUpdatedAt": iso(task.updated_at, "milliseconds"),
            "ttlMs": round(self._ttl(task) * 1000),
            "pollIntervalMs": self._poll_ms,
        }
        if task.message:
            view["statusMessage"] = task.message
        return view

    def detailed(self, task: Task) -> dict[str, Any]:
        """The task with its status-specific payload (`DetailedTask`)."""
        view = self.view(task)
        if task.status == "completed" and task.result is not None:
            view["result"] = task.result
        if task.status == "failed" and task.error is not None:
            view["error"] = task.error
        return view

    def _ttl(self, task: Task) -> float:
        # Honest: a working task may run to the task limit; a finished one is kept KEEP_SECONDS more.
        ends = task.ended_at if task.ended_at is not None else task.created_at + self._max_seconds
        return ends - task.created_at + KEEP_SECONDS

    def _find(self, task_id: str) -> Task:
        self._drop_expired()
        task = self._tasks.get(task_id)
        if task is None:
            raise MCPError(code=TASK_NOT_FOUND, message="Failed to retrieve task: Task not found")
        return task

    async def _work(self, task: Task, arguments: dict[str, Any]) -> None:
        async def report(_progress: float, message: str) -> None:
            task.message, task.updated_at = message, self._clock.now()

        last: CallToolResult | None = None
        # The limit is kept on the task's clock between answers, and in real time as a backstop.
        ends = task.created_at + self._max_seconds
        with task.scope, anyio.move_on_after(self._max_seconds):
            try:
                while True:
                    began = self._clock.now()
                    last = await self._run_tool(task.tool, arguments, report)
                    if self._clock.now() >= ends or not self._again(task, last):
                        break
                    await self._pace(began, ends)
            except Exception:  # a bug in a task must not take the server's task group down
                logger.exception("task of %s failed", task.tool)
                self._fail(task, "Internal error; see the server log.")
                return
        if task.ended_at is not None:
            return  # cancelled
        if last is None:
            self._fail(task, "The task reached CURSOR_MCP_TASK_MAX_SECONDS before any answer; the run goes on.")
            return
        # At the task limit the last answer stands (it says timed_out): the run goes on server-side.
        task.result = last.model_dump(by_alias=True, exclude_none=True, mode="json")
        self._end(task, "completed", "Done: the result holds the answer.")

    async def _pace(self, began: float, ends: float) -> None:
        # An answer that came back at once (a stream that closed empty) is not asked again at once: the
        # task re-asks no faster than the poll interval it advises, instead of hammering Cursor for an hour.
        now = self._clock.now()
        pause = min(began + self._poll_ms / 1000 - now, ends - now)
        if pause > 0:
            await self._clock.sleep(pause)

    @staticmethod
    def _again(task: Task, last: CallToolResult) -> bool:
        return not last.is_error and still_waiting(task.tool, last.structured_content or {})

    def _fail(self, task: Task, message: str) -> None:
        task.error = {"code": -32603, "message": message}
        self._end(task, "failed", message)

    def _end(self, task: Task, status: str, message: str) -> None:
        task.status, task.message = status, message
        task.updated_at = task.ended_at = self._clock.now()
        self._drop_expired()

    def _drop_expired(self) -> None:
        now = self._clock.now()
        finished = [t for t in self._tasks.values() if t.ended_at is not None]
        for stale in finished[: max(0, len(finished) - FINISHED_KEPT)]:
            del self._tasks[stale.task_id]
        for task in finished:
            if task.ended_at is not None and now - task.ended_at > KEEP_SECONDS:
                self._tasks.pop(task.task_id, None)
