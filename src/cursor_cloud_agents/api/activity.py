"""A replay fold for the activity summary: last assistant text, last tool call, background tasks, summaries.

It is a `BlockConsumer`: it looks at each raw frame's type with one regex and decodes JSON only for
the frames it uses (assistant fragments, tool calls, summary updates), so folding a 16 MiB replay
costs little more than walking it. The run's last event time comes with the walk's `ReplayOutcome`.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from cursor_cloud_agents.api._frames import parse_block
from cursor_cloud_agents.api.events import RawEvent

_TYPE = re.compile(rb"^event: ?(assistant|tool_call|interaction_update)$", re.MULTILINE)
_SUMMARY = re.compile(rb'"type"\s*:\s*"summary"')
MAX_TEXT_CHARS = 4000


@dataclass
class BackgroundTask:
    """A `run_terminal_cmd` launched with `isBackground`, and what the last `await` on it said."""

    task_id: str
    command: str | None
    call_id: str | None
    last_await: str | None = None
    """`stillRunning`, `complete`, or another state key of the last `await` result; None if never awaited."""


@dataclass
class ActivityFold:
    """Fold a replay into what an activity summary shows; feed it to `walk_replay`."""

    last_assistant_text: str = ""
    """The assistant fragments since the last tool call, merged (at most the last 4000 characters)."""
    last_tool_call: dict[str, Any] | None = None
    """`callId`, `name`, `status` (and `truncated`) of the last tool call frame; args and result left out."""
    background_tasks: dict[str, BackgroundTask] = field(default_factory=lambda: dict[str, BackgroundTask]())
    summaries: deque[str] = field(default_factory=lambda: deque[str](maxlen=3))
    """The last summary texts (`interaction_update` of type `summary`)."""
    _fragments: list[str] = field(default_factory=lambda: list[str]())
    _after_tool: bool = False

    def take_blocks(self, blocks: list[bytes], /) -> None:
        """Fold a batch of raw frames."""
        for block in blocks:
            match = _TYPE.search(block)
            if match is None:
                continue
            kind = match.group(1)
            if kind == b"interaction_update" and _SUMMARY.search(block) is None:
                continue
            event = parse_block(block)
            if event is not None:
                self(event)

    def __call__(self, event: RawEvent, /) -> None:
        """Fold one event (the per-event path)."""
        try:
            payload = event.payload()
        except ValueError:
            return
        if not isinstance(payload, dict):
            return
        data: dict[str, Any] = payload  # pyright: ignore[reportUnknownVariableType] -- raw JSON object
        if event.event == "assistant":
            self._assistant(data)
        elif event.event == "tool_call":
            self._tool_call(data)
        elif event.event == "interaction_update" and data.get("type") == "summary":
            summary = data.get("summary")
            if isinstance(summary, str):
                self.summaries.append(summary[-MAX_TEXT_CHARS:])

    def _assistant(self, data: dict[str, Any]) -> None:
        text = data.get("text")
        if not isinstance(text, str):
            return
        if self._after_tool:
            self._fragments, self._after_tool = [], False
        self._fragments.append(text)
        if sum(map(len, self._fragments)) > 2 * MAX_TEXT_CHARS:
            self._fragments = ["".join(self._fragments)[-MAX_TEXT_CHARS:]]
        self.last_assistant_text = "".join(self._fragments)[-MAX_TEXT_CHARS:]

    def _tool_call(self, data: dict[str, Any]) -> None:
        self._after_tool = True
        self.last_tool_call = {k: data[k] for k in ("callId", "name", "status", "truncated") if k in data}
        args = data.get("args")
        result = data.get("result")
        if data.get("name") == "run_terminal_cmd":
            self._background(data, args, result)
        elif data.get("name") == "await" and isinstance(args, dict):
            self._await(args, result)  # pyright: ignore[reportUnknownArgumentType] -- raw JSON object

    def _background(self, data: dict[str, Any], args: Any, result: Any) -> None:
        if not isinstance(args, dict) or args.get("isBackground") is not True:  # pyright: ignore[reportUnknownMemberType] -- raw JSON
            return
        success = result.get("success") if isinstance(result, dict) else None  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType] -- raw JSON
        if isinstance(success, dict) and success.get("shellId") is not None:  # pyright: ignore[reportUnknownMemberType] -- raw JSON
            task_id = str(success["shellId"])  # pyright: ignore[reportUnknownArgumentType] -- raw JSON
            command = args.get("command")  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType] -- raw JSON
            self.background_tasks[task_id] = BackgroundTask(
                task_id=task_id, command=command if isinstance(command, str) else None, call_id=data.get("callId")
            )

    def _await(self, args: dict[str, Any], result: Any) -> None:
        task = self.background_tasks.get(str(args.get("taskId")))
        success = result.get("success") if isinstance(result, dict) else None  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType] -- raw JSON
        if task is not None and isinstance(success, dict) and success:
            task.last_await = str(next(iter(success)))  # pyright: ignore[reportUnknownArgumentType] -- raw JSON
