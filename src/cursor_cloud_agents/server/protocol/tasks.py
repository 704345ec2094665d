"""MCP Tasks (`io.modelcontextprotocol/tasks`, SEP-2663): a long wait answered at once with a task handle.

For a client that declares the extension on a request, a call whose work is waiting (each tool says
when, in its declaration: `declaration.TaskRule`) answers at once with a task; the task runs the same
tool again and again, each time inside the usual call limits, until the tool's answer says the wait's
condition holds, `CURSOR_MCP_TASK_MAX_SECONDS` pass or the client cancels. Its final `result` is the
last of those answers, so it is exactly what the tool gives inline: same JSON, cap, masking and
cleaning.

A task outlives its process. Its record (id, tool, arguments, creation time, last status) is written in
the store of paid acts (`core/store.py`) when it starts and when it ends: Claude Code saves a task and
polls it again after `claude --resume`, against a new server process. A process asked for a task it does
not hold reads the record and takes the task up: a working (or completed) one by running the same wait
again, inside the same overall limit counted from the task's creation (the runs it waits for went on at
Cursor, so the answer is the one the inline call would give); a cancelled or failed one as it ended. An
id never made is `-32602` "Task not found"; a record past its time-to-live is `-32602` "Task has expired".
What a task does not survive is its record: the state directory removed, or a store kept in memory
(simulated mode, `CURSOR_MCP_STATE_DIR=memory`).
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

from cursor_cloud_agents.api.times import iso
from cursor_cloud_agents.core import Act, Store, StoreUnusable
from cursor_cloud_agents.core.timing import FINISHED_TASK_SECONDS as KEEP_SECONDS
from cursor_cloud_agents.core.timing import Clock

logger = logging.getLogger("cursor_cloud_agents.tasks")

EXTENSION = "io.modelcontextprotocol/tasks"
TASK_NOT_FOUND = -32602
MISSING_CAPABILITY = -32021
WORKING_MAX = 10
"""Tasks waiting at once; a further wait is answered inline (the server decides per request): each task re-reads
Cursor until its runs end, so a model calling in a loop must not start pollers without end."""
CANCELLED = "Cancelled by the client."
"""A cancelled task's status unless the server hands in its own words (`TaskStore(cancelled=...)`): the task
machinery names no tool, so what to read next is the pipeline's hint, handed down."""
FINISHED_KEPT = 100
"""Finished tasks kept for `tasks/get`; beyond that the oldest is dropped (memory stays bounded)."""

RunTool = Callable[
    [str, Mapping[str, Any], Callable[[float, str], Awaitable[None]], float], Awaitable[tuple[CallToolResult, bool]]
]
"""Runs one round of a task: the tool, its arguments, where progress goes, and when the task began; the
answer, and whether it says the wait's condition does not hold yet (ask again)."""


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
    arguments: dict[str, Any] = field(default_factory=dict[str, Any])
    """The call it runs again and again (kept in its record, so a later process can run it too)."""
    scope: anyio.CancelScope = field(default_factory=anyio.CancelScope)


