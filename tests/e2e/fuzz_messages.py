"""Messages drawn from the protocol, for the stdio fuzzer (`fuzz_wire.py`), and what each must be answered.

A case is a list of lines, each one JSON-RPC message (or a batch, or a bare JSON value, or bytes that are not
JSON) written out as bytes, and the separators and cuts with which the lines are written. What varies:

- every member of a message (`jsonrpc`, `id`, `method`, `params`, `result`, `error`, unknown members) is
  absent, its canonical value, or any JSON value: every JSON type in every position;
- depth (a chain of arrays and objects up to 3,000 levels, in any member) and width (up to 2,000 items);
- strings: any code point, lone surrogates and control characters included, written `ensure_ascii` (escapes)
  or raw (a lone surrogate then as invalid UTF-8), behind an optional BOM and JSON blanks;
- lines that are not JSON: random bytes, a message cut short, two messages on one line;
- separators LF, CR and CRLF (and runs of them) between lines, and the stream cut into writes anywhere.

`SECRET` is planted where a secret travels (the `env_vars` of a creation) and anywhere in what the server
cannot read (lines that are not JSON, batches, messages past the depth limit), and in the params of any
message; never in a method name, an id or an agent's `name`, which the server logs by design.

`expected(line)` is the rule the server must follow, read from JSON-RPC 2.0 and the SDK's own message types.
"""

from __future__ import annotations

import functools
import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, cast

from hypothesis import strategies as st
from mcp_types import JSONRPCRequest, jsonrpc_message_adapter

from cursor_cloud_agents.server.protocol.nesting import MAX_DEPTH

SECRET = "Zanzibar-fuzz-env-value-7Q2"
"""An env_vars value: masked once a call registers it, and never seen in a line the server cannot read."""
ANY_CODE = "any"
"""An answer of any kind (a result or an error): what a valid request gets."""
PARSE_ERROR, INVALID_REQUEST = -32700, -32600
METHODS = (
    "ping",
    "tools/list",
    "tools/call",
    "initialize",
    "resources/list",
    "prompts/list",
    "logging/setLevel",
    "tasks/list",
    "tasks/get",
    "completion/complete",
    "no/such/method",
)
NOTIFICATIONS = ("notifications/initialized", "notifications/roots/list_changed", "notifications/x")
CALLS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("cursor_list_agents", {"limit": 2}),
    ("cursor_get_account", {}),
    ("cursor_list_models", {}),
    ("cursor_list_repositories", {}),
    ("cursor_create_agent", {"prompt": "Fuzz the wire", "name": "fuzz-env", "env_vars": {"TOKEN": SECRET}}),
    ("cursor_create_agent", {"prompt": "Fuzz the wire", "name": "fuzz-forward", "forward_env": ["FUZZ_TOKEN"]}),
)
"""Calls that reach the simulator and end quickly (no waiting tool: a case must end in seconds)."""
SEPARATORS: tuple[bytes, ...] = (b"\n", b"\r", b"\r\n", b"\n\n", b"\r\r\n", b"\n\r")
_ids = itertools.count(1_000_000)
_NESTED = object()


# --- values ------------------------------------------------------------------------------------------


@functools.cache
def texts(secret: bool) -> st.SearchStrategy[str]:
    """Any text: every code point (lone surrogates and controls too), the awkward ones often; with `secret`,
    sometimes SECRET or text around it."""
    awkward = st.sampled_from(["", "\x00", "\r\n", "\u2028", "\ud800", "\udfff", "a\ud83d", "\U0001f600", "\u202e"])
    anything = st.text(st.characters(exclude_categories=()), max_size=24)
    if not secret:
        return anything | awkward
    planted = st.sampled_from([SECRET, f"x{SECRET}y", f"{SECRET}\ud800"])
    return anything | awkward | planted


