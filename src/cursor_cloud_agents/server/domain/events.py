"""Compact views of run stream events: text fragments merged, status and result events short.

The stream sends the assistant's text word by word and most of a replay is `interaction_update`
frames that repeat the simplified ones. A view keeps what a model can use: merged text (at most
4,000 characters, carrying the last fragment's id), tool calls by name and status with short args,
status and result without their raw JSON, and stream errors. All of it is agent-produced data and
stays inside named fields.
"""

from __future__ import annotations

from collections import deque
from datetime import UTC, datetime
from typing import Any

from cursor_cloud_agents.api import RawEvent, parse_event_id
from cursor_cloud_agents.api.activity import payload
from cursor_cloud_agents.server.answers import ROW_SEPARATOR_BYTES, dumps, size

MERGE_CHARS = 4_000
"""Merged text events stop growing at this many characters."""
CLIP_CHARS = 500
"""A single fragment (or a result text) longer than this is clipped and flagged."""
DETAIL_CHARS = 200
"""Tool call args and results are shown as JSON clipped to this many characters."""
TEXT_TYPES = frozenset({"assistant", "thinking"})
SKIPPED_TYPES = frozenset({"interaction_update", "heartbeat", "done"})
"""Not shown: duplicates of the simplified frames, keepalives, and `done` (reported as `finished`)."""
FINISH_TYPES = frozenset({"result", "done"})
"""Only these prove the run is over; an `error` event does not."""


