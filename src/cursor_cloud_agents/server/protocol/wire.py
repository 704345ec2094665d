"""The stdio wire in front of the SDK's reader: every line answered, none held whole past a cap.

The SDK's stdio reader drops a line it cannot validate without a word (logging, at DEBUG, pydantic's error
that quotes the line's two ends), so the client waits until its own timeout. Lines are read here first
(`framing`: CR, LF and CRLF each end one) and each is either handed to the SDK as a message it will read,
or answered at once:

- a line that is not JSON (or is JSON's `NaN`/`Infinity`) is answered `-32700`, id null;
- a message nested deeper than `nesting.MAX_DEPTH` is refused `-32600` before it is parsed, whatever
  member holds the depth (Python's parser would recurse until `RecursionError`);
- a batch array is refused `-32600` once per id it carries (once with a null id when it carries none);
- anything else that is not a JSON-RPC 2.0 message the SDK reads (no `"jsonrpc": "2.0"`, an id that is not
  a string or an integer, `params` that are not an object, any other shape) is refused `-32600` for its
  id when it is a request with a usable id, with a null id otherwise (a response's id is one of ours);
- a line over MAX_LINE_BYTES is refused the same way without being held whole.

What the SDK gets is the line as it came, or, when it holds a lone surrogate escape (Node's `JSON.stringify`
writes one for a split emoji), written again with each replaced by U+FFFD; either way validated by the
SDK's own adapter on that very text: the SDK can never fail to read it, so it never logs a line it could
not parse. Writes are serialised, and a closed stdout ends the server quietly.
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

from cursor_cloud_agents.server.protocol.framing import Source, read_lines
from cursor_cloud_agents.server.protocol.nesting import MAX_DEPTH, too_deep, top_level_members

MAX_LINE_BYTES = 4 * 1024 * 1024
"""The longest request line read; past it the line is skipped, chunk by chunk, and refused."""
CHUNK_BYTES = 64 * 1024
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
_BOM = "\ufeff"
_JSON_BLANKS = " \t"
_SURROGATE = re.compile("[\ud800-\udfff]")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_ID_VALUE = rb'(-?\d{1,18}|"(?:[^"\\]|\\.){0,200}")'
# The id of an over-long line, read only where it is surely the message's own (never an "id" nested in its
# params): among the first members, before any nested value, or as the last member. The TypeScript SDK
# (Claude Code, OpenCode, Cursor) writes `{...request, jsonrpc, id}`: its id comes last.
_LEADING_ID = re.compile(rb'\A\s*\{[^{}\[\]]*?"id"\s*:\s*' + _ID_VALUE)
_TRAILING_ID = re.compile(rb'"id"\s*:\s*' + _ID_VALUE + rb"\s*\}\s*\Z")
_BATCH = "Batch requests are not supported: send one JSON-RPC message per line."


def _error(code: int, request_id: Any, message: str) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}})


def refusal(request_id: Any, message: str) -> str:
    """The JSON-RPC error line for a message the wire refuses (`-32600`, Invalid Request)."""
    return _error(INVALID_REQUEST, request_id, message)


def _not_json(constant: str) -> Any:
    raise ValueError(f"{constant} is not JSON")


def admit(line: bytes) -> tuple[str | None, list[str]]:
    """(the message to hand the SDK, the answers to write back at once); a blank line gives neither."""
    text = line.decode("utf-8", "replace").removeprefix(_BOM).strip(_JSON_BLANKS)
    if not text:
        return None, []
    if too_deep(text):
        return None, [refusal(_shallow_id(text), f"The message nests deeper than {MAX_DEPTH} levels.")]
    try:
        parsed: object = json.loads(text, parse_constant=_not_json)
    except (ValueError, RecursionError):
        return None, [_error(PARSE_ERROR, None, "Parse error: the line is not JSON.")]
    message, forwarded = _cleaned(parsed, text)
    if isinstance(message, list):
        return None, [refusal(request_id, _BATCH) for request_id in _batch_ids(cast(list[Any], message))]
    if not isinstance(message, dict):
        return None, [refusal(None, "A JSON-RPC message is a JSON object.")]
    problem = _problem(cast(dict[str, Any], message), forwarded)
    if problem is None:
        return forwarded, []
    return None, [refusal(_answerable_id(cast(dict[str, Any], message)), problem)]


def _cleaned(parsed: object, text: str) -> tuple[object, str]:
    """The message with every lone surrogate (in any string, keys too) replaced by U+FFFD, and its text: the
    line itself when it holds no surrogate escape (most do not, and it reads as it was written).

    Cleaned on the text written again, where a surrogate can only stand inside a string: no walk, no recursion."""
    if "\\u" not in text or _SURROGATE_ESCAPE.search(text) is None:
        return parsed, text
    written = json.dumps(parsed, ensure_ascii=False)
    try:
        written.encode("utf-8")  # fails exactly when a lone surrogate is left (a pair decodes to one character)
    except UnicodeEncodeError:
        written = _SURROGATE.sub("\N{REPLACEMENT CHARACTER}", written)
        return json.loads(written), written
    return parsed, written


def _is_id(value: object) -> bool:
    """Whether `value` is an id MCP allows: a string or an integer (JSON `true` is not one)."""
    return isinstance(value, int | str) and not isinstance(value, bool)


def _is_request(message: dict[str, Any] | dict[str, object]) -> bool:
    """A request (or a notification, or something shapeless): anything but a response, which has a result
    or an error and no method. A response is never answered with its id: that id names one of our requests."""
    return "method" in message or ("result" not in message and "error" not in message)


def _answerable_id(message: dict[str, Any] | dict[str, object]) -> Any:
    """The id to answer a refused message with: its own when it is a request's and usable, else null."""
    request_id = message.get("id")
    return request_id if _is_request(message) and _is_id(request_id) else None