@functools.cache
def scalars(secret: bool) -> st.SearchStrategy[Any]:
    return (
        st.none()
        | st.booleans()
        | st.integers(-(2**70), 2**70)
        | st.floats(allow_nan=False, allow_infinity=False)
        | texts(secret)
    )


@functools.cache
def values(secret: bool) -> st.SearchStrategy[Any]:
    """Any JSON value, shallow (nests a few levels) and narrow."""
    return st.recursive(
        scalars(secret),
        lambda children: st.lists(children, max_size=5) | st.dictionaries(texts(secret), children, max_size=5),
        max_leaves=12,
    )


@st.composite
def wide(draw: st.DrawFn, secret: bool) -> Any:
    """An array or object of up to 2,000 scalars."""
    size = draw(st.integers(50, 2_000))
    item = draw(scalars(secret))
    if draw(st.booleans()):
        return [item] * size
    return {f"k{index}": item for index in range(size)}


@st.composite
def deep(draw: st.DrawFn, secret: bool) -> Any:
    """A chain of arrays and objects, most often around the depth limit."""
    depth = draw(st.sampled_from([MAX_DEPTH - 4, MAX_DEPTH - 3, MAX_DEPTH - 2, 199, 200, 1_001, 3_000]))
    depth = draw(st.integers(1, MAX_DEPTH + 4)) if draw(st.booleans()) else depth
    pattern = draw(st.lists(st.sampled_from("[{"), min_size=1, max_size=3))
    value: Any = draw(scalars(secret))
    for level in range(depth):
        value = [value] if pattern[level % len(pattern)] == "[" else {"k": value}
    return value


@functools.cache
def any_value(secret: bool) -> st.SearchStrategy[Any]:
    return values(secret) | values(secret) | values(secret) | wide(secret) | deep(secret)


# --- messages ----------------------------------------------------------------------------------------


_ABSENT = object()


@st.composite
def request_params(draw: st.DrawFn, method: Any) -> Any:
    """Params for `method`: a valid tools/call of CALLS, arguments of any shape, or any object."""
    if method == "tools/call":
        name, arguments = draw(st.sampled_from(CALLS))
        if draw(st.floats(0, 1)) < 0.3:
            arguments = draw(st.dictionaries(texts(False), any_value(False), max_size=4))
            arguments.pop("name", None)
        params: dict[str, Any] = {"name": name, "arguments": arguments}
    elif method == "initialize":
        params = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "fuzz", "version": "1"}}
    else:
        params = {}
    if draw(st.floats(0, 1)) < 0.3:
        params["_meta"] = {"progressToken": next(_ids)} | draw(st.dictionaries(texts(True), values(True), max_size=2))
    if draw(st.floats(0, 1)) < 0.2:
        params[draw(texts(False).filter(lambda key: key not in ("name", "arguments", "task")))] = draw(any_value(True))
    return params


def fresh_id(draw: st.DrawFn) -> Any:
    """A request id no other request in flight has: an integer (past 2**63 too) or text of any code points."""
    number = next(_ids)
    style = draw(st.sampled_from(["int", "int", "negative", "big", "text"]))
    if style == "text":
        return draw(texts(False)) + f"#{number}"
    return {"int": number, "negative": -number, "big": 2**64 + number}[style]


@st.composite
def canonical_message(draw: st.DrawFn) -> dict[str, Any]:
    """A well-formed request (a tools/call half the time), notification or response."""
    shape = draw(st.sampled_from(["request", "request", "request", "notification", "response"]))
    if shape == "response":
        answer = draw(st.sampled_from([{"result": {}}, {"error": {"code": -1, "message": "no"}}]))
        return {"jsonrpc": "2.0", "id": fresh_id(draw)} | answer
    if shape == "notification":
        return {"jsonrpc": "2.0", "method": draw(st.sampled_from(NOTIFICATIONS))}
    method = "tools/call" if draw(st.booleans()) else draw(st.sampled_from(METHODS))
    out = {"jsonrpc": "2.0", "id": fresh_id(draw), "method": method}
    return out | ({"params": draw(request_params(method))} if draw(st.floats(0, 1)) < 0.85 else {})


