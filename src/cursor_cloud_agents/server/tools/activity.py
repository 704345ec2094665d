"""The activity summary of a run: what its stream last showed, folded from the whole replay.

The API hides what matters most: `FINISHED` only means the agent ended its turn (a background
command may still run), a RUNNING run's `updatedAt` never moves, an ERROR run carries no cause. The
stream's replay says more, and this module folds it in one pass, decoding JSON only for the few
frames it needs: the last assistant message, the last tool call, background commands
(`run_terminal_cmd` with `isBackground`, then `await` polls on their shell id), and the SDK's
summary updates. Event ids are millisecond timestamps: the only liveness clock.

`cursor_get_run` calls `summarize` (the signature is the contract between the two modules);
`cursor_supervise` calls `fold_activity` for many rows under its own progress. A terminal run's
complete summary is cached for the life of the toolkit, `idle_seconds` recomputed on each read.
"""

from __future__ import annotations

import weakref
from collections import OrderedDict, deque
from dataclasses import dataclass
from typing import Any, cast

from cursor_cloud_agents.api import CursorError, RawEvent, StreamError, StreamExpiredError
from cursor_cloud_agents.server import failures
from cursor_cloud_agents.server.toolkit import Toolkit
from cursor_cloud_agents.server.tools.eventviews import clip, event_time_ms, fragment_text, iso_of_ms
from cursor_cloud_agents.server.tools.waits import with_progress

REPLAY_MAX_BYTES = 16 * 1024 * 1024
TEXT_CHARS = 500
"""The last assistant text is kept to its last 500 characters."""
COMMAND_CHARS = 120
MAX_TASKS_SHOWN = 10
CACHE_SIZE = 512
_FRAGMENTS_KEPT = 256


def _payload(raw: RawEvent) -> dict[str, Any]:
    try:
        data = raw.payload()
    except ValueError:
        return {}
    if not isinstance(data, dict):
        return {}
    payload = cast(dict[str, Any], data)
    inner = payload.get("data")
    if "callId" not in payload and isinstance(inner, dict):
        return cast(dict[str, Any], inner)  # the SDK's nested tool_call form
    return payload


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}  # pyright: ignore[reportUnknownVariableType]  # JSON object


def _short(error: dict[str, Any]) -> str:
    return clip(str(error.get("message", "")), 200)[0]


class ActivityFold:
    """A replay consumer: keeps only what the summary needs, decoding JSON for few frames."""

    def __init__(self) -> None:
        self.events = 0
        self.last_id: str | None = None
        self.fragments: deque[RawEvent] = deque(maxlen=_FRAGMENTS_KEPT)
        self.message_closed = False
        self.last_tool: RawEvent | None = None
        self.tasks: dict[str, dict[str, str]] = {}
        self.starting: dict[str, str] = {}
        self.summarized = False
        self.finished = False
        self.error: dict[str, Any] | None = None

    def __call__(self, raw: RawEvent, /) -> None:
        self.events += 1
        kind = raw.event
        if raw.id is not None and kind != "heartbeat":
            self.last_id = raw.id
        if kind == "assistant":
            if self.message_closed:
                self.fragments.clear()
                self.message_closed = False
            self.fragments.append(raw)
        elif kind == "tool_call":
            self._tool_call(raw)
        elif kind == "thinking":
            self.message_closed = True
        elif kind == "interaction_update":
            if not self.summarized and '"summary' in raw.data:
                self.summarized = str(_payload(raw).get("type", "")).startswith("summary")
        elif kind in ("result", "done"):
            self.finished = True
        elif kind == "error":
            self.error = _payload(raw)

    def _tool_call(self, raw: RawEvent) -> None:
        self.message_closed = True
        self.last_tool = raw
        if "isBackground" in raw.data or "await" in raw.data:  # cheap test before decoding
            self._background(_payload(raw))

    def _background(self, call: dict[str, Any]) -> None:
        args, result = _dict(call.get("args")), _dict(call.get("result"))
        name, call_id = call.get("name"), str(call.get("callId", ""))
        if name == "run_terminal_cmd" and args.get("isBackground") is True:
            command = clip(str(args.get("command", "")), COMMAND_CHARS)[0]
            shell = _dict(result.get("success")).get("shellId")
            if shell is None:
                self.starting[call_id] = command
                return
            self.starting.pop(call_id, None)
            self.tasks[str(shell)] = {"task_id": str(shell), "command": command, "state": "running"}
        elif name == "await" and call.get("status") == "completed":
            success = _dict(result.get("success"))
            state = "running" if "stillRunning" in success else "complete" if "complete" in success else None
            task_id = str(args.get("taskId", ""))
            if state is not None and task_id:
                self.tasks.setdefault(task_id, {"task_id": task_id}).update(state=state)

    def last_text(self) -> tuple[str | None, bool]:
        """The end of the last assistant message, and whether it was clipped."""
        text = "".join(fragment_text(raw) for raw in self.fragments)
        if not text:
            return None, False
        return (text, False) if len(text) <= TEXT_CHARS else ("…" + text[-TEXT_CHARS:], True)

    def summary(self, *, complete: bool) -> dict[str, Any]:
        """The summary without `idle_seconds` (computed at each read)."""
        moment = event_time_ms(self.last_id)
        text, clipped = self.last_text()
        tool = _payload(self.last_tool) if self.last_tool is not None else {}
        tasks = list(self.tasks.values()) + [{"command": c, "state": "starting"} for c in self.starting.values()]
        error = self.error
        return {
            "last_event_at": None if moment is None else iso_of_ms(moment),
            "last_text": text,
            "last_text_clipped": clipped or None,
            "last_tool": {"name": tool.get("name"), "status": tool.get("status")} if tool else None,
            "background_tasks": tasks[-MAX_TASKS_SHOWN:] or None,
            "unfinished_background_tasks": sum(1 for task in tasks if task.get("state") != "complete"),
            "summarized": self.summarized,
            "stream_error": None if error is None else {"code": error.get("code"), "message": _short(error)},
            "complete": complete,
            "scanned_events": self.events,
        }


