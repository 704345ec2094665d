"""A replay fold for the activity summary: last message, last tool call, background tasks, summaries, errors.

It is a `BlockConsumer` for `walk_replay`: each raw frame's type is read with one regex, and JSON is
decoded only for the few frames whose content matters as they pass (background commands, `await`
polls, summaries, errors). The fragments of the last assistant message and the last tool call are
kept as raw frames and decoded only when read, so folding a 16 MiB replay costs little more than
walking it. It can also be fed parsed events one by one (`fold(event)`), with the same result.

Background commands are `run_terminal_cmd` calls with `isBackground`: the completed call carries the
shell id, and later `await` calls on that id say whether it is `stillRunning` or `complete`.

`StreamMarks` is what every replay consumer tracks in the same way (this fold, and the server's
event tail and excerpt): the last event id, whether the run's end was seen, the last stream error.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass
from typing import Any, cast

from cursor_cloud_agents.api._frames import parse_block
from cursor_cloud_agents.api.events import RawEvent

_TYPE = re.compile(rb"^event: ?([a-z_]+)$", re.MULTILINE)
_ID = re.compile(rb"^id: ?([^\n\0]*)$", re.MULTILINE)
_SUMMARY = re.compile(r'"type"\s*:\s*"summary')
MAX_TEXT_CHARS = 4000
"""The last assistant message is kept to its last 4,000 characters."""
_FRAGMENTS_KEPT = 512
_SUMMARIES_KEPT = 3

Frame = bytes | RawEvent
"""A frame as the walker hands it over: raw bytes (the fast path) or a parsed event."""


@dataclass
class BackgroundTaskSeen:
    """A `run_terminal_cmd` launched with `isBackground` as the stream showed it, and what the last `await` said."""

    task_id: str | None
    """The shell id; None while the launch has not completed."""
    command: str | None
    call_id: str | None = None
    last_await: str | None = None
    """`stillRunning`, `complete`, or another state key of the last `await` result; None if never awaited."""

    @property
    def state(self) -> str:
        """`starting`, `running` or `complete`, as last seen in the stream."""
        if self.task_id is None:
            return "starting"
        return "complete" if self.last_await == "complete" else "running"


def _text(frame: Frame) -> str:
    return frame.decode("utf-8", "replace") if isinstance(frame, bytes) else frame.data


def payload(frame: Frame) -> dict[str, Any]:
    """A frame's JSON object (the SDK's nested `data` form unwrapped), or {} when it is not one."""
    event = parse_block(frame) if isinstance(frame, bytes) else frame
    if event is None:
        return {}
    try:
        data = event.payload()
    except ValueError:
        return {}
    if not isinstance(data, dict):
        return {}
    found = cast(dict[str, Any], data)
    inner = found.get("data")
    if "callId" not in found and isinstance(inner, dict):
        return cast(dict[str, Any], inner)
    return found


def _object(value: Any) -> dict[str, Any]:
    return cast(dict[str, Any], value) if isinstance(value, dict) else {}


END_KINDS = frozenset({"result", "done"})
"""The only frames that prove a run is over; an `error` frame does not."""


class StreamMarks:
    """What a replay consumer tracks: the last event id, whether the run's end was seen, the last stream error.

    Subclasses note each frame they take: `mark_event` for a parsed frame, or `mark_id` (`mark_block_ids`
    for a batch of raw frames) and `mark` where they read the id and the type apart.
    """

    def __init__(self, last_event_id: str | None = None) -> None:
        self.last_event_id = last_event_id
        """The id of the last frame that had one (heartbeats aside: they carry no liveness)."""
        self.finished = False
        """Whether a `result` or `done` frame arrived: only they prove the run's end."""
        self.error: dict[str, Any] | None = None
        """The last `error` frame's object: a stream error, never the end of the run."""

    def mark_id(self, event: RawEvent) -> None:
        """Note a parsed frame's id."""
        if event.id is not None and event.event != "heartbeat":
            self.last_event_id = event.id

    def mark_block_ids(self, blocks: list[bytes]) -> None:
        """Note the id of the last raw frame of a batch that has one (read once per batch, not per frame)."""
        for block in reversed(blocks):
            found = _ID.search(block)
            if found is not None and b"event: heartbeat" not in block:
                self.last_event_id = found.group(1).decode("utf-8", "replace")
                return

    def mark(self, kind: str, frame: Frame) -> None:
        """Note what a frame of type `kind` says of the stream: the run's end, or a stream error."""
        if kind in END_KINDS:
            self.finished = True
        elif kind == "error":
            self.error = payload(frame)

    def mark_event(self, event: RawEvent) -> None:
        """`mark_id` and `mark` for one parsed frame."""
        self.mark_id(event)
        self.mark(event.event, event)