MEMBERS = ("jsonrpc", "id", "method", "params", "result", "error", "unknown")


@st.composite
def message(draw: st.DrawFn) -> dict[str, Any]:
    """A well-formed message, half the time with one to three members changed: left out, or any JSON value
    (every type in every position); sometimes a deep chain in one member."""
    out = draw(canonical_message())
    changes = draw(st.sampled_from([0, 0, 0, 1, 1, 2, 3]))
    for name in draw(st.lists(st.sampled_from(MEMBERS), min_size=changes, max_size=changes, unique=True)):
        if name == "unknown":
            out[draw(texts(False).filter(lambda key: key not in out))] = draw(any_value(True))
        elif draw(st.floats(0, 1)) < 0.3:
            out.pop(name, None)
        else:
            value = draw(any_value(name in ("params", "result", "error")))
            # Any JSON type goes in the id, but an id the server can answer stays unique among those in flight.
            out[name] = fresh_id(draw) if name == "id" and _is_id(value) else value
    if draw(st.floats(0, 1)) < 0.15:
        plant_deep(draw, out)
    return out


def plant_deep(draw: st.DrawFn, message: dict[str, Any]) -> None:
    """A deep chain in one member: unknown, params, arguments, _meta, or the id or method themselves."""
    where = draw(st.sampled_from(["member", "params", "arguments", "meta", "id", "method"]))
    chain = draw(deep(True))
    if where in ("id", "method", "member"):
        message["deep" if where == "member" else where] = chain
        return
    holder = _object_at(message, "params")
    if where in ("arguments", "meta"):
        holder = _object_at(holder, "arguments" if where == "arguments" else "_meta")
    holder["deep"] = chain


def _object_at(parent: dict[str, Any], name: str) -> dict[str, Any]:
    """`parent[name]`, made an object first when it is not one."""
    found = parent.get(name)
    if isinstance(found, dict):
        return cast(dict[str, Any], found)
    made: dict[str, Any] = {}
    parent[name] = made
    return made


# --- lines -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """One line as written, and what the fuzzer knows of it without parsing it again."""

    raw: bytes
    depth: int
    width: int
    top: dict[str, Any] | None
    """The top-level members of a message past the depth limit (containers as `_NESTED`), else None."""
    kind: str

    def __repr__(self) -> str:
        return f"Line({self.kind}, depth={self.depth}, {self.raw[:120]!r}{'...' if len(self.raw) > 120 else ''})"


def shape_of(value: Any) -> tuple[int, int]:
    """(depth, widest container) of a JSON value, walked without recursion."""
    deepest = widest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, list | dict):
            children = list(cast(dict[str, Any], item).values()) if isinstance(item, dict) else cast(list[Any], item)
            deepest, widest = max(deepest, level), max(widest, len(children))
            stack.extend((child, level + 1) for child in children)
    return deepest, widest


def encode(value: Any, *, ascii_only: bool) -> bytes:
    """`value` as JSON text, written without recursion (`json.dumps` cannot write 3,000 levels); a lone surrogate
    written raw becomes invalid UTF-8, as a careless client would send it."""
    parts: list[str] = []
    stack: list[tuple[str, Iterator[Any], list[int]]] = []

    def start(item: Any) -> None:
        if isinstance(item, list):
            parts.append("[")
            stack.append(("]", iter(cast(list[Any], item)), [0]))
        elif isinstance(item, dict):
            parts.append("{")
            stack.append(("}", iter(cast(dict[str, Any], item).items()), [0]))
        else:
            parts.append(json.dumps(item, ensure_ascii=ascii_only))

    start(value)
    while stack:
        closer, items, count = stack[-1]
        item = next(items, _ABSENT)
        if item is _ABSENT:
            parts.append(closer)
            stack.pop()
            continue
        parts.append("," if count[0] else "")
        count[0] += 1
        if closer == "}":
            key, item = cast(tuple[str, Any], item)
            parts.append(json.dumps(key, ensure_ascii=ascii_only) + ":")
        start(item)
    return "".join(parts).encode("utf-8", "surrogatepass")


