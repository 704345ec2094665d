"""The stdio wire in front of the SDK's reader: every request answered, no line read whole past a cap.

The SDK's stdio reader drops a line it cannot validate without a word, so the client waits until its
own timeout. Lines are read here first: a leading BOM is stripped; a lone surrogate escape (Node's
`JSON.stringify` writes one for a split emoji) becomes U+FFFD; a request the protocol refuses (no
`"jsonrpc": "2.0"`, `params` that are not an object, a batch array, a shape the SDK cannot read) is
answered `-32600` for its id (`null` when the id itself is not a string or an integer); a line over
MAX_LINE_BYTES is refused the same way without being held whole. Writes are serialised, and a closed
stdout ends the server quietly.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import AsyncIterator, Callable
from typing import Any, BinaryIO, cast

import anyio
import anyio.from_thread
import anyio.lowlevel
from mcp_types import jsonrpc_message_adapter

MAX_LINE_BYTES = 4 * 1024 * 1024
"""The longest request line read; past it the line is skipped, chunk by chunk, and refused."""
CHUNK_BYTES = 64 * 1024
INVALID_REQUEST = -32600
_BOM = b"\xef\xbb\xbf"
_SURROGATE = re.compile("[\ud800-\udfff]")
_ID_VALUE = rb'(-?\d{1,18}|"(?:[^"\\]|\\.){0,200}")'
# The id of an over-long line, read only where it is surely the message's own (never an "id" nested in its
# params): among the first members, before any nested value, or as the last member. The TypeScript SDK
# (Claude Code, OpenCode, Cursor) writes `{...request, jsonrpc, id}`: its id comes last.
_LEADING_ID = re.compile(rb'\A\s*\{[^{}\[\]]*?"id"\s*:\s*' + _ID_VALUE)
_TRAILING_ID = re.compile(rb'"id"\s*:\s*' + _ID_VALUE + rb"\s*\}\s*\Z")


def _without_surrogates(data: Any) -> Any:
    if isinstance(data, str):
        return _SURROGATE.sub("\N{REPLACEMENT CHARACTER}", data)
    if isinstance(data, dict):
        items = cast(dict[str, Any], data).items()
        return {_without_surrogates(key): _without_surrogates(value) for key, value in items}
    if isinstance(data, list):
        return [_without_surrogates(item) for item in cast(list[Any], data)]
    return data


def refusal(request_id: Any, message: str) -> str:
    """The JSON-RPC error line for a request the wire refuses."""
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "error": {"code": INVALID_REQUEST, "message": message}})


def admit(line: bytes) -> tuple[str | None, str | None]:
    """(the line to hand the SDK, the refusal to answer); either may be None (a blank line: neither)."""
    line = line.removeprefix(_BOM).strip()
    if not line:
        return None, None
    try:
        message: object = json.loads(line)
    except ValueError:
        return line.decode("utf-8", "replace"), None  # not JSON: the SDK answers its parse error
    if isinstance(message, list):
        return None, refusal(None, "Batch requests are not supported: send one JSON-RPC message per line.")
    if not isinstance(message, dict):
        return None, refusal(None, "A JSON-RPC message is a JSON object.")
    return _judge(_without_surrogates(message))


def _is_id(value: object) -> bool:
    """Whether `value` is an id MCP allows: a string or an integer (JSON `true` is not one)."""
    return isinstance(value, int | str) and not isinstance(value, bool)


def _judge(message: dict[str, Any]) -> tuple[str | None, str | None]:
    request_id = message.get("id")
    # A request: a method, or an id with neither result nor error (never a response: responses are not answered).
    request = "method" in message or ("id" in message and "result" not in message and "error" not in message)
    answerable = request and _is_id(request_id)
    problem = None
    if request and "id" in message and not _is_id(request_id):
        # The SDK would take it for a notification and never answer; JSON-RPC answers it with a null id.
        return None, refusal(None, "The id of a request is a string or an integer.")
    if message.get("jsonrpc") != "2.0":
        problem = 'A JSON-RPC 2.0 message carries "jsonrpc": "2.0".'
    elif "params" in message and not isinstance(message["params"], dict):
        problem = "params must be a JSON object."
    else:
        try:
            jsonrpc_message_adapter.validate_python(message, by_name=False)
        except ValueError:
            problem = "The message is not a JSON-RPC request, notification or response the server can read."
    if problem is None:
        return json.dumps(message, ensure_ascii=False), None
    return None, refusal(request_id, problem) if answerable else None


def _id_in(ends: bytes) -> Any:
    """The id of an over-long line from its two ends (`head` and `tail` joined by a newline), or None."""
    head, _, tail = ends.partition(b"\n")
    found = _LEADING_ID.search(head) or _TRAILING_ID.search(tail)
    if found is None:
        return None
    try:
        return json.loads(found.group(1))
    except ValueError:
        return None


class Writer:
    """Writes whole lines to stdout one at a time; a closed stdout calls `closed` instead of raising."""

    def __init__(self, sink: BinaryIO, closed: Callable[[], None]) -> None:
        self._sink = sink
        self._closed = closed
        self._lock = anyio.Lock()

    async def write(self, text: str) -> None:
        async with self._lock:
            try:
                await anyio.to_thread.run_sync(self._sink.write, text.encode("utf-8"))
            except (BrokenPipeError, ValueError, OSError):
                self._closed()

    async def flush(self) -> None:
        async with self._lock:
            try:
                await anyio.to_thread.run_sync(self._sink.flush)
            except (BrokenPipeError, ValueError, OSError):
                self._closed()


def _read_lines(source: BinaryIO, deliver: Callable[[tuple[str, bytes]], None]) -> None:
    """Blocking: read `source` line by line; a line over MAX_LINE_BYTES is skipped chunk by chunk (never held
    whole) and delivered as its first and last CHUNK_BYTES, joined by a newline (which no line holds), where
    its id is; ("eof", b"") at the end."""
    while True:
        raw = source.readline(MAX_LINE_BYTES + 1)
        if not raw:
            deliver(("eof", b""))
            return
        if len(raw) <= MAX_LINE_BYTES or raw.endswith(b"\n"):
            deliver(("line", raw))
            continue
        head, tail = raw[:CHUNK_BYTES], raw[-CHUNK_BYTES:]
        del raw
        while (rest := source.readline(CHUNK_BYTES)) and not rest.endswith(b"\n"):
            tail = (tail + rest)[-CHUNK_BYTES:]
        tail = (tail + rest).rstrip(b"\r\n")[-CHUNK_BYTES:]
        deliver(("long", head + b"\n" + tail))


class Reader:
    """The request lines for the SDK, admitted by `admit`; refusals are written back at once.

    The blocking reads run on a daemon thread of their own: a server stopped by a signal must not wait
    for the client's next line to exit (a worker thread blocked on stdin would hold the process)."""

    def __init__(self, source: BinaryIO, writer: Writer) -> None:
        self._source = source
        self._writer = writer

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[str]:
        send, receive = anyio.create_memory_object_stream[tuple[str, bytes]](0)
        token = anyio.lowlevel.current_token()

        def deliver(item: tuple[str, bytes]) -> None:
            anyio.from_thread.run(send.send, item, token=token)

        threading.Thread(target=self._pump, args=(deliver,), name="mcp-stdin", daemon=True).start()
        async with receive:
            async for kind, raw in receive:
                if kind == "eof":
                    return
                if kind == "long":
                    await self._refuse_long(raw)
                    continue
                admitted, refused = admit(raw)
                if refused is not None:
                    await self._answer(refused)
                if admitted is not None:
                    yield admitted + "\n"

    def _pump(self, deliver: Callable[[tuple[str, bytes]], None]) -> None:
        try:
            _read_lines(self._source, deliver)
        except Exception:  # the server is gone (its loop closed) or stdin broke: the thread just ends
            return

    async def _refuse_long(self, ends: bytes) -> None:
        request_id = _id_in(ends)
        if request_id is not None:
            await self._answer(refusal(request_id, f"The request is over {MAX_LINE_BYTES} bytes."))

    async def _answer(self, line: str) -> None:
        await self._writer.write(line + "\n")
        await self._writer.flush()
