"""The stdio wire, line by line (issue 23): every line answered whatever its shape, a message too deep refused for
its id. `admit` is called directly (lines in `test_framing.py`, depth in `test_nesting.py`); `tests/e2e/` spawns
the server for the same rules over real pipes.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from mcp_types import jsonrpc_message_adapter

from cursor_cloud_agents.server.protocol.nesting import MAX_DEPTH
from cursor_cloud_agents.server.protocol.wire import PARSE_ERROR, admit

INVALID_REQUEST = -32600


def answers_of(line: bytes) -> list[tuple[Any, int]]:
    """(id, code) of each answer `admit` writes back at once for `line`."""
    _, answers = admit(line)
    return [(reply["id"], reply["error"]["code"]) for reply in map(json.loads, answers)]


def nested(depth: int, container: str) -> str:
    """A JSON value `depth` levels deep, of arrays (`[`) or objects (`{`)."""
    if container == "[":
        return "[" * depth + "]" * depth
    return '{"a":' * (depth - 1) + "{}" + "}" * (depth - 1)


@pytest.mark.parametrize(
    "line",
    [
        b"{this is not json",
        b'{"jsonrpc": "2.0", "id": 1, "method": "ping"} trailing',
        b'{"jsonrpc": "2.0", "id": 1, "method": "ping"}{"jsonrpc": "2.0", "id": 2, "method": "ping"}',
        b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"x": NaN}}',
        b"Infinity",
        b"[1,]",
        b"\xff\xfe\x00garbage",
        b"\x0c",
        b"'single quotes'",
        b'"unterminated',
        b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"x": "a\x01b"}}',
    ],
    ids=[
        "broken",
        "trailing",
        "two-messages",
        "nan",
        "infinity",
        "trailing-comma",
        "bad-utf8",
        "form-feed",
        "single-quotes",
        "unterminated",
        "raw-control-char",
    ],
)
def test_a_line_that_is_not_json_is_answered_parse_error_with_a_null_id(line: bytes) -> None:
    """B-10, JSON-RPC 2.0: a line that is not JSON is answered -32700 with id null (it used to be dropped, or
    handed to the SDK, which dropped it and logged it whole at DEBUG)."""
    admitted, _ = admit(line)
    assert admitted is None
    assert answers_of(line) == [(None, PARSE_ERROR)]


@pytest.mark.parametrize(
    ("line", "request_id"),
    [
        (b"5", None),
        (b'"ping"', None),
        (b"null", None),
        (b"{}", None),
        (b'{"jsonrpc": "2.0"}', None),
        (b'{"jsonrpc": "2.0", "method": 5}', None),
        (b'{"jsonrpc": "2.0", "method": "notifications/x", "params": 3}', None),
        (b'{"jsonrpc": "2.0", "id": 3, "method": 5}', 3),
        (b'{"jsonrpc": "2.0", "id": "a", "method": "ping", "params": [1]}', "a"),
        (b'{"jsonrpc": "1.0", "id": 4, "method": "ping"}', 4),
        (b'{"jsonrpc": "2.0", "id": 3, "result": 5}', None),
        (b'{"jsonrpc": "2.0", "id": 3, "error": "no"}', None),
        (b'{"jsonrpc": "2.0", "id": [1], "method": "ping"}', None),
    ],
    ids=[
        "number",
        "string",
        "null",
        "empty-object",
        "no-method",
        "method-number",
        "notification-params",
        "request-method-number",
        "params-array",
        "jsonrpc-1.0",
        "response-result-number",
        "response-error-string",
        "id-array",
    ],
)
def test_json_that_is_not_a_valid_message_is_refused_for_its_id_or_a_null_one(line: bytes, request_id: Any) -> None:
    """B-13: what parses but is not a message the SDK reads is answered -32600, for the id of a request that
    has a usable one, else null (a response's id names one of the server's requests: it is never echoed).
    Notifications and shapeless objects used to get no answer at all."""
    admitted, _ = admit(line)
    assert admitted is None
    assert answers_of(line) == [(request_id, INVALID_REQUEST)]


def test_a_batch_is_refused_once_for_each_id_it_carries() -> None:
    """B-12: a batch gets one -32600 per distinct request id in it, in order (it used to get one null-id
    answer, so the client waited for each of its requests until its own timeout)."""
    batch: list[Any] = [
        {"jsonrpc": "2.0", "id": 1, "method": "ping"},
        {"jsonrpc": "2.0", "id": "b", "method": "tools/list"},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 9, "result": {}},
        5,
        {"jsonrpc": "2.0", "id": 1, "method": "ping"},
    ]
    assert answers_of(json.dumps(batch).encode()) == [(1, INVALID_REQUEST), ("b", INVALID_REQUEST)]


@pytest.mark.parametrize("batch", [b"[]", b'[{"jsonrpc": "2.0", "method": "notifications/initialized"}]', b"[1, 2]"])
def test_a_batch_without_a_request_id_is_refused_once_with_a_null_id(batch: bytes) -> None:
    """B-12: a batch that carries no id is still answered, once, with a null id."""
    assert answers_of(batch) == [(None, INVALID_REQUEST)]


def deep_request(where: str, depth: int, container: str = "[") -> tuple[bytes, Any]:
    """A tools/call whose member `where` holds a value `depth` levels deep (counted from the message), and the
    id it must be refused for."""
    inner = nested(depth - 3, container)  # the message, params and arguments are the first three levels
    head = '{"jsonrpc": "2.0", "id": 41, "method": "tools/call", '
    if where == "arguments":
        return (head + '"params": {"name": "cursor_list_agents", "arguments": {"x": ' + inner + "}}}").encode(), 41
    if where == "meta":
        return (head + '"params": {"name": "x", "_meta": {"deep": ' + inner + "}}}").encode(), 41
    if where == "unknown-member-before-id":
        return ('{"jsonrpc": "2.0", "extra": [[' + inner + ']], "method": "ping", "id": "late"}').encode(), "late"
    if where == "id":
        return ('{"jsonrpc": "2.0", "method": "ping", "id": [[' + inner + "]]}").encode(), None
    if where == "method":
        return ('{"jsonrpc": "2.0", "id": 42, "method": [[' + inner + "]]}").encode(), 42
    if where == "batch":
        return ('[{"jsonrpc": "2.0", "id": 43, "method": "ping", "params": {"a": ' + inner + "}}]").encode(), None
    raise AssertionError(where)


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 200, 1_000, 100_000])
@pytest.mark.parametrize("where", ["arguments", "meta", "unknown-member-before-id", "id", "method", "batch"])
@pytest.mark.parametrize("container", ["[", "{"], ids=["arrays", "objects"])
def test_a_message_nested_past_the_limit_is_refused_at_once_for_its_id(where: str, depth: int, container: str) -> None:
    """B-14: a message nested deeper than MAX_DEPTH, in any member, is refused -32600 for its id (null where its
    id is not usable) without being parsed: 1,000 levels raised RecursionError (no answer, a traceback), and
    200 levels were dropped by the SDK's own parser without a word."""
    line, request_id = deep_request(where, depth, container)
    started = time.perf_counter()
    admitted, _ = admit(line)
    assert admitted is None
    assert answers_of(line) == [(request_id, INVALID_REQUEST)]
    assert time.perf_counter() - started < 2.0


