"""Exchanges with the API as plain values, handed to observers: the recorder on disk, `verify`'s memory.

The HTTP session (`_http.py`) gives every answered request to its `Observer` as an `Exchange`, and
every opened stream, once closed, as a `StreamExchange` with its frames and their times. Nothing
here imports httpx2.

`Recorder` writes them as JSON lines (format `TRACE_VERSION`), the format `simulator/replay.py`
serves again. What is written is redacted twice: structurally (prompts, agent text and account
identities replaced by `MASK` unless `keep_text`; environment variables, MCP server settings and
images always), then the whole line through the `mask` function (the redactor, which knows the key in
every encoding). The Authorization header is never recorded: only the headers listed in
`KEPT_HEADERS`. Files are created 0600 in a 0700 folder, and rotate at `max_file_bytes`, keeping the
newest `max_files`. A failure to write stops the recording (logged once) and never the call.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, cast

from cursor_cloud_agents.api import _wirejson
from cursor_cloud_agents.guards.regularfile import open_regular

logger = logging.getLogger("cursor_cloud_agents.api.record")

TRACE_VERSION = 1
MASK = "***"
KEPT_HEADERS = frozenset(
    {
        "content-type",
        "retry-after",
        "x-ratelimit-limit",
        "x-ratelimit-remaining",
        "x-ratelimit-reset",
        "x-cursor-stream-retention-seconds",
        "x-request-id",
        "request-id",
        "x-cursor-request-id",
    }
)
"""Answer headers that matter to a client (rate limits, retention, request ids): the only ones recorded."""
KEPT_REQUEST_HEADERS = frozenset({"last-event-id"})
TEXT_KEYS = frozenset({"text", "result", "args", "prompt", "summary", "userMessage", "toolCall", "event", "messages"})
"""Keys whose values are prompts or what the agent wrote (replies, tool inputs and outputs)."""
IDENTITY_KEYS = frozenset({"userEmail", "userFirstName", "userLastName"})
ALWAYS_MASKED_KEYS = frozenset({"envVars", "runEnvVars", "mcpServers", "images", "metadata"})
"""Keys that may carry secrets or large binary data: masked even with `keep_text`."""
MAX_STREAM_FRAMES = 50_000
MAX_TEXT_BODY_CHARS = 64 * 1024


@dataclass(frozen=True)
class Exchange:
    """One answered request."""

    method: str
    path: str
    query: Mapping[str, str]
    request_body: Any
    status: int
    headers: Mapping[str, str]
    """Answer headers, names lowercased."""
    body: bytes


@dataclass(frozen=True)
class Frame:
    """One stream frame and when it came, in seconds after the stream opened."""

    offset: float
    event: str
    data: str
    id: str | None


@dataclass
class StreamExchange:
    """One opened event stream: its answer, and its frames once it closed."""

    path: str
    request_headers: Mapping[str, str]
    status: int
    headers: Mapping[str, str]
    opened: float
    """Monotonic seconds when the stream opened (offsets count from here)."""
    frames: list[Frame] = field(default_factory=list[Frame])
    body: bytes = b""
    """The error body of a non-200 answer."""
    truncated: bool = False

    def add(self, event: str, data: str, event_id: str | None, now: float) -> None:
        """Keep one frame (at most MAX_STREAM_FRAMES: a 7-hour replay is not kept whole)."""
        if len(self.frames) >= MAX_STREAM_FRAMES:
            self.truncated = True
            return
        self.frames.append(Frame(round(now - self.opened, 3), event, data, event_id))


class Observer(Protocol):
    """Hears every exchange of a client (plain values, after the fact; it must never raise)."""

    def exchange(self, exchange: Exchange) -> None:
        """An answered request."""
        ...

    def stream(self, exchange: StreamExchange) -> None:
        """A stream that closed (or was refused)."""
        ...


class Observers:
    """Several observers heard as one (`verify --record` both remembers and writes)."""

    def __init__(self, observers: Iterable[Observer]) -> None:
        self._observers = list(observers)

    def exchange(self, exchange: Exchange) -> None:
        """Hand `exchange` to each observer."""
        for observer in self._observers:
            observer.exchange(exchange)

    def stream(self, exchange: StreamExchange) -> None:
        """Hand `exchange` to each observer."""
        for observer in self._observers:
            observer.stream(exchange)


def _masked(value: Any, *, keep_text: bool) -> Any:
    """A copy of a JSON value with prompts, agent text and identities masked (unless `keep_text`), and the
    keys that may carry secrets masked always."""
    if isinstance(value, list):
        return [_masked(item, keep_text=keep_text) for item in cast(list[Any], value)]
    if not isinstance(value, dict):
        return value
    source = cast(dict[str, Any], value)
    is_agent = str(source.get("id", "")).startswith("bc-")
    out: dict[str, Any] = {}
    for key, item in source.items():
        hidden = key in ALWAYS_MASKED_KEYS or (
            not keep_text and (key in TEXT_KEYS or key in IDENTITY_KEYS or (key == "name" and is_agent))
        )
        out[key] = MASK if hidden and item is not None else _masked(item, keep_text=keep_text)
    return out


def _body_record(body: bytes, *, keep_text: bool) -> dict[str, Any]:
    if not body:
        return {}
    try:
        return {"json": _masked(_wirejson.loads(body), keep_text=keep_text)}
    except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: a body too deep to walk here
        return {"text": body.decode("utf-8", "replace")[:MAX_TEXT_BODY_CHARS]}


def _data_record(data: str, *, keep_text: bool) -> Any:
    try:
        return {"json": _masked(_wirejson.loads(data), keep_text=keep_text)}
    except (ValueError, RecursionError):  # RecursionError: a frame too deep to walk here
        return {"text": data if keep_text else MASK}


def _headers(headers: Mapping[str, str], kept: frozenset[str]) -> dict[str, str]:
    return {name: value for name, value in headers.items() if name.lower() in kept}


def exchange_record(exchange: Exchange, *, keep_text: bool, at: float) -> dict[str, Any]:
    """The JSON-lines record of an answered request (before the secret mask)."""
    record: dict[str, Any] = {"v": TRACE_VERSION, "kind": "http", "at": round(at, 3), "method": exchange.method}
    record |= {"path": exchange.path, "query": dict(exchange.query), "status": exchange.status}
    if exchange.request_body is not None:
        record["request"] = {"json": _masked(exchange.request_body, keep_text=keep_text)}
    record["headers"] = _headers(exchange.headers, KEPT_HEADERS)
    return record | {"body": _body_record(exchange.body, keep_text=keep_text)}


def stream_record(exchange: StreamExchange, *, keep_text: bool, at: float) -> dict[str, Any]:
    """The JSON-lines record of a stream (before the secret mask)."""
    record: dict[str, Any] = {"v": TRACE_VERSION, "kind": "stream", "at": round(at, 3), "method": "GET"}
    record |= {"path": exchange.path, "query": {}, "status": exchange.status}
    record["request"] = {"headers": _headers(exchange.request_headers, KEPT_REQUEST_HEADERS)}
    record["headers"] = _headers(exchange.headers, KEPT_HEADERS)
    frames = [
        {"t": frame.offset, "event": frame.event, "id": frame.id} | _data_record(frame.data, keep_text=keep_text)
        for frame in exchange.frames
    ]
    record |= {"frames": frames, "truncated": exchange.truncated}
    return record | {"body": _body_record(exchange.body, keep_text=keep_text)}


class Recorder:
    """Writes exchanges as redacted JSON lines into `directory` (an `Observer`).

    Args:
        directory: Created 0700 when missing; files `trace-<start>-<pid>-<n>.jsonl`, 0600.
        mask: Masks secrets in a finished line (the redactor's `mask`): applied to every byte written.
        keep_text: Keep prompts, agent text and identities (secrets stay masked).
        max_file_bytes: Rotate to a new file past this size.
        max_files: Keep at most this many trace files in the folder (the oldest are deleted).
        wall_clock: Unix seconds for each record's `at`.
    """

    def __init__(
        self,
        directory: Path,
        *,
        mask: Callable[[str], str],
        keep_text: bool = False,
        max_file_bytes: int = 16 * 1024 * 1024,
        max_files: int = 8,
        wall_clock: Callable[[], float] = time.time,
    ) -> None:
        self._directory = directory
        self._mask = mask
        self._keep_text = keep_text
        self._max_file_bytes = max_file_bytes
        self._max_files = max(1, max_files)
        self._wall_clock = wall_clock
        self._prefix = f"trace-{time.strftime('%Y%m%dT%H%M%S', time.gmtime(wall_clock()))}-{os.getpid()}"
        self._number = 0
        self._written = 0
        self._broken = False

    @property
    def files(self) -> list[Path]:
        """The trace files in the folder, oldest first."""
        return sorted(self._directory.glob("trace-*.jsonl"))

    def exchange(self, exchange: Exchange) -> None:
        """Write an answered request."""
        self._write(exchange_record(exchange, keep_text=self._keep_text, at=self._wall_clock()))

    def stream(self, exchange: StreamExchange) -> None:
        """Write a closed stream with its frames."""
        self._write(stream_record(exchange, keep_text=self._keep_text, at=self._wall_clock()))

    def _write(self, record: dict[str, Any]) -> None:
        if self._broken:
            return
        text = self._mask(json.dumps(record, separators=(",", ":"), ensure_ascii=False)) + "\n"
        # A lone surrogate (a JSON escape can carry one) cannot be UTF-8: written as its JSON escape, the line
        # reads back the same, rather than the exchange being lost to an encoding error.
        line = text.encode("utf-8", "backslashreplace")
        try:
            self._append(line)
        except OSError as exc:
            self._broken = True
            logger.warning("recording stopped: cannot write in the record folder (%s)", type(exc).__name__)

    def _append(self, line: bytes) -> None:
        new_file = self._number == 0 or self._written + len(line) > self._max_file_bytes
        if new_file:
            self._rotate()
        path = self._directory / f"{self._prefix}-{self._number:04d}.jsonl"
        # One open per line: an observer has no close, so no handle is left open between exchanges. Opened
        # without blocking and checked on the descriptor: a FIFO where the file belongs (no reader: ENXIO at
        # once; a reader: not a regular file) stops the recording instead of holding the call, and every call.
        descriptor = open_regular(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        try:
            if new_file:
                os.fchmod(descriptor, 0o600)  # a file already there under this name keeps no wider mode
            os.write(descriptor, line)
        finally:
            os.close(descriptor)
        self._written += len(line)

    def _rotate(self) -> None:
        self._directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        self._number += 1
        self._written = 0
        files = self.files
        for old in files[: max(0, len(files) - self._max_files + 1)]:
            old.unlink(missing_ok=True)