def iso_of_ms(ms: int) -> str:
    """An ISO-8601 UTC timestamp (milliseconds) for epoch milliseconds."""
    return datetime.fromtimestamp(ms / 1000, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def event_time_ms(event_id: str | None) -> int | None:
    """The milliseconds of a `<ms>-<seq>` event id (the stream's only liveness clock)."""
    parsed = parse_event_id(event_id)
    return None if parsed is None else parsed[0]


def clip(text: str, limit: int = CLIP_CHARS) -> tuple[str, bool]:
    """`text` cut to `limit` characters, and whether it was cut."""
    return (text, False) if len(text) <= limit else (text[:limit] + "…", True)


def _str(data: dict[str, Any], key: str) -> str | None:
    value = data.get(key)
    return value if isinstance(value, str) else None


def _detail(value: Any) -> str | None:
    if value is None:
        return None
    text = value if isinstance(value, str) else dumps(value)
    return clip(text, DETAIL_CHARS)[0]


def _row_size(view: dict[str, Any]) -> int:
    return size(view) + ROW_SEPARATOR_BYTES


class Entry:
    """One compact event in the making: merged text, or a raw frame rendered when needed."""

    __slots__ = ("clipped", "kind", "last_id", "raw", "text")

    def __init__(self, kind: str, raw: RawEvent, text: str = "", clipped: bool = False) -> None:
        self.kind = kind
        self.raw = raw
        self.last_id = raw.id
        self.text = text
        self.clipped = clipped

    def view(self) -> dict[str, Any]:
        """The compact JSON object of this event."""
        head: dict[str, Any] = {"type": self.kind, "id": self.last_id}
        if self.kind in TEXT_TYPES:
            return head | {"text": self.text, "clipped": self.clipped or None}
        data = payload(self.raw)
        if self.kind == "tool_call":
            return head | _tool_view(data)
        if self.kind == "status":
            return head | {"status": _str(data, "status")}
        if self.kind == "result":
            text, cut = clip(_str(data, "text") or "")
            return head | {"status": _str(data, "status"), "text": text or None, "clipped": cut or None}
        if self.kind == "error":
            return head | {"code": _str(data, "code"), "message": clip(_str(data, "message") or "", 300)[0]}
        return head


def _tool_view(data: dict[str, Any]) -> dict[str, Any]:
    truncated = data.get("truncated")
    return {
        "name": _str(data, "name"),
        "status": _str(data, "status"),
        "call_id": _str(data, "callId"),
        "args": _detail(data.get("args")),
        "result": _detail(data.get("result")),
        "truncated": sorted(truncated) if isinstance(truncated, dict) else None,  # pyright: ignore[reportUnknownArgumentType]  # JSON keys
    }


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


class Tail:
    """A replay consumer keeping the last `n` compact events; other frames are only counted."""

    def __init__(self, n: int) -> None:
        self.entries: deque[Entry] = deque(maxlen=n)
        self.scanned = 0
        self.last_id: str | None = None
        self.finished = False
        self.error: dict[str, Any] | None = None

    def __call__(self, raw: RawEvent, /) -> None:
        self.scanned += 1
        if raw.id is not None and raw.event != "heartbeat":
            self.last_id = raw.id
        kind = raw.event
        if kind in FINISH_TYPES:
            self.finished = True
        if kind in SKIPPED_TYPES:
            return
        if kind in TEXT_TYPES:
            text = fragment_text(raw)
            if self.entries and merge(self.entries[-1], raw, text) is not None:
                return
        entry = new_entry(raw)
        if kind == "error":
            self.error = {key: value for key, value in entry.view().items() if key in ("code", "message")}
        self.entries.append(entry)

    def views(self, max_bytes: int) -> tuple[list[dict[str, Any]], int]:
        """The newest views that fit in `max_bytes`, oldest first, and how many older ones were left out."""
        kept: list[dict[str, Any]] = []
        used = 0
        for entry in reversed(self.entries):
            view = entry.view()
            used += _row_size(view)
            if used > max_bytes:
                break
            kept.append(view)
        return kept[::-1], len(self.entries) - len(kept)


class Excerpt:
    """Compact events read live, up to a count and a byte budget, with an exact resume cursor."""

    def __init__(self, after: str | None, *, max_events: int, max_bytes: int) -> None:
        self.entries: list[Entry] = []
        self.sizes: list[int] = []
        self.max_events = max_events
        self.max_bytes = max_bytes
        self.cursor = after
        self._previous_id = after
        self.run_status: str | None = None
        self.finished = False
        self.full = False
        self.error: dict[str, Any] | None = None

    def _advance(self, event_id: str | None) -> None:
        if event_id is not None and event_id != self.cursor:
            self._previous_id, self.cursor = self.cursor, event_id

    def _stop_before(self, raw: RawEvent) -> bool:
        # Frames can share an id: resuming after a shared id would skip the one not taken.
        self.full = True
        if raw.id is not None and raw.id == self.cursor:
            self.cursor = self._previous_id
        return True

    def take(self, raw: RawEvent) -> bool:
        """Consume one frame; True when the excerpt is over (finished or full)."""
        kind = raw.event
        if raw.id is None and kind == "status":
            self.run_status = _str(payload(raw), "status")  # the leading frame of the connection
            return False
        if kind in FINISH_TYPES:
            self.finished = True
        if kind in SKIPPED_TYPES or (kind in TEXT_TYPES and self._merged(raw)):
            self._advance(raw.id)
            return kind == "done"
        entry = new_entry(raw)
        view = entry.view()
        cost = _row_size(view)
        if len(self.entries) >= self.max_events or sum(self.sizes) + cost > self.max_bytes:
            return self._stop_before(raw)
        self.entries.append(entry)
        self.sizes.append(cost)
        self._advance(raw.id)
        if kind == "status":
            self.run_status = view.get("status") or self.run_status
        if kind == "error":
            self.error = {key: value for key, value in view.items() if key in ("code", "message")}
        return False

    def _merged(self, raw: RawEvent) -> bool:
        if not self.entries:
            return False
        text = fragment_text(raw)
        grown = size(text)  # the fragment's escaped bytes (as a JSON string: its two quotes are a margin)
        if sum(self.sizes) + grown > self.max_bytes or merge(self.entries[-1], raw, text) is None:
            return False
        self.sizes[-1] += grown
        return True

    def views(self) -> list[dict[str, Any]]:
        """The events, oldest first."""
        return [entry.view() for entry in self.entries]
