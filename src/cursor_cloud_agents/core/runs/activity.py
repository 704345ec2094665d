"""The activity summary of a run: what its stream last showed, folded from the whole replay.

The API hides what matters most: `FINISHED` only means the agent ended its turn (a background
command may still run), a RUNNING run's `updatedAt` never moves, an ERROR run carries no cause. The
stream's replay says more: the client's `ActivityFold` folds it in one pass (last assistant message,
last tool call, background commands and their `await` state, summaries, stream errors), and this
module turns the fold into the compact summary. Event ids are millisecond timestamps: the only
liveness clock.

`cursor_get_run` calls `fold_activity` under its MCP progress (`tools/runs.summarize`),
`cursor_supervise` for many rows under its own, the terminal's fleet dashboard without any: this
module loads no MCP SDK. A terminal run's complete summary is cached for the life of the server (or
of the dashboard), `idle_seconds` recomputed on each read.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel

from cursor_cloud_agents.api import (
    ActivityFold,
    CursorClient,
    CursorError,
    Evidence,
    ReplayOutcome,
    StreamError,
    StreamExpiredError,
    parse_event_id,
)
from cursor_cloud_agents.api.times import iso
from cursor_cloud_agents.core import failures
from cursor_cloud_agents.core.cache import Cache
from cursor_cloud_agents.core.failures import Code
from cursor_cloud_agents.core.timing import REPLAY_LISTEN_SECONDS, REPLAY_QUIET_SECONDS, Clock
from cursor_cloud_agents.core.untrusted import clip

REPLAY_MAX_BYTES = 16 * 1024 * 1024
TEXT_CHARS = 500
"""The last assistant text is kept to its last 500 characters."""
COMMAND_CHARS = 120
NAME_CHARS = 80
"""A tool's name and status, and a background task's id, are kept to 80 characters: they come from the
agent's stream, and a summary (a fleet row) must stay bounded whatever the stream holds."""
MAX_TASKS_SHOWN = 10


def event_time_ms(event_id: str | None) -> int | None:
    """The milliseconds of a `<ms>-<seq>` event id (the stream's only liveness clock)."""
    parsed = parse_event_id(event_id)
    return None if parsed is None else parsed[0]


def event_time(event_id: str | None) -> str | None:
    """When a `<ms>-<seq>` event was sent, as the API writes times (milliseconds)."""
    moment = event_time_ms(event_id)
    return None if moment is None else iso(moment / 1000, "milliseconds")


class BackgroundTask(BaseModel):
    """A background command the agent started, and whether its `await` completed."""

    task_id: str | None = None
    command: str | None = None
    state: str


class ToolState(BaseModel):
    """The agent's last tool call."""

    name: str | None = None
    status: str | None = None


class StreamProblem(BaseModel):
    """An `error` frame of the stream: never the end of the run."""

    code: str | None = None
    message: str | None = None


class ActivitySummary(BaseModel):
    """What a run's stream last showed; `complete` only when one of the replay's end signals arrived.

    The fold sets every field without a default (`summary_of`); the others are set after it: the idle time
    at each read, an inferred end, a failed replay."""

    last_event_at: str | None
    last_text: str | None
    last_text_clipped: bool | None
    last_tool: ToolState | None
    background_tasks: list[BackgroundTask] | None
    unfinished_background_tasks: int | None
    summarized: bool | None
    stream_error: StreamProblem | None
    complete: bool
    replay_complete: bool | None = None
    """False when the end of the replay was inferred from a silence after its burst (see `as_of`)."""
    as_of: str | None = None
    """When an inferred summary was taken: what the stream had shown by then."""
    scanned_events: int | None
    evidence: Evidence | None = None
    """What decided the end of the replay: its `result`, a `live` event, the `heartbeat`, or a `silence`
    `silence_seconds` long; None when nothing did (the walk was cut by the deadline or by an error)."""
    silence_seconds: float | None = None
    stale: bool | None = None
    """True when the run is active and its replay, decided, shows no event for longer than the threshold
    (`liveness.is_stale`); set by the caller that knows whether the run is active."""
    idle_seconds: int | None = None
    activity_error: str | None = None
    interrupted: bool | None = None

    @classmethod
    def unread(cls, code: str) -> ActivitySummary:
        """No summary: the replay could not be read, `code` says why."""
        return cls(
            last_event_at=None,
            last_text=None,
            last_text_clipped=None,
            last_tool=None,
            background_tasks=None,
            unfinished_background_tasks=None,
            summarized=None,
            stream_error=None,
            complete=False,
            scanned_events=None,
            activity_error=code,
        )


def _tasks(fold: ActivityFold) -> list[BackgroundTask]:
    return [
        BackgroundTask(
            task_id=_bounded(task.task_id, NAME_CHARS),
            state=task.state,
            command=None if task.command is None else clip(task.command, COMMAND_CHARS)[0],
        )
        for task in fold.background_tasks.values()
    ]


