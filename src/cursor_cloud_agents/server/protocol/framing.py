"""The request lines in a byte stream: CR, LF and CRLF each end a line, and no line is held past a cap.

JSON-RPC over stdio is one message per line. The SDK reads stdin through a text wrapper in universal
newlines mode, so a bare CR separates messages for it; a raw CR or LF can never be inside a JSON
message (JSON escapes both), so splitting on either never cuts a message. A CRLF reads as a line and an
empty one, and empty lines are skipped by the wire.

A line over `max_bytes` is not kept whole: only its first and last `keep` bytes are, joined by a newline
(which no line holds), for the wire to find its id in and refuse it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Protocol

_SEPARATOR = re.compile(rb"[\r\n]")


class Source(Protocol):
    """A stream of bytes read as it comes (a buffered binary file: `read1` returns what is there)."""

    def read1(self, size: int = ..., /) -> bytes: ...


Deliver = Callable[[tuple[str, bytes]], None]
"""Takes ("line", bytes), ("long", head + newline + tail) or ("eof", b"")."""


class _Pending:
    """The line being read: its pieces while under the cap, then only its two ends."""

    def __init__(self, max_bytes: int, keep: int) -> None:
        self._max_bytes = max_bytes
        self._keep = keep
        self._pieces: list[bytes] = []
        self._size = 0
        self._head: bytes | None = None
        self._tail = b""

    def add(self, piece: bytes) -> None:
        if not piece:
            return
        self._size += len(piece)
        if self._head is not None:
            self._tail = (self._tail + piece)[-self._keep :]
            return
        self._pieces.append(piece)
        if self._size > self._max_bytes:
            whole = b"".join(self._pieces)
            self._head, self._tail = whole[: self._keep], whole[-self._keep :]
            self._pieces = []

    def take(self) -> tuple[str, bytes] | None:
        """The finished line (None when it is empty), and a fresh start for the next one."""
        if self._head is not None:
            item = ("long", self._head + b"\n" + self._tail)
        elif self._size:
            item = ("line", b"".join(self._pieces))
        else:
            item = None
        self._pieces, self._size, self._head, self._tail = [], 0, None, b""
        return item


def read_lines(source: Source, deliver: Deliver, *, max_bytes: int, keep: int, chunk: int = 64 * 1024) -> None:
    """Blocking: read `source` to its end, delivering each non-empty line as it is complete, then ("eof", b"")."""
    pending = _Pending(max_bytes, keep)
    while chunk_read := source.read1(chunk):
        start = 0
        for separator in _SEPARATOR.finditer(chunk_read):
            pending.add(chunk_read[start : separator.start()])
            start = separator.end()
            if (item := pending.take()) is not None:
                deliver(item)
        pending.add(chunk_read[start:])
    if (item := pending.take()) is not None:
        deliver(item)
    deliver(("eof", b""))