def as_line(draw: st.DrawFn, value: Any, kind: str) -> Line:
    depth, width = shape_of(value)
    ascii_only = draw(st.booleans())
    raw = encode(value, ascii_only=ascii_only)
    raw = draw(st.sampled_from([b"", b"", b"\xef\xbb\xbf", b" ", b"\t "])) + raw + draw(st.sampled_from([b"", b" \t"]))
    top = None
    if depth > MAX_DEPTH and isinstance(value, dict):
        items = cast(dict[str, Any], value).items()
        top = {_as_read(key, ascii_only): _top_value(item, ascii_only) for key, item in items}
    return Line(raw, depth, width, top, kind)


def _top_value(item: Any, ascii_only: bool) -> Any:
    return _NESTED if isinstance(item, list | dict) else _as_read(item, ascii_only)


def _as_read(value: Any, ascii_only: bool) -> Any:
    """A scalar as the server reads it back from the bytes written (invalid UTF-8 replaced, surrogates cleaned)."""
    return _clean(json.loads(encode(value, ascii_only=ascii_only).decode("utf-8", "replace")))


@st.composite
def lines(draw: st.DrawFn) -> Line:
    """One line of any kind (see the module's docstring)."""
    kind = draw(st.sampled_from(["message"] * 6 + ["batch", "value", "not-json"]))
    if kind == "message":
        return as_line(draw, draw(message()), kind)
    if kind == "batch":
        return as_line(draw, draw(st.lists(message() | values(True), max_size=4)), kind)
    if kind == "value":
        return as_line(draw, draw(any_value(True)), kind)
    return not_json(draw)


def not_json(draw: st.DrawFn) -> Line:
    """Bytes that are not JSON: random bytes, a message cut short, two messages on one line, JSON's missing
    constants. Never more brackets than the depth limit (a parser stops at the first error; the wire, judging
    depth first, may then refuse -32600 instead, which is right too but not what this line is for)."""
    way = draw(st.sampled_from(["bytes", "cut", "two", "constant"]))
    if way == "bytes":
        raw = draw(st.binary(min_size=1, max_size=60).map(lambda data: data.replace(b"\r", b"").replace(b"\n", b"")))
        raw = raw + b"{" + SECRET.encode()
    elif way == "cut":
        whole = encode(draw(message()), ascii_only=draw(st.booleans()))
        raw = whole[: draw(st.integers(1, max(1, len(whole) - 1)))] + b" " + SECRET.encode()
    elif way == "two":
        raw = b'{"jsonrpc": "2.0", "method": "ping", "id": 1}{"params": {"e": "' + SECRET.encode() + b'"}}'
    else:
        raw = (
            b'{"jsonrpc": "2.0", "id": 5, "method": "ping", "params": {"x": '
            + draw(st.sampled_from([b"NaN", b"Infinity", b"-Infinity"]))
            + b', "e": "'
            + SECRET.encode()
            + b'"}}'
        )
    if raw.count(b"[") + raw.count(b"{") > MAX_DEPTH:
        raw = raw.replace(b"[", b"").replace(b"{", b"")
    return Line(raw, 0, 0, None, "not-json")


@dataclass(frozen=True)
class Case:
    """The lines of one round, the separator after each, and where the written bytes are cut into writes."""

    lines: list[Line]
    separators: list[bytes]
    cuts: list[int] = field(default_factory=list[int])

    def stream(self) -> bytes:
        return b"".join(line.raw + separator for line, separator in zip(self.lines, self.separators, strict=True))

    def writes(self) -> list[bytes]:
        data = self.stream()
        points = sorted({cut % len(data) for cut in self.cuts if data} | {0, len(data)})
        return [data[start:end] for start, end in itertools.pairwise(points) if end > start]

    def __repr__(self) -> str:
        return f"Case({self.lines!r}, separators={self.separators!r}, cuts={self.cuts!r})"