class ActivityFold(StreamMarks):
    """Fold a replay into what an activity summary shows; feed it to `walk_replay`."""

    def __init__(self) -> None:
        super().__init__()
        self.frames = 0
        """Frames folded."""
        self.background_tasks: dict[str, BackgroundTaskSeen] = {}
        """Background commands by shell id (or by call id while starting), in launch order."""
        self.summaries: deque[str] = deque(maxlen=_SUMMARIES_KEPT)
        """The last summary texts (`interaction_update` of type `summary`)."""
        self.summarized = False
        """Whether the conversation was summarized (any `summary*` interaction update)."""
        self._message: deque[Frame] = deque(maxlen=_FRAGMENTS_KEPT)
        self._closed = False
        self._last_tool: Frame | None = None

    def take_blocks(self, blocks: list[bytes], /) -> None:
        """Fold a batch of raw frames (the fast path)."""
        for block in blocks:
            match = _TYPE.search(block)
            if match is not None:
                self._fold(match.group(1).decode(), block)
            elif block and not block.startswith(b":"):
                self.frames += 1  # a frame without a type ("message"): counted, nothing to fold
        self.mark_block_ids(blocks)

    def __call__(self, event: RawEvent, /) -> None:
        """Fold one parsed event (the per-event path)."""
        self.mark_id(event)
        self._fold(event.event, event)

    def _fold(self, kind: str, frame: Frame) -> None:
        self.frames += 1
        if kind == "assistant":
            if self._closed:
                self._message.clear()
                self._closed = False
            self._message.append(frame)
        elif kind == "thinking":
            self._closed = True
        elif kind == "tool_call":
            self._tool_call(frame)
        elif kind == "interaction_update":
            self._interaction(frame)
        else:
            self.mark(kind, frame)

    def _tool_call(self, frame: Frame) -> None:
        self._closed = True
        self._last_tool = frame
        text = _text(frame) if isinstance(frame, RawEvent) else frame
        if b"isBackground" in text if isinstance(text, bytes) else "isBackground" in text:
            self._launch(payload(frame))
        elif b'"await"' in text if isinstance(text, bytes) else '"await"' in text:
            self._await(payload(frame))

    def _interaction(self, frame: Frame) -> None:
        text = _text(frame)
        if _SUMMARY.search(text) is None:
            return
        self.summarized = True
        data = payload(frame)
        if data.get("type") == "summary" and isinstance(data.get("summary"), str):
            self.summaries.append(str(data["summary"])[-MAX_TEXT_CHARS:])

    def _launch(self, call: dict[str, Any]) -> None:
        args, result = _object(call.get("args")), _object(call.get("result"))
        if call.get("name") != "run_terminal_cmd" or args.get("isBackground") is not True:
            return
        command = args.get("command") if isinstance(args.get("command"), str) else None
        call_id = str(call.get("callId", ""))
        shell = _object(result.get("success")).get("shellId")
        self.background_tasks.pop(f"call:{call_id}", None)
        if shell is None:
            self.background_tasks[f"call:{call_id}"] = BackgroundTaskSeen(None, command, call_id)
        else:
            self.background_tasks[str(shell)] = BackgroundTaskSeen(str(shell), command, call_id)

    def _await(self, call: dict[str, Any]) -> None:
        if call.get("name") != "await" or call.get("status") != "completed":
            return
        task_id = str(_object(call.get("args")).get("taskId", ""))
        success = _object(_object(call.get("result")).get("success"))
        if task_id and success:
            # An await on a task launched before the replay's window still says how it stands.
            task = self.background_tasks.setdefault(task_id, BackgroundTaskSeen(task_id, None))
            task.last_await = next(iter(success))

    @property
    def last_assistant_text(self) -> str:
        """The last assistant message, fragments merged (at most its last 4,000 characters)."""
        text = "".join(str(payload(frame).get("text", "")) for frame in self._message)
        return text[-MAX_TEXT_CHARS:]

    @property
    def last_tool_call(self) -> dict[str, Any] | None:
        """`callId`, `name`, `status` (and `truncated`) of the last tool call; args and result left out."""
        if self._last_tool is None:
            return None
        data = payload(self._last_tool)
        return {key: data[key] for key in ("callId", "name", "status", "truncated") if key in data} or None
