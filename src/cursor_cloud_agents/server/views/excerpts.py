"""Compact views of run stream events: text fragments merged, status and result events short.

The stream sends the assistant's text word by word and most of a replay is `interaction_update`
frames that repeat the simplified ones. A view keeps what a model can use: merged text (at most
4,000 characters, carrying the last fragment's id), tool calls by name and status with short args,
status and result without their raw JSON, and stream errors. All of it is agent-produced data and
stays inside named fields.

`Entry.view()` builds each row as its typed view (`server/views/run_events.py`); `Tail` and `Excerpt`
track the last event id, the run's end and stream errors as every replay consumer does (`StreamMarks`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from cursor_cloud_agents.api import RawEvent, StreamMarks
from cursor_cloud_agents.api.activity import payload
from cursor_cloud_agents.core import CLIP_CHARS, clip
from cursor_cloud_agents.server.pipeline.answers import ROW_SEPARATOR_BYTES, dumps, size
from cursor_cloud_agents.server.views.run_events import (
    ErrorEventView,
    EventView,
    ResultEventView,
    StatusEventView,
    StreamErrorView,
    TextEventView,
    ToolCallView,
)

MERGE_CHARS = 4_000
"""Merged text events stop growing at this many characters."""
DETAIL_CHARS = 200
"""Tool call args and results are shown as JSON clipped to this many characters."""
ERROR_CHARS = 300
"""A stream error's message is clipped to this many characters."""
TEXT_TYPES = frozenset({"assistant", "thinking"})
SKIPPED_TYPES = frozenset({"interaction_update", "heartbeat", "done"})
"""Not shown: duplicates of the simplified frames, keepalives, and `done` (reported as `finished`)."""
COPIED_UPDATES = frozenset({"text-delta", "thinking-delta", "tool-call-started", "tool-call-completed"})
"""`interaction_update` types the API also sends as a simplified frame, perhaps with the same id (docs/api-contract.md
§3.11, M)."""
GROWTH_BYTES = 3
"""What the cleaning may add for one `<` (written `&lt;`) or one `](` (an image rewritten, a link unlinked)."""
Measure = Callable[[Any], int]
"""The bytes a row or a text takes in the answer, once prepared as it will be sent (`size` when unprepared)."""


def _str(data: dict[str, Any], key: str) -> str | None:
    value = data.get(key)
    return value if isinstance(value, str) else None


def _detail(value: Any) -> str | None:
    if value is None:
        return None
    text = value if isinstance(value, str) else dumps(value)
    return clip(text, DETAIL_CHARS)[0]


def stream_error(data: dict[str, Any]) -> StreamErrorView:
    """The code and (clipped) message of an `error` frame's object."""
    return StreamErrorView(code=_str(data, "code"), message=clip(_str(data, "message") or "", ERROR_CHARS)[0])


def stream_error_of(marks: StreamMarks) -> StreamErrorView | None:
    """The last stream error a replay consumer saw, as answers show it."""
    return None if marks.error is None else stream_error(marks.error)


class Entry:
    """One compact event in the making: merged text, or a raw frame rendered when needed."""

    __slots__ = ("clipped", "kind", "last_id", "raw", "text")

    def __init__(self, kind: str, raw: RawEvent, text: str = "", clipped: bool = False) -> None:
        self.kind = kind
        self.raw = raw
        self.last_id = raw.id
        self.text = text
        self.clipped = clipped

    def view(self) -> EventView:
        """The compact view of this event (the one place a row is built from its frames)."""
        kind, event_id = self.kind, self.last_id
        if kind in TEXT_TYPES:
            return TextEventView(type=kind, id=event_id, text=self.text, clipped=self.clipped or None)
        data = payload(self.raw)
        if kind == "tool_call":
            return _tool_view(event_id, data)
        if kind == "status":
            return StatusEventView(type=kind, id=event_id, status=_str(data, "status"))
        if kind == "result":
            text, cut = clip(_str(data, "text") or "")
            status = _str(data, "status")
            return ResultEventView(type=kind, id=event_id, status=status, text=text or None, clipped=cut or None)
        if kind == "error":
            problem = stream_error(data)
            return ErrorEventView(type=kind, id=event_id, code=problem.code, message=problem.message)
        return EventView(type=kind, id=event_id)