def _last_text(fold: ActivityFold) -> tuple[str | None, bool]:
    """The end of the last assistant message, and whether it was clipped."""
    text = fold.last_assistant_text
    if not text:
        return None, False
    return (text, False) if len(text) <= TEXT_CHARS else ("…" + text[-TEXT_CHARS:], True)


def summary_of(fold: ActivityFold, *, complete: bool) -> ActivitySummary:
    """The summary a fold adds up to, without `idle_seconds` (computed at each read)."""
    text, clipped = _last_text(fold)
    tool = fold.last_tool_call or {}
    tasks = _tasks(fold)
    error = fold.error
    return ActivitySummary(
        last_event_at=event_time(fold.last_event_id),
        last_text=text,
        last_text_clipped=clipped or None,
        last_tool=ToolState(name=_bounded(tool.get("name")), status=_bounded(tool.get("status"))) if tool else None,
        background_tasks=tasks[-MAX_TASKS_SHOWN:] or None,
        unfinished_background_tasks=sum(1 for task in tasks if task.state != "complete"),
        summarized=fold.summarized,
        stream_error=None if error is None else StreamProblem(code=_bounded(error.get("code")), message=_short(error)),
        complete=complete,
        scanned_events=fold.frames,
    )


def _bounded(value: object, limit: int = NAME_CHARS) -> str | None:
    """A text field of the stream, clipped; None when the stream put anything but text there."""
    return clip(value, limit)[0] if isinstance(value, str) else None


def _short(error: dict[str, object]) -> str:
    return clip(str(error.get("message", "")), 200)[0]


@dataclass(frozen=True)
class KnownActivity:
    """A summary and the time of its last event, from which idle time is recomputed at each read."""

    summary: ActivitySummary
    last_ms: int | None

    def at(self, now: float) -> ActivitySummary:
        """The summary with `idle_seconds` as of `now`."""
        idle = None if self.last_ms is None else max(0, round(now - self.last_ms / 1000))
        return self.summary.model_copy(update={"idle_seconds": idle})


ActivityCache = Cache[tuple[str, str], KnownActivity]


@dataclass(frozen=True)
class Replays:
    """Where runs' replays are read (the client), where an ended run's summary is kept (it never changes), and
    the clock idle times are counted on: what every fold of a run's activity needs besides the run."""

    api: CursorClient
    cache: ActivityCache
    clock: Clock


async def fold_activity(
    replays: Replays,
    agent_id: str,
    run_id: str,
    *,
    terminal: bool,
    max_seconds: float | None = None,
    stale_after_seconds: float | None = None,
) -> ActivitySummary:
    """The summary of one run, walking its replay (or from the cache); never raises for a bad stream.

    With `stale_after_seconds`, a replay that goes quiet on an event older than that is listened to for
    `REPLAY_LISTEN_SECONDS` of silence (past a pause inside the burst) before the walk ends on it."""
    api, cache, clock = replays.api, replays.cache, replays.clock
    key = (agent_id, run_id)
    cached = cache.get(key)
    if cached is not None:
        return cached.at(clock.now())
    fold = ActivityFold()
    listen_before_ms = None if stale_after_seconds is None else int((clock.now() - stale_after_seconds) * 1000)
    try:
        outcome = await api.walk_replay(
            agent_id,
            run_id,
            fold,
            max_seconds=max_seconds,
            max_bytes=REPLAY_MAX_BYTES,
            quiet_seconds=REPLAY_QUIET_SECONDS,
            listen_seconds=REPLAY_LISTEN_SECONDS,
            listen_before_ms=listen_before_ms,
        )
    except StreamExpiredError:
        return ActivitySummary.unread(Code.STREAM_EXPIRED)
    except StreamError:
        partial = KnownActivity(summary_of(fold, complete=False), event_time_ms(fold.last_event_id))
        return partial.at(clock.now()).model_copy(update={"activity_error": Code.UPSTREAM, "interrupted": True})
    except CursorError as exc:
        return ActivitySummary.unread(failures.from_api_error(exc).code)
    # A closed connection proves nothing (it may follow an `error` frame): only the four signals do.
    complete = outcome.ended_by in ("result", "done", "live", "heartbeat")
    known = KnownActivity(_decided(summary_of(fold, complete=complete), outcome), event_time_ms(fold.last_event_id))
    if complete and (terminal or fold.finished) and fold.error is None:
        cache.put(key, known)
    summary = known.at(clock.now())
    if outcome.evidence == "silence":
        summary = summary.model_copy(update={"replay_complete": False, "as_of": iso(clock.now(), "milliseconds")})
    return summary


def _decided(summary: ActivitySummary, outcome: ReplayOutcome) -> ActivitySummary:
    """The summary with what decided the end of its replay."""
    silence = None if outcome.silence_seconds is None else round(outcome.silence_seconds, 1)
    return summary.model_copy(update={"evidence": outcome.evidence, "silence_seconds": silence})
