"""The stdio wire (docs/reliability.md B-02, B-04): requests whose id MCP does not allow, and over-long lines
written the way the TypeScript SDK writes them (`{...request, jsonrpc, id}`: the id last), are
answered for the right id.

The server is spawned in simulated mode and spoken to with raw bytes, as in `test_wire.py`.
"""

from __future__ import annotations

import json
import subprocess

import pytest

from cursor_cloud_agents.server.protocol.wire import MAX_LINE_BYTES
from tests.e2e.wire import answer, send, still_in_step


@pytest.mark.parametrize("request_id", ["true", "1.5", "null", '{"n": 1}'], ids=["bool", "fraction", "null", "object"])
def test_a_request_whose_id_is_not_a_string_or_an_integer_is_answered_with_a_null_id(
    answering: subprocess.Popen[bytes], request_id: str
) -> None:
    """JSON-RPC 2.0: an invalid request is answered, with a null id when its id cannot be used; the SDK took such a
    request for a notification and never answered it, so the client waited until its own timeout."""
    send(answering, b'{"jsonrpc": "2.0", "id": ' + request_id.encode() + b', "method": "ping"}')
    send(answering, b'{"jsonrpc": "2.0", "id": 2, "method": "ping"}')
    refused = answer(answering)  # the ping's answer comes first when the request is left unanswered
    assert refused["id"] is None and refused["error"]["code"] == -32600
    ping = answer(answering)
    still_in_step(answering)
    assert ping["id"] == 2 and "result" in ping


def over_long_call(*, inner_id: int, request_id: int) -> bytes:
    """A tools/call line over the cap, as the TypeScript SDK lays it out: method, params, jsonrpc, then id; its
    arguments hold an object with an "id" of their own near the start."""
    filler = "x" * (MAX_LINE_BYTES + 1024)
    params = {"name": "cursor_list_agents", "arguments": {"items": [{"id": inner_id}], "name": filler}}
    return json.dumps({"method": "tools/call", "params": params, "jsonrpc": "2.0", "id": request_id}).encode()


def test_an_over_long_request_with_its_id_last_is_refused_for_that_id_not_an_id_inside_it(
    answering: subprocess.Popen[bytes],
) -> None:
    """B-04 with the TypeScript SDK's field order: the refusal names the request's own id (before, the first
    "id" in the line's head, one nested in the arguments, was answered, and the request itself never was)."""
    send(answering, over_long_call(inner_id=5, request_id=31))
    send(answering, b'{"jsonrpc": "2.0", "id": 32, "method": "ping"}')
    refused = answer(answering)  # the ping's answer comes first when the request is left unanswered
    assert refused["id"] == 31 and refused["error"]["code"] == -32600
    ping = answer(answering)
    still_in_step(answering)
    assert ping["id"] == 32 and "result" in ping