@st.composite
def cases(draw: st.DrawFn) -> Case:
    found = draw(st.lists(lines(), min_size=1, max_size=8))
    separators = draw(st.lists(st.sampled_from(SEPARATORS), min_size=len(found), max_size=len(found)))
    cuts = draw(st.lists(st.integers(0, 10**7), max_size=6))
    return Case(found, separators, cuts)


# --- the rule ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Expected:
    """One answer a line must get: for this id (None: a null id), with this error code (or ANY_CODE)."""

    request_id: Any
    code: int | str
    valid_call: bool = False
    """A valid tools/call (it may send requests upstream; nothing else may)."""


def expected(line: Line) -> list[Expected]:
    """The answers `line` must get, in any order: JSON-RPC 2.0 as the wire promises it (see server/protocol/wire.py)."""
    if line.top is not None:
        return [Expected(_answerable_id(line.top), INVALID_REQUEST)]
    if line.depth > MAX_DEPTH:
        return [Expected(None, INVALID_REQUEST)]  # a batch, or a bare array, past the limit
    text = line.raw.decode("utf-8", "replace").removeprefix("\ufeff").strip(" \t")
    if not text:
        return []
    try:
        parsed = _clean(json.loads(text, parse_constant=_refuse_constant))
    except ValueError:
        return [Expected(None, PARSE_ERROR)]
    if isinstance(parsed, list):
        ids: list[Any] = []
        for item in cast(list[Any], parsed):
            request_id = _answerable_id(cast(dict[str, Any], item)) if isinstance(item, dict) else None
            if request_id is not None and request_id not in ids:
                ids.append(request_id)
        return [Expected(request_id, INVALID_REQUEST) for request_id in ids or [None]]
    if not isinstance(parsed, dict):
        return [Expected(None, INVALID_REQUEST)]
    return _expected_of_message(cast(dict[str, Any], parsed))


def _expected_of_message(message: dict[str, Any]) -> list[Expected]:
    read = _as_the_sdk_reads(message)
    if read is None:
        return [Expected(_answerable_id(message), INVALID_REQUEST)]
    if isinstance(read, JSONRPCRequest):
        return [Expected(message["id"], ANY_CODE, valid_call=read.method == "tools/call")]
    return []  # a notification or a response (even one with a stray "method" member): never answered


def _as_the_sdk_reads(message: dict[str, Any]) -> object | None:
    """The message as the SDK's own types read it, or None when the wire must refuse it."""
    if message.get("jsonrpc") != "2.0" or ("id" in message and not _is_id(message["id"])):
        return None
    if "params" in message and not isinstance(message["params"], dict):
        return None
    try:
        return jsonrpc_message_adapter.validate_python(message, by_name=False)
    except ValueError:
        return None


def _is_id(value: Any) -> bool:
    return isinstance(value, int | str) and not isinstance(value, bool)


def _answerable_id(message: dict[str, Any]) -> Any:
    """A request's usable id (a response's id is the server's own: never echoed); else None."""
    request_id = message.get("id")
    is_response = "method" not in message and ("result" in message or "error" in message)
    return request_id if not is_response and _is_id(request_id) else None


def _refuse_constant(constant: str) -> Any:
    raise ValueError(constant)


def _clean(value: Any) -> Any:
    """`value` with every lone surrogate replaced by U+FFFD, as the server reads it (depth is at most the limit)."""
    if isinstance(value, str):
        return "".join("\ufffd" if "\ud800" <= char <= "\udfff" else char for char in value)
    if isinstance(value, list):
        return [_clean(item) for item in cast(list[Any], value)]
    if isinstance(value, dict):
        return {_clean(key): _clean(item) for key, item in cast(dict[str, Any], value).items()}
    return value