def _tool_view(event_id: str | None, data: dict[str, Any]) -> ToolCallView:
    truncated = data.get("truncated")
    return ToolCallView(
        type="tool_call",
        id=event_id,
        name=_str(data, "name"),
        status=_str(data, "status"),
        call_id=_str(data, "callId"),
        args=_detail(data.get("args")),
        result=_detail(data.get("result")),
        truncated=sorted(truncated) if isinstance(truncated, dict) else None,  # pyright: ignore[reportUnknownArgumentType]  # JSON keys
    )


def growth(text: str) -> int:
    """The most that cleaning `text` again, once merged with more text, can add to it: a `<` the merge makes the
    start of a tag, a `](` the merge makes part of an image."""
    return GROWTH_BYTES * (text.count("<") + text.count("]("))


def copy_may_follow(raw: RawEvent) -> bool:
    """Whether `raw` is an `interaction_update` the API also sends as a simplified frame, perhaps with its id."""
    return raw.event == "interaction_update" and _str(payload(raw), "type") in COPIED_UPDATES


def fragment_text(raw: RawEvent) -> str:
    """The text of an `assistant`/`thinking` fragment ('' when unusable)."""
    return _str(payload(raw), "text") or ""


def merge(last: Entry | None, raw: RawEvent, text: str) -> Entry | None:
    """Append a text fragment to `last` when it continues it; None when a new event must start."""
    if last is None or last.kind != raw.event or last.clipped or len(text) > CLIP_CHARS:
        return None
    if len(last.text) + len(text) > MERGE_CHARS:
        return None
    last.text += text
    last.last_id = raw.id
    return last


def new_entry(raw: RawEvent) -> Entry:
    """A new entry for a shown frame (a text fragment is clipped when longer than 500 characters)."""
    if raw.event in TEXT_TYPES:
        text, cut = clip(fragment_text(raw))
        return Entry(raw.event, raw, text, cut)
    return Entry(raw.event, raw)


class Tail(StreamMarks):
    """A replay consumer keeping the last `n` compact events; other frames are only counted."""

    def __init__(self, n: int) -> None:
        super().__init__()
        self.entries: deque[Entry] = deque(maxlen=n)
        self.scanned = 0
        self._last: RawEvent | None = None
        self._id_before_last: str | None = None

    def __call__(self, raw: RawEvent, /) -> None:
        self.scanned += 1
        if raw.id is not None and raw.id != self.last_event_id and raw.event != "heartbeat":
            self._id_before_last = self.last_event_id
        self.mark_event(raw)
        self._last = raw
        kind = raw.event
        if kind in SKIPPED_TYPES:
            return
        if kind in TEXT_TYPES:
            text = fragment_text(raw)
            if self.entries and merge(self.entries[-1], raw, text) is not None:
                return
        self.entries.append(new_entry(raw))

    def resume_id(self) -> str | None:
        """The cursor to read on from: the last id, or the one before it when the walk stopped right after an
        update whose copy, sharing its id, may not have come yet (resuming after it would skip the copy,
        docs/api-contract.md §3.11)."""
        last = self._last
        if last is not None and not self.finished and last.id == self.last_event_id and copy_may_follow(last):
            return self._id_before_last
        return self.last_event_id

    def views(self, max_bytes: int, measure: Measure = size) -> tuple[list[EventView], int]:
        """The newest views that fit in `max_bytes`, oldest first, and how many older ones were left out."""
        kept: list[EventView] = []
        used = 0
        for entry in reversed(self.entries):
            view = entry.view()
            used += measure(view) + ROW_SEPARATOR_BYTES
            if used > max_bytes:
                break
            kept.append(view)
        return kept[::-1], len(self.entries) - len(kept)