def test_the_id_of_a_deep_message_is_cleaned_of_lone_surrogates_as_any_id_is() -> None:
    """B-14 with B-03: the id read from the top level of a deep message is the one a whole message would give."""
    deep = nested(MAX_DEPTH + 5, "[")
    line = ('{"jsonrpc": "2.0", "method": "ping", "params": {"a": ' + deep + '}, "id": "x\\ud800"}').encode()
    assert answers_of(line) == [("x\N{REPLACEMENT CHARACTER}", INVALID_REQUEST)]


def test_a_message_exactly_at_the_depth_limit_is_handed_on_as_the_sdk_reads_it() -> None:
    """B-14: the limit is the limit: MAX_DEPTH levels pass, and the SDK reads what is handed on."""
    line, _ = deep_request("arguments", MAX_DEPTH)
    admitted, answers = admit(line)
    assert answers == [] and admitted is not None
    jsonrpc_message_adapter.validate_json(admitted, by_name=False)


@pytest.mark.parametrize(
    "arguments",
    [
        '{"name": "caf\\ud83d"}',
        '{"caf\\udc00": "key"}',
        '{"list": [{"deep": ["\\udfff"]}]}',
    ],
    ids=["value", "key", "nested"],
)
def test_a_lone_surrogate_in_any_string_becomes_a_replacement_character(arguments: str) -> None:
    """B-03 (issue 13), every string: what the SDK gets has no lone surrogate (it could not be written as
    UTF-8) and reads as a message; a paired escape stays the character it spells."""
    line = '{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "x", "arguments": ' + arguments
    admitted, answers = admit((line + ', "_meta": {"e": "\\ud83d\\ude00"}}}').encode())
    assert answers == [] and admitted is not None
    admitted.encode("utf-8")  # raises on a lone surrogate
    assert "\N{REPLACEMENT CHARACTER}" in admitted and "\N{GRINNING FACE}" in admitted
    jsonrpc_message_adapter.validate_json(admitted, by_name=False)
