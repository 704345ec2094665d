"""The stdio wire (issue 13, first cases): every request answered, huge lines refused in bounded memory,
signals end the server at once. Each case was measured never answered (or never exiting) before.

The server is spawned in simulated mode and spoken to with raw bytes, as a hostile client would.
"""

from __future__ import annotations

import json
import signal
import subprocess
import time

import pytest

from tests.e2e.wire import INITIALIZE, answer, initialized, send, server, still_in_step


@pytest.mark.parametrize(
    "raw",
    [
        b'{"id": 7, "method": "ping"}',
        b'{"jsonrpc": "1.0", "id": 7, "method": "ping"}',
        b'{"jsonrpc": "2.0", "id": 7, "method": "tools/list", "params": [1, 2]}',
        b'[{"jsonrpc": "2.0", "id": 7, "method": "ping"}]',
    ],
    ids=["no-jsonrpc", "jsonrpc-1.0", "params-array", "batch"],
)
def test_a_request_the_protocol_refuses_is_answered_invalid_request(
    answering: subprocess.Popen[bytes], raw: bytes
) -> None:
    """B-02/B-03, JSON-RPC 2.0: an invalid request gets -32600 for its id (a batch: for the id it carries), not
    silence."""
    send(answering, raw)
    reply = answer(answering)
    still_in_step(answering)
    assert reply["error"]["code"] == -32600
    assert reply["id"] == 7


def test_initialize_after_a_byte_order_mark_is_answered() -> None:
    """B-03: some Windows tools write a UTF-8 BOM first; it is stripped."""
    with server() as process:
        send(process, b"\xef\xbb\xbf" + json.dumps(INITIALIZE).encode())
        reply = answer(process)
    assert reply["id"] == 1 and "result" in reply


def test_a_lone_surrogate_escape_in_an_argument_is_answered(answering: subprocess.Popen[bytes]) -> None:
    """B-03: Node's JSON.stringify writes `\\ud83d` for a split emoji: answered, not dropped."""
    arguments = b'{"name": "cursor_list_agents", "arguments": {"name": "caf\\ud83d"}}'
    call = b'{"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": ' + arguments + b"}"
    send(answering, call)
    reply = answer(answering)
    still_in_step(answering)
    assert reply["id"] == 9 and "result" in reply


def test_a_64_mib_line_is_refused_without_being_read_whole() -> None:
    """B-04 (issue 13): a line over 4 MiB is answered -32600 for its id; RSS grows by at most 32 MiB."""
    with server() as process:
        initialized(process)
        before = rss_kib(process.pid)
        head = b'{"jsonrpc": "2.0", "id": 11, "method": "tools/call", "params": {"name": "x", "arguments": {"a": "'
        assert process.stdin is not None
        process.stdin.write(head)
        chunk = b"x" * (1024 * 1024)
        for _ in range(64):
            process.stdin.write(chunk)
        send(process, b'"}}}')
        reply = answer(process)
        grown = peak_kib(process.pid) - before
        send(process, b'{"jsonrpc": "2.0", "id": 12, "method": "ping"}')
        after = answer(process)
    assert reply["id"] == 11 and reply["error"]["code"] == -32600
    assert after["id"] == 12 and "result" in after
    assert grown <= 32 * 1024, f"RSS grew by {grown} KiB"


def status_kib(pid: int, field: str) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise AssertionError(field)


def rss_kib(pid: int) -> int:
    return status_kib(pid, "VmRSS")


def peak_kib(pid: int) -> int:
    return status_kib(pid, "VmHWM")


@pytest.mark.parametrize(("number", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_ends_the_server_within_a_second(number: signal.Signals, status: int) -> None:
    """Claude Code stops a server with SIGINT then SIGTERM 100 ms later: it was still there after 40 s."""
    with server() as process:
        initialized(process)
        started = time.monotonic()
        process.send_signal(number)
        code = process.wait(5)
        took = time.monotonic() - started
    assert code == status and took < 1.0


def test_a_closed_stdout_ends_the_server_quietly() -> None:
    """A client that closes our stdout got a BrokenPipeError traceback and exit 1; now a quiet end."""
    with server() as process:
        initialized(process)
        assert process.stdout is not None
        process.stdout.close()
        send(process, b'{"jsonrpc": "2.0", "id": 3, "method": "ping"}')
        code = process.wait(5)
    assert code == 0


def test_junk_unknown_methods_and_tools_are_answered_and_the_server_goes_on(
    answering: subprocess.Popen[bytes],
) -> None:
    """B-01, B-06: a line that is not JSON (-32700, id null), an unknown method, a call without a name and an
    unknown tool are answered (an error, or isError for a tool) and the next ping still is."""
    send(answering, b"{this is not json")
    not_json = answer(answering)
    send(answering, b'{"jsonrpc": "2.0", "id": 21, "method": "no/such/method"}')
    unknown_method = answer(answering)
    send(answering, b'{"jsonrpc": "2.0", "id": 22, "method": "tools/call", "params": {"arguments": {}}}')
    no_name = answer(answering)
    send(answering, b'{"jsonrpc": "2.0", "id": 23, "method": "tools/call", "params": {"name": "cursor_nope"}}')
    unknown_tool = answer(answering)
    send(answering, b'{"jsonrpc": "2.0", "id": 24, "method": "ping"}')
    ping = answer(answering)
    assert not_json["id"] is None and not_json["error"]["code"] == -32700
    assert unknown_method["id"] == 21 and unknown_method["error"]["code"] == -32601
    assert no_name["id"] == 22 and no_name["error"]["code"] in (-32600, -32602)
    assert unknown_tool["id"] == 23 and unknown_tool["result"]["isError"] is True
    assert ping["id"] == 24 and "result" in ping
