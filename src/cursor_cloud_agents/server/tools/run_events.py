"""`cursor_read_run_events`: an excerpt of a run's stream, or the last events of its whole replay.

Excerpt: read for `max_wait_seconds` (20 by default, 50 at most, always inside the call's budget),
resuming after `after_event_id`; the cursor stays put when nothing arrives. An `error` event is a
stream error, never the end of the run (`finished` comes only from `result` or `done`); a cut
connection returns what arrived with `interrupted`. Tail: walk the whole replay (up to 16 MiB,
never kept) and answer its last N events, with `last_event_at` and `scanned_events`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

import anyio
from pydantic import Field

from cursor_cloud_agents.api import TERMINAL_RUN_STATUSES, CursorClient, StreamError
from cursor_cloud_agents.core import Pacer, event_time, with_progress
from cursor_cloud_agents.core.call import Call
from cursor_cloud_agents.core.timing import EXCERPT_SECONDS, MAX_WAIT_SECONDS, STREAM_READ_MARGIN_SECONDS, TAIL_SECONDS
from cursor_cloud_agents.server.pipeline.answers import Answers, size
from cursor_cloud_agents.server.pipeline.arguments import Clamped
from cursor_cloud_agents.server.pipeline.declaration import Catalogue, TaskRule
from cursor_cloud_agents.server.pipeline.params import AgentId, EventId, RunId
from cursor_cloud_agents.server.pipeline.state import ServerState
from cursor_cloud_agents.server.pipeline.toolcall import ToolCall
from cursor_cloud_agents.server.views.excerpts import Excerpt, Measure, Tail, stream_error_of
from cursor_cloud_agents.server.views.run_events import EventView, ExcerptView, TailView

MAX_EVENTS = 100
REPLAY_MAX_BYTES = 16 * 1024 * 1024
REPLAY_ENDS = ("result", "done", "live", "heartbeat")
"""The signals that prove a replay is over (a closed connection, a timeout or the byte cap do not)."""
EVENTS_HEAD_BYTES = 1_500
"""Room kept under the result cap for the fields around the events."""
AfterEventId = Annotated[
    EventId | None, Field(max_length=64, description="last_event_id of a previous call: resume after it.")
]
WaitSeconds = Annotated[
    int | None,
    Field(
        ge=1,
        le=MAX_WAIT_SECONDS,
        description=f"Seconds to read, 1-{MAX_WAIT_SECONDS} (default {EXCERPT_SECONDS}; {TAIL_SECONDS} with tail).",
    ),
    Clamped(),
]
TailCount = Annotated[
    int | None, Field(ge=1, le=100, description="The last N (1-100) events of the whole replay instead.")
]


catalogue = Catalogue()


def read_budget(arguments: Mapping[str, Any]) -> float:
    """Seconds for one call: the read (or the walk to the tail) and closing it."""
    wanted = arguments.get("max_wait_seconds")
    default = TAIL_SECONDS if arguments.get("tail") else EXCERPT_SECONDS
    return float(wanted if isinstance(wanted, int) else default) + STREAM_READ_MARGIN_SECONDS


def reads_live(arguments: Mapping[str, Any]) -> bool:
    """An excerpt waits on the live stream (a declaring client gets a task); a walk to the tail does not."""
    return arguments.get("tail") is None


def nothing_yet(answer: ExcerptView | TailView) -> bool:
    """The excerpt read nothing and the run goes on: ask again. An ended run read past its last event answers
    nothing at once, and will never answer more."""
    if not isinstance(answer, ExcerptView):
        return False  # a tail is never a task (`reads_live`)
    ended = answer.run_status in TERMINAL_RUN_STATUSES
    return not answer.events and not answer.finished and not answer.interrupted and not ended


def sent_size(answers: Answers) -> Measure:
    """The bytes of a row as the answer will carry it: cleaned and masked (a cleaned text can be longer)."""
    return lambda data: size(answers.prepare(data))


async def read_excerpt(
    call: Call, api: CursorClient, answers: Answers, agent_id: str, run_id: str, after: str | None, wait: float
) -> ExcerptView:
    """Events arriving for `wait` seconds after `after`, merged and compact, under the result cap."""
    room = answers.max_bytes - EVENTS_HEAD_BYTES
    excerpt = Excerpt(after, max_events=MAX_EVENTS, max_bytes=room, measure=sent_size(answers))
    time = call.time
    until, pacer = time.now() + wait, Pacer(call)
    interrupted = False

    async def read() -> None:
        nonlocal interrupted
        with anyio.move_on_after(time.left(wait)):
            async with api.stream_run(agent_id, run_id, last_event_id=after) as stream:
                try:
                    async for raw in stream.raw_events():
                        if excerpt.take(raw) or time.now() >= until:
                            return
                        await pacer.maybe(f"read {len(excerpt.entries)} events")
                except StreamError:
                    interrupted = True

    await with_progress(call, read, lambda: f"read {len(excerpt.entries)} events, waiting")
    excerpt.settle()
    return fit_excerpt(answers, excerpt, interrupted=interrupted)


def fit_excerpt(answers: Answers, excerpt: Excerpt, *, interrupted: bool) -> ExcerptView:
    """The excerpt's answer, its last rows left for the next read (the cursor before them) when, as sent, they
    would not fit under the cap: rows were measured one by one, and merged texts only by a bound. The first row
    always stays (an excerpt must move on), which the row measure keeps far under the cap."""

    def answer(events: list[EventView]) -> ExcerptView:
        return ExcerptView(
            events=events,
            last_event_id=excerpt.last_event_id,
            run_status=excerpt.run_status,
            finished=excerpt.finished,
            more=excerpt.full or None,
            stream_error=stream_error_of(excerpt),
            interrupted=interrupted or None,
        )

    views = excerpt.views()
    fits = max(1, answers.rows_that_fit(views, answers.room(answer([]).model_copy(update={"more": True}))))
    excerpt.keep(fits)
    return answer(views[:fits])


async def read_tail(
    call: Call, api: CursorClient, answers: Answers, agent_id: str, run_id: str, n: int, wait: float
) -> TailView:
    """The last `n` events of the whole replay, walked without being kept, under the result cap."""
    tail = Tail(n)
    interrupted = False
    time = call.time

    async def walk() -> str | None:
        nonlocal interrupted
        try:
            outcome = await api.walk_replay(
                agent_id, run_id, tail, max_seconds=time.left(wait), max_bytes=REPLAY_MAX_BYTES
            )
        except StreamError:
            interrupted = True
            return None
        return outcome.ended_by

    ended_by = await with_progress(call, walk, lambda: f"walked {tail.scanned} events")
    views, left_out = tail.views(answers.max_bytes - EVENTS_HEAD_BYTES, sent_size(answers))
    return TailView(
        events=views,
        last_event_id=tail.resume_id(),
        last_event_at=event_time(tail.last_event_id),
        scanned_events=tail.scanned,
        complete=ended_by in REPLAY_ENDS,
        ended_by=ended_by,
        finished=tail.finished,
        left_out=left_out or None,
        stream_error=stream_error_of(tail),
        interrupted=interrupted or None,
    )


@catalogue.tool(title="Read run events", budget=read_budget, task=TaskRule(waits=reads_live, still_waiting=nothing_yet))
async def cursor_read_run_events(
    state: ServerState,
    call: ToolCall,
    agent_id: AgentId,
    run_id: RunId,
    after_event_id: AfterEventId = None,
    max_wait_seconds: WaitSeconds = None,
    tail: TailCount = None,
) -> ExcerptView | TailView:
    """Read a run's stream for max_wait_seconds, text merged; resume with last_event_id.

    `finished` only from result/done; an error event is stream_error.
    """
    if tail is not None:
        wait = max_wait_seconds or TAIL_SECONDS
        return await read_tail(call, state.api, state.answers, agent_id, run_id, tail, wait)
    wait = max_wait_seconds or EXCERPT_SECONDS
    return await read_excerpt(call, state.api, state.answers, agent_id, run_id, after_event_id, wait)