def _shallow_id(text: str) -> Any:
    """The id of a message too deep to parse, read from its top-level members only (null when it has none),
    cleaned of lone surrogates as the id of a message read whole is."""
    request_id = _answerable_id(top_level_members(text))
    return _SURROGATE.sub("\N{REPLACEMENT CHARACTER}", request_id) if isinstance(request_id, str) else request_id


def _batch_ids(items: list[Any]) -> list[Any]:
    """The ids a batch carries, each once, in order (a single null when it carries none)."""
    found: list[Any] = []
    for item in items:
        if isinstance(item, dict):
            request_id = _answerable_id(cast(dict[str, Any], item))
            if request_id is not None and request_id not in found:
                found.append(request_id)
    return found or [None]


def _problem(message: dict[str, Any], forwarded: str) -> str | None:
    """Why `message` is not a JSON-RPC message the SDK reads (None when it is)."""
    if message.get("jsonrpc") != "2.0":
        return 'A JSON-RPC 2.0 message carries "jsonrpc": "2.0".'
    if "id" in message and not _is_id(message["id"]):
        # The SDK would take it for a notification and never answer; JSON-RPC answers it with a null id.
        return "The id of a message is a string or an integer."
    if "params" in message and not isinstance(message["params"], dict):
        return "params must be a JSON object."
    try:
        jsonrpc_message_adapter.validate_json(forwarded, by_name=False)  # the very text the SDK will read
    except ValueError:
        return "The message is not a JSON-RPC request, notification or response the server can read."
    return None


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


class Reader:
    """The request lines for the SDK, admitted by `admit`; refusals are written back at once.

    The blocking reads run on a daemon thread of their own: a server stopped by a signal must not wait
    for the client's next line to exit (a worker thread blocked on stdin would hold the process)."""

    def __init__(self, source: Source, writer: Writer) -> None:
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
                    await self._answer([refusal(_id_in(raw), f"The request is over {MAX_LINE_BYTES} bytes.")])
                    continue
                admitted, answers = admit(raw)
                if answers:
                    await self._answer(answers)
                if admitted is not None:
                    yield admitted + "\n"

    def _pump(self, deliver: Callable[[tuple[str, bytes]], None]) -> None:
        try:
            read_lines(self._source, deliver, max_bytes=MAX_LINE_BYTES, keep=CHUNK_BYTES)
        except Exception:  # the server is gone (its loop closed) or stdin broke: the thread just ends
            return

    async def _answer(self, lines: list[str]) -> None:
        """Write `lines` back in one write (a batch's refusals too)."""
        await self._writer.write("".join(line + "\n" for line in lines))
        await self._writer.flush()
