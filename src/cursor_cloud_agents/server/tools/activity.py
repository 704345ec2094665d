"""The activity summary of a run: what its stream last showed, folded from the whole replay.

The API hides what matters most: `FINISHED` only means the agent ended its turn (a background
command may still run), a RUNNING run's `updatedAt` never moves, an ERROR run carries no cause. The
stream's replay says more: the client's `ActivityFold` folds it in one pass (last assistant message,
last tool call, background commands and their `await` state, summaries, stream errors), and this
module turns the fold into the compact summary. Event ids are millisecond timestamps: the only
liveness clock.

`cursor_get_run` calls `summarize` (the signature is the contract between the two modules);
`cursor_supervise` calls `fold_activity` for many rows under its own progress. A terminal run's
complete summary is cached for the life of the toolkit, `idle_seconds` recomputed on each read.
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from cursor_cloud_agents.api import ActivityFold, CursorError, StreamError, StreamExpiredError
from cursor_cloud_agents.server import failures
from cursor_cloud_agents.server.toolkit import Toolkit
from cursor_cloud_agents.server.tools.eventviews import clip, event_time_ms, iso_of_ms
from cursor_cloud_agents.server.tools.waits import with_progress

REPLAY_MAX_BYTES = 16 * 1024 * 1024
TEXT_CHARS = 500
"""The last assistant text is kept to its last 500 characters."""
COMMAND_CHARS = 120
MAX_TASKS_SHOWN = 10
CACHE_SIZE = 512


def _tasks_view(fold: ActivityFold) -> list[dict[str, Any]]:
    return [
        {"task_id": task.task_id, "command": None if task.command is None else clip(task.command, COMMAND_CHARS)[0],
         "state": task.state}
        for task in fold.background_tasks.values()
    ]  # fmt: skip


def _last_text(fold: ActivityFold) -> tuple[str | None, bool]:
    """The end of the last assistant message, and whether it was clipped."""
    text = fold.last_assistant_text
    if not text:
        return None, False
    return (text, False) if len(text) <= TEXT_CHARS else ("…" + text[-TEXT_CHARS:], True)


def summary_of(fold: ActivityFold, *, complete: bool) -> dict[str, Any]:
    """The summary a fold adds up to, without `idle_seconds` (computed at each read)."""
    moment = event_time_ms(fold.last_event_id)
    text, clipped = _last_text(fold)
    tool = fold.last_tool_call or {}
    tasks = _tasks_view(fold)
    error = fold.error
    return {
        "last_event_at": None if moment is None else iso_of_ms(moment),
        "last_text": text,
        "last_text_clipped": clipped or None,
        "last_tool": {"name": tool.get("name"), "status": tool.get("status")} if tool else None,
        "background_tasks": tasks[-MAX_TASKS_SHOWN:] or None,
        "unfinished_background_tasks": sum(1 for task in tasks if task["state"] != "complete"),
        "summarized": fold.summarized,
        "stream_error": None if error is None else {"code": error.get("code"), "message": _short(error)},
        "complete": complete,
        "scanned_events": fold.frames,
    }


def _short(error: dict[str, Any]) -> str:
    return clip(str(error.get("message", "")), 200)[0]


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
        partial = _Cached(summary_of(fold, complete=False), event_time_ms(fold.last_event_id))
        return _with_idle(kit, partial) | {"activity_error": "UPSTREAM", "interrupted": True}
    except CursorError as exc:
        return {"activity_error": failures.from_api_error(exc).code, "complete": False}
    # A closed connection proves nothing (it may follow an `error` frame): only the four signals do.
    complete = outcome.ended_by in ("result", "done", "live", "heartbeat")
    result = _Cached(summary_of(fold, complete=complete), event_time_ms(fold.last_event_id))
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