class TaskStore:
    """The tasks of this server process, run in the server's task group."""

    def __init__(
        self,
        run_tool: RunTool,
        clock: Clock,
        *,
        max_seconds: float,
        poll_seconds: float,
        records: Store | None = None,
        cancelled: str = CANCELLED,
    ) -> None:
        self._run_tool = run_tool
        self._cancelled = cancelled
        self._clock = clock
        self._records = records
        """Where each task's record is kept to outlive this process (None: in this process only)."""
        self._max_seconds = max_seconds
        self._poll_ms = round(poll_seconds * 1000)
        self._tasks: OrderedDict[str, Task] = OrderedDict()
        self.group: TaskGroup | None = None

    def has_room(self) -> bool:
        """Whether one more task may start waiting (WORKING_MAX)."""
        return sum(task.ended_at is None for task in self._tasks.values()) < WORKING_MAX

    async def start(self, tool: str, arguments: Mapping[str, Any]) -> dict[str, Any] | None:
        """Create a task for this call, write its record and start its work: the `CreateTaskResult`, or None
        when WORKING_MAX tasks wait already (the call is then answered inline).

        The place is checked and taken with no await between (the record is written after): calls that
        arrive together each see the places the others took, never the room before their records."""
        if not self.has_room():
            return None
        now = self._clock.now()
        task = Task(secrets.token_urlsafe(24), tool, now, now, message=f"{tool}: waiting", arguments=dict(arguments))
        self._tasks[task.task_id] = task
        try:
            await self._record(task)
            self._run(task)
        except BaseException:  # not started (cancelled while its record was written): its place is given back
            self._tasks.pop(task.task_id, None)
            raise
        return {"resultType": "task", **self.view(task)}

    async def get(self, task_id: str) -> dict[str, Any]:
        """`tasks/get`: the task with its result, error or nothing more, as its status says."""
        return {"resultType": "complete", **self.detailed(await self._find(task_id))}

    async def cancel(self, task_id: str) -> dict[str, Any]:
        """`tasks/cancel`: stop the work and any request it has in flight at once."""
        task = await self._find(task_id)
        if task.ended_at is None:
            task.scope.cancel()
            await self._end(task, "cancelled", self._cancelled)
        return {"resultType": "complete"}

    def _run(self, task: Task) -> None:
        if self.group is None:
            raise MCPError(code=-32603, message="The server is not running tasks (no task group)")
        self._tasks[task.task_id] = task
        self.group.start_soon(self._work, task)

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

    async def _find(self, task_id: str) -> Task:
        self._drop_expired()
        task = self._tasks.get(task_id)
        return task if task is not None else await self._take_up(task_id)

    async def _take_up(self, task_id: str) -> Task:
        """A task an earlier process (or another) created, from its record: resumed, or as it ended."""
        now = self._clock.now()
        if self._records is None:
            raise MCPError(code=TASK_NOT_FOUND, message="Failed to retrieve task: Task not found")
        try:
            act = (await self._records.read(now)).acts.get(task_id)
        except StoreUnusable as unusable:
            logger.warning("task %s looked for in the store: %s", task_id[:8], unusable.why)
            act = None
        if act is None or act.kind != "task" or act.detail is None:
            raise MCPError(code=TASK_NOT_FOUND, message="Failed to retrieve task: Task not found")
        detail = act.detail
        status, tool, arguments = detail.get("status"), detail.get("tool"), detail.get("arguments")
        ended = act.state != "sent" and status in ("cancelled", "failed")
        if (
            now - act.at > self._max_seconds + KEEP_SECONDS
            or not isinstance(tool, str)
            or not isinstance(arguments, dict)
        ):
            raise MCPError(code=TASK_NOT_FOUND, message="Failed to retrieve task: Task has expired")
        taken = self._tasks.get(task_id)
        if taken is not None:  # another tasks/get took it up while this one read the store: one task, one poller
            return taken
        taken_up = f"{tool}: waiting (taken up after a restart of the server)"
        task = Task(task_id, tool, act.at, now, message=taken_up, arguments=cast(dict[str, Any], arguments))
        if not ended and not self.has_room():
            # Not run and not kept: it is taken up by a later tasks/get, once a place is free (WORKING_MAX).
            task.message = f"{tool}: waiting for a place to run (at most {WORKING_MAX} tasks wait at once)"
            return task
        if ended:
            task.status, task.ended_at = cast(str, status), now
            task.message = str(detail.get("message") or f"The task was {status} before the server restarted.")
            if status == "failed":
                task.error = {"code": -32603, "message": task.message}
            self._tasks[task_id] = task
            return task
        self._run(task)
        return task

    async def _record(self, task: Task) -> None:
        """Write the task's record as it stands."""
        now = self._clock.now()
        if self._records is None:
            return
        try:
            state = "sent" if task.ended_at is None else ("done" if task.status == "completed" else "failed")
            detail = {"tool": task.tool, "arguments": task.arguments, "status": task.status, "message": task.message}
            await self._records.write(Act(task.task_id, "task", task.created_at, state, detail=detail), now=now)
        except StoreUnusable as unusable:  # the task still runs here; it just will not survive a restart
            logger.warning("task %s not recorded: %s", task.task_id[:8], unusable.why)

    async def _work(self, task: Task) -> None:
        async def report(_progress: float, message: str) -> None:
            task.message, task.updated_at = message, self._clock.now()

        last: CallToolResult | None = None
        # The limit is kept on the task's clock between answers, and in real time as a backstop.
        ends = task.created_at + self._max_seconds
        with task.scope, anyio.move_on_after(self._max_seconds):
            try:
                while True:
                    began = self._clock.now()
                    last, waiting = await self._run_tool(task.tool, task.arguments, report, task.created_at)
                    if self._clock.now() >= ends or not waiting:
                        break
                    await self._pace(began, ends)
            except Exception:  # a bug in a task must not take the server's task group down
                logger.exception("task of %s failed", task.tool)
                await self._fail(task, "Internal error; see the server log.")
                return
        if task.ended_at is not None:
            return  # cancelled
        if last is None:
            await self._fail(task, "The task reached CURSOR_MCP_TASK_MAX_SECONDS before any answer; the run goes on.")
            return
        # At the task limit the last answer stands (it says timed_out): the run goes on server-side.
        task.result = last.model_dump(by_alias=True, exclude_none=True, mode="json")
        await self._end(task, "completed", "Done: the result holds the answer.")

    async def _pace(self, began: float, ends: float) -> None:
        # An answer that came back at once (a stream that closed empty) is not asked again at once: the
        # task re-asks no faster than the poll interval it advises, instead of hammering Cursor for an hour.
        now = self._clock.now()
        pause = min(began + self._poll_ms / 1000 - now, ends - now)
        if pause > 0:
            await self._clock.sleep(pause)

    async def _fail(self, task: Task, message: str) -> None:
        task.error = {"code": -32603, "message": message}
        await self._end(task, "failed", message)

    async def _end(self, task: Task, status: str, message: str) -> None:
        task.status, task.message = status, message
        task.updated_at = task.ended_at = self._clock.now()
        self._drop_expired()
        with anyio.CancelScope(shield=True):  # a cancelled task's scope must not stop its record being written
            await self._record(task)

    def _drop_expired(self) -> None:
        now = self._clock.now()
        finished = [t for t in self._tasks.values() if t.ended_at is not None]
        for stale in finished[: max(0, len(finished) - FINISHED_KEPT)]:
            del self._tasks[stale.task_id]
        for task in finished:
            if task.ended_at is not None and now - task.ended_at > KEEP_SECONDS:
                self._tasks.pop(task.task_id, None)
