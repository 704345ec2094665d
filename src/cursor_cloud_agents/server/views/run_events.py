"""Run event answers: compact event rows (one class per event type), an excerpt of the stream, a replay's tail.

The rows are built from the raw frames in one place, `Entry.view()` of `server/views/excerpts.py`,
which also measures them while it reads; the two answers are built by `cursor_read_run_events`.
"""

from __future__ import annotations

from pydantic import SerializeAsAny

from cursor_cloud_agents.server.views.view import View


class EventView(View):
    """A compact event: its type and the id of its last frame (all an event of another type shows)."""

    type: str
    id: str | None


class TextEventView(EventView):
    """`assistant` or `thinking` text, fragments merged; `clipped` when a fragment was cut."""

    text: str
    clipped: bool | None


class ToolCallView(EventView):
    """A tool call by name and status; args and result as clipped JSON."""

    name: str | None
    status: str | None
    call_id: str | None
    args: str | None
    result: str | None
    truncated: list[str] | None
    """The keys the API truncated in this call."""


class StatusEventView(EventView):
    """The run's status, as the stream announced it."""

    status: str | None


class ResultEventView(EventView):
    """The run's end: its status and result text (clipped)."""

    status: str | None
    text: str | None
    clipped: bool | None


class StreamErrorView(View):
    """An `error` frame of the stream: never the end of the run."""

    code: str | None
    message: str


class ErrorEventView(EventView):
    """An `error` frame as an event row."""

    code: str | None
    message: str


EventRows = list[SerializeAsAny[EventView]]
"""Rows of any event type, each dumped with its own fields."""


class _EventsRead(View):
    # What both reads answer first: the rows, and the id of the last frame they cover.

    events: EventRows
    last_event_id: str | None


class ExcerptView(_EventsRead):
    """What arrived on the stream in one read; resume after its `last_event_id`."""

    run_status: str | None
    finished: bool
    """Only a `result` or `done` frame proves it."""
    more: bool | None
    """The excerpt filled up: read on from `last_event_id`."""
    stream_error: StreamErrorView | None
    interrupted: bool | None


class TailView(_EventsRead):
    """The last events of a whole replay, and how the walk over it ended."""

    last_event_at: str | None
    scanned_events: int
    complete: bool
    """One of the replay's end signals arrived (a closed connection or a timeout proves nothing)."""
    ended_by: str | None
    finished: bool
    left_out: int | None
    """Events of the tail left out for room, oldest first."""
    stream_error: StreamErrorView | None
    interrupted: bool | None