@dataclass(frozen=True)
class _Cached:
    summary: dict[str, Any]
    last_ms: int | None


_caches: weakref.WeakKeyDictionary[Toolkit, OrderedDict[tuple[str, str], _Cached]] = weakref.WeakKeyDictionary()


def _with_idle(kit: Toolkit, cached: _Cached) -> dict[str, Any]:
    idle = None if cached.last_ms is None else max(0, round(kit.now() - cached.last_ms / 1000))
    return cached.summary | {"idle_seconds": idle}


def _remember(kit: Toolkit, key: tuple[str, str], cached: _Cached) -> None:
    cache = _caches.setdefault(kit, OrderedDict())
    cache[key] = cached
    while len(cache) > CACHE_SIZE:
        cache.popitem(last=False)


async def fold_activity(
    kit: Toolkit, agent_id: str, run_id: str, *, terminal: bool, max_seconds: float | None = None
) -> dict[str, Any]:
    """The summary of one run, walking its replay (or from the cache); never raises for a bad stream."""
    key = (agent_id, run_id)
    cache = _caches.get(kit)
    cached = None if cache is None else cache.get(key)
    if cached is not None:
        return _with_idle(kit, cached)
    fold = ActivityFold()
    try:
        outcome = await kit.api.walk_replay(agent_id, run_id, fold, max_seconds=max_seconds, max_bytes=REPLAY_MAX_BYTES)
    except StreamExpiredError:
        return {"activity_error": "STREAM_EXPIRED", "complete": False}
    except StreamError:
        partial = _Cached(fold.summary(complete=False), event_time_ms(fold.last_id))
        return _with_idle(kit, partial) | {"activity_error": "UPSTREAM", "interrupted": True}
    except CursorError as exc:
        return {"activity_error": failures.from_api_error(exc).code, "complete": False}
    complete = outcome.ended_by in ("result", "done", "live", "heartbeat")
    result = _Cached(fold.summary(complete=complete), event_time_ms(fold.last_id))
    if complete and (terminal or fold.finished) and fold.error is None:
        _remember(kit, key, result)
    return _with_idle(kit, result)


async def summarize(kit: Toolkit, agent_id: str, run_id: str, *, terminal: bool) -> dict[str, Any]:
    """The activity summary of one run, as the JSON object placed under `activity` in get_run's answer.

    Never raises for an unreadable stream: it answers `{"activity_error": CODE, ...}` instead.
    Reports MCP progress every 5 s while the replay is walked.
    """

    async def work() -> dict[str, Any]:
        return await fold_activity(kit, agent_id, run_id, terminal=terminal)

    return await with_progress(work, lambda: "reading the run's stream for its activity")
