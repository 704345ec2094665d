"""A fast, bounded SSE frame decoder over raw bytes, for walking whole replays.

httpx2's `EventSource` decodes line by line in Python, which caps a 16 MiB replay walk at about
25 MB/s here. This decoder splits on the blank line between frames with bytes operations (C speed)
and only then looks at the few lines of each frame. It keeps the semantics of httpx2's decoder
(tests compare both at every chunk split point): CR, LF and CRLF line endings; `:` comments;
`data` lines joined with LF; an `id` containing NUL ignored; the last id carried onto frames without
one; a frame dispatched once any field was seen. A pending frame larger than `max_event_size`
bytes (field names and line ends included) is refused, so memory stays bounded.

For whole-replay walks, `feed_blocks` goes one step further: it returns the complete frames as raw
byte blocks plus the region they came from, so a walker can find its end signals and ids with C-speed
searches over the region and parse only the frames its consumer keeps (`parse_block`).

Pure: no I/O, no httpx2.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cursor_cloud_agents.api.events import RawEvent

_BOM = b"\xef\xbb\xbf"
_SIGNALS = tuple(
    (kind, b"event:" + sep + kind.encode()) for kind in ("result", "done", "heartbeat") for sep in (b" ", b"")
)
_TIMED_ID = re.compile(rb"^id: ?([0-9]{1,15})-[0-9]{1,9}$", re.MULTILINE)
_EVENT_LINE = re.compile(rb"^event: ?([^\n]*)$", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class FrameBatch:
    """Complete frames from one chunk: `region` is their bytes, `blocks` the frames split at blank lines."""

    region: bytes
    blocks: list[bytes]

    def signal(self) -> tuple[int, str] | None:
        """The first `result`/`done`/`heartbeat` frame: (its block index, its type), or None."""
        # Literal searches (memmem) instead of a multiline regex: 10x faster on a 64 KiB region.
        first: tuple[int, str] | None = None
        for kind, needle in _SIGNALS:
            position = _find_line(self.region, needle, first[0] if first else len(self.region))
            if position >= 0 and (first is None or position < first[0]):
                first = (position, kind)
        if first is None:
            return None
        return self.region.count(b"\n\n", 0, first[0]), first[1]

    def ends_run(self) -> bool:
        """Whether a `result` or `done` frame is among these frames (the run is over)."""
        stop = len(self.region)
        return any(_find_line(self.region, needle, stop) >= 0 for kind, needle in _SIGNALS if kind != "heartbeat")

    def first_id_after(self, moment_ms: int, *, end: int) -> int | None:
        """Block index of the first frame before block `end` whose `<ms>-<seq>` id is newer than `moment_ms`.

        Ids only grow, so the last id is checked first and the scan runs only on the batch that goes live.
        """
        stop = self._offset_of_block(end)
        last = _last_timed_id(self.region, stop)
        if last is None or last <= moment_ms:
            return None
        for match in _TIMED_ID.finditer(self.region, 0, stop):
            if int(match.group(1)) > moment_ms:
                return self.region.count(b"\n\n", 0, match.start())
        return None  # pragma: no cover -- the last id was newer, so one match is

    def last_id(self, *, end: int) -> str | None:
        """The last `id` field in the first `end` blocks (NUL ids ignored), or None."""
        stop = self._offset_of_block(end)
        position = stop
        while True:
            start = self.region.rfind(b"id:", 0, position)
            if start < 0:
                return None
            if start == 0 or self.region[start - 1] == 0x0A:
                line_end = self.region.find(b"\n", start)
                line = self.region[start + 3 : line_end if line_end >= 0 else len(self.region)]
                if b"\0" not in line:
                    return line.removeprefix(b" ").decode("utf-8", "replace")
            position = start

    def _offset_of_block(self, end: int) -> int:
        if end >= len(self.blocks):
            return len(self.region)
        return sum(len(block) + 2 for block in self.blocks[:end])

    def count(self, *, end: int) -> int:
        """Frames among the first `end` blocks (empty and comment-only blocks left out)."""
        blocks = self.blocks if end >= len(self.blocks) else self.blocks[:end]
        if b"\n:" not in self.region and not self.region.startswith(b":"):
            return len(blocks) - blocks.count(b"")  # no comment line at all: the common case
        comments = sum(1 for block in blocks if block[:1] == b":" and b"\n" not in block)
        return len(blocks) - blocks.count(b"") - comments


def _find_line(region: bytes, line: bytes, stop: int) -> int:
    """Offset of the first whole line equal to `line` starting before `stop`, or -1."""
    position = region.find(line, 0, stop)
    while position >= 0:
        end = position + len(line)
        if (position == 0 or region[position - 1] == 0x0A) and (end == len(region) or region[end] == 0x0A):
            return position
        position = region.find(line, position + 1, stop)
    return -1


def _last_timed_id(region: bytes, stop: int) -> int | None:
    position = stop
    while True:
        start = region.rfind(b"id:", 0, position)
        if start < 0:
            return None
        if start == 0 or region[start - 1] == 0x0A:
            match = _TIMED_ID.match(region, start)
            if match is not None:
                return int(match.group(1))
        position = start


def block_type(block: bytes) -> str:
    """The `event` field of a raw frame ("message" when absent)."""
    match = _EVENT_LINE.search(block)
    return match.group(1).decode("utf-8", "replace") if match else "message"


def parse_block(block: bytes, carried_id: str | None = None) -> RawEvent | None:
    """A raw frame as an event; None for a frame with no field. Without an `id`, it gets `carried_id`."""
    return _parse(block.decode("utf-8", "replace"), carried_id or "")[0]


def _parse(text: str, last_id: str) -> tuple[RawEvent | None, str]:
    event = ""
    data: list[str] = []
    pending = False
    for line in text.split("\n"):
        if not line or line[0] == ":":
            continue
        name, _, value = line.partition(":")
        if value[:1] == " ":
            value = value[1:]
        if name == "data":
            data.append(value)
            pending = True
        elif name == "event":
            event = value
            pending = True
        elif name == "id":
            if "\0" not in value:
                last_id = value
                pending = True
        elif name == "retry" and value.isdigit():
            pending = True
    if not pending:
        return None, last_id
    return RawEvent(event or "message", "\n".join(data), last_id or None), last_id


class FrameTooLargeError(Exception):
    """A frame went past the size cap."""


class FrameDecoder:
    """Feed raw byte chunks, get the complete frames they finish."""

    def __init__(self, max_event_size: int) -> None:
        self._max = max_event_size
        self._parts: list[bytes] = []
        self._pending = 0
        self._trailing_cr = False
        self._started = False
        self._head = b""
        self.last_event_id = ""

    def feed(self, chunk: bytes) -> list[RawEvent]:
        """Decode one chunk; returns the frames it completed (often several, often none)."""
        batch = self.feed_blocks(chunk)
        if batch is None:
            return []
        frames: list[RawEvent] = []
        for block in batch.blocks:
            if block:
                frame, self.last_event_id = _parse(block.decode("utf-8", "replace"), self.last_event_id)
                if frame is not None:
                    frames.append(frame)
        return frames

    def feed_blocks(self, chunk: bytes) -> FrameBatch | None:
        """Decode one chunk into raw frame blocks, without parsing them; None when no frame completed.

        Raises:
            FrameTooLargeError: a frame (complete or pending) went past the size cap.
        """
        chunk = self._normalise(chunk)
        if not chunk:
            return None
        tail = self._parts[-1][-1:] if self._parts else b""
        if b"\n\n" not in chunk and not (tail == b"\n" and chunk[:1] == b"\n"):
            self._keep(chunk)
            return None
        data = b"".join(self._parts) + chunk if self._parts else chunk
        self._parts = []
        self._pending = 0
        cut = data.rfind(b"\n\n")
        region, rest = data[:cut], data[cut + 2 :]
        if rest:
            self._keep(rest)
        blocks = region.split(b"\n\n")
        if len(region) > self._max and max(map(len, blocks)) > self._max:
            raise FrameTooLargeError(f"Server-sent event exceeded the {self._max} byte limit.")
        return FrameBatch(region=region, blocks=blocks)

    def flush(self) -> list[RawEvent]:
        """At the end of the stream: a frame not closed by a blank line is dropped, as the SSE spec says."""
        self._parts = []
        self._pending = 0
        return []

    def _normalise(self, chunk: bytes) -> bytes:
        if not self._started:
            chunk = self._head + chunk
            if len(chunk) < len(_BOM) and _BOM.startswith(chunk):
                self._head = chunk  # maybe a BOM split across chunks: decide when it is whole
                return b""
            self._started = True
            self._head = b""
            if chunk.startswith(_BOM):
                chunk = chunk[len(_BOM) :]
        if self._trailing_cr:
            chunk = b"\r" + chunk
            self._trailing_cr = False
        if b"\r" in chunk:
            if chunk.endswith(b"\r"):
                # A CR at a chunk's end may be the first half of a CRLF: decide with the next chunk.
                self._trailing_cr = True
                chunk = chunk[:-1]
            chunk = chunk.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        return chunk

    def _keep(self, piece: bytes) -> None:
        self._parts.append(piece)
        self._pending += len(piece)
        if self._pending > self._max:
            raise FrameTooLargeError(f"Server-sent event exceeded the {self._max} byte limit.")