class Excerpt(StreamMarks):
    """Compact events read live, up to a count and a byte budget, with an exact resume cursor.

    Its `last_event_id` is the cursor to resume after: the id of the last frame taken (a frame left
    for the next excerpt is not). Rows are measured as they will be sent (`measure`): the cleaning can
    make a text longer (`<` becomes `&lt;`), so its raw size would let an excerpt overflow the cap.
    """

    def __init__(self, after: str | None, *, max_events: int, max_bytes: int, measure: Measure = size) -> None:
        super().__init__(after)
        self.entries: list[Entry] = []
        self.sizes: list[int] = []
        self._views: list[EventView | None] = []
        """Each entry's view as measured; None once merged text made it grow (built again when read)."""
        self._resumes: list[str | None] = []
        """For each entry, the cursor that reads it again: where a shortened excerpt resumes."""
        self.max_events = max_events
        self.max_bytes = max_bytes
        self.measure = measure
        self._previous_id = after
        self.run_status: str | None = None
        self.full = False
        self._copy_may_follow = False
        """The last frame read is an `interaction_update` whose simplified copy, sharing its id, may come next."""

    def _advance(self, event_id: str | None) -> None:
        if event_id is not None and event_id != self.last_event_id:
            self._previous_id, self.last_event_id = self.last_event_id, event_id

    def _resume_before(self, raw: RawEvent) -> str | None:
        # Frames can share an id: resuming after a shared id would skip the one not taken.
        return self._previous_id if raw.id is not None and raw.id == self.last_event_id else self.last_event_id

    def _stop_before(self, raw: RawEvent) -> bool:
        self.full = True
        self.last_event_id = self._resume_before(raw)
        return True

    def settle(self) -> None:
        """Reading stopped (time up, connection cut): when the last frame read may still have a copy with its id
        to come, the cursor goes before that id, since resuming after it would skip the copy (docs/api-contract.md
        §3.11)."""
        if self._copy_may_follow and not self.full:
            self.last_event_id = self._previous_id
        self._copy_may_follow = False

    def keep(self, count: int) -> None:
        """Keep the first `count` entries only: the others are left for the next excerpt, which reads them again."""
        if count >= len(self.entries):
            return
        self.full = True
        self.last_event_id = self._resumes[count]
        del self.entries[count:], self.sizes[count:], self._views[count:], self._resumes[count:]

    def take(self, raw: RawEvent) -> bool:
        """Consume one frame; True when the excerpt is over (finished or full)."""
        kind = raw.event
        if raw.id is None and kind == "status":
            self.run_status = _str(payload(raw), "status")  # the leading frame of the connection
            return False
        if kind != "error":
            self.mark(kind, raw)  # a `result` proves the end even when it is left for the next excerpt
        self._copy_may_follow = copy_may_follow(raw)
        if kind in SKIPPED_TYPES or (kind in TEXT_TYPES and self._merged(raw)):
            self._advance(raw.id)
            return kind == "done"
        entry = new_entry(raw)
        view = entry.view()
        cost = self.measure(view) + growth(entry.text) + ROW_SEPARATOR_BYTES  # its bytes as a row of the array
        if len(self.entries) >= self.max_events or sum(self.sizes) + cost > self.max_bytes:
            return self._stop_before(raw)
        self.entries.append(entry)
        self.sizes.append(cost)
        self._views.append(view)
        self._resumes.append(self._resume_before(raw))
        self._advance(raw.id)
        if isinstance(view, StatusEventView):
            self.run_status = view.status or self.run_status
        elif kind == "error":
            self.mark(kind, raw)  # a stream error is reported with its event: only once taken
        return False

    def _merged(self, raw: RawEvent) -> bool:
        if not self.entries:
            return False
        last, text = self.entries[-1], fragment_text(raw)
        # The fragment's bytes as sent (as a JSON string: its two quotes are a margin), and what cleaning the
        # merged text may add beyond that: a tag or an image whose syntax spans two fragments.
        grown = self.measure(text) + growth(last.text[-1:] + text)
        if sum(self.sizes) + grown > self.max_bytes or merge(last, raw, text) is None:
            return False
        self.sizes[-1] += grown
        self._views[-1] = None
        return True

    def views(self) -> list[EventView]:
        """The events, oldest first."""
        pairs = zip(self.entries, self._views, strict=True)
        return [entry.view() if view is None else view for entry, view in pairs]
