"""The stdio wire over real pipes (issue 23): every line answered, lines split on CR, LF and CRLF, depth refused
at once, and nothing of what the server could not read in its log, even at DEBUG.

The server is spawned in simulated mode with its stderr kept in a file, and spoken to with raw bytes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Generator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from cursor_cloud_agents.redact import ENCODINGS
from tests.e2e.wire import INITIALIZE, answer, end, send

SECRET = "Zanzibar-env-value-0123456789"
"""An env_vars value in lines the server cannot read: no call ever registers it with the masker."""


@contextmanager
def logged_server(tmp_path: Path) -> Generator[tuple[subprocess.Popen[bytes], Path], None, None]:
    """The server at DEBUG, its stderr in a file (read after it ends)."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path),
        "CURSOR_MCP_FIXTURE": "1",
        "CURSOR_MCP_LOG_LEVEL": "DEBUG",
        "CURSOR_MCP_STATE_DIR": str(tmp_path / "state"),
    }
    log = tmp_path / "stderr.log"
    with log.open("wb") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", "cursor_cloud_agents"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            env=env,
        )
        try:
            yield process, log
        finally:
            end(process)


def write(process: subprocess.Popen[bytes], raw: bytes) -> None:
    assert process.stdin is not None
    process.stdin.write(raw)
    process.stdin.flush()


def handshake(process: subprocess.Popen[bytes]) -> None:
    send(process, json.dumps(INITIALIZE).encode())
    assert "result" in answer(process)
    send(process, b'{"jsonrpc": "2.0", "method": "notifications/initialized"}')


def ping(request_id: Any) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "ping"}).encode()


def answers_by_id(process: subprocess.Popen[bytes], count: int) -> dict[Any, dict[str, Any]]:
    replies = [answer(process) for _ in range(count)]
    return {reply["id"]: reply for reply in replies}


def test_cr_lf_and_crlf_each_end_a_message_over_the_pipe_and_pieces_are_joined(tmp_path: Path) -> None:
    """B-11: two pings separated by a bare CR were both lost (read as one line, not JSON); now each separator
    ends a message, and a message written in pieces is read whole."""
    with logged_server(tmp_path) as (process, _):
        handshake(process)
        write(process, ping(1) + b"\r" + ping(2) + b"\r\n" + ping(3) + b"\n\r\n")
        whole = ping(4)
        write(process, whole[:5])
        write(process, whole[5:17])
        write(process, whole[17:] + b"\r")
        replies = answers_by_id(process, 4)
    assert sorted(replies) == [1, 2, 3, 4]
    assert all("result" in reply for reply in replies.values())


def deep_call(request_id: int, depth: int) -> bytes:
    arguments = '{"limit": 1, "deep": ' + "[" * depth + "]" * depth + "}"
    params = '{"name": "cursor_list_agents", "arguments": ' + arguments + "}"
    return (
        '{"jsonrpc": "2.0", "method": "tools/call", "params": ' + params + ', "id": ' + str(request_id) + "}"
    ).encode()


def test_a_deep_request_is_answered_for_its_id_at_once_without_a_traceback(tmp_path: Path) -> None:
    """B-14: 200 levels got no answer (the SDK's parser dropped it) and 5,000 levels a RecursionError
    traceback and no answer; each is refused -32600 for its id, and the server goes on."""
    with logged_server(tmp_path) as (process, log):
        handshake(process)
        send(process, deep_call(51, 200))
        send(process, deep_call(52, 5_000))
        send(process, deep_call(53, 50_000))
        send(process, ping(54))
        replies = answers_by_id(process, 4)
        process.stdin.close()  # type: ignore[union-attr]  # the end of input ends the server
        assert process.wait(5) == 0
    assert [replies[n]["error"]["code"] for n in (51, 52, 53)] == [-32600] * 3
    assert "result" in replies[54]
    assert "Traceback" not in log.read_text(encoding="utf-8", errors="replace")


def secret_lines() -> list[bytes]:
    """Every kind of line the server refuses or drops, each carrying the secret."""
    env = {"env_vars": {"TOKEN": SECRET}}
    call = {"jsonrpc": "2.0", "id": 61, "method": "tools/call", "params": {"name": "cursor_create_agent"}}
    return [
        b'{"jsonrpc": "2.0", "id": 60, "method": "tools/call", "params": {"env_vars": {"TOKEN": "' + SECRET.encode(),
        json.dumps({"jsonrpc": "1.0", "id": 62, "method": "tools/call", "params": env}).encode(),
        json.dumps([{"jsonrpc": "2.0", "id": 63, "method": "ping", "params": env}]).encode(),
        json.dumps({"jsonrpc": "2.0", "id": 64, "method": "ping", "params": env | {"deep": "DEEP"}})
        .replace('"DEEP"', "[" * 300 + "]" * 300)
        .encode(),
        json.dumps(call | {"params": {"name": "cursor_create_agent", "arguments": env | {"bogus": 1}}}).encode(),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/progress", "params": env}).encode(),
    ]


def test_nothing_the_server_could_not_read_reaches_its_log_at_debug(tmp_path: Path) -> None:
    """S-13: at DEBUG, a line the SDK could not parse was logged with its start and end (`transport yielded
    exception`), and the ninth notification before the first request whole (`dropped a frame`), each with
    the env_vars values it carried, which no call had registered with the masker. Neither the secret nor
    any of its encodings is in the log now."""
    with logged_server(tmp_path) as (process, log):
        for _ in range(10):
            send(process, json.dumps({"jsonrpc": "2.0", "method": "notifications/x", "params": {"e": SECRET}}).encode())
        handshake(process)
        for line in secret_lines():
            send(process, line)
        send(process, ping(69))
        ids = {answer(process)["id"] for _ in range(6)}
        process.stdin.close()  # type: ignore[union-attr]  # the end of input ends the server
        assert process.wait(5) == 0
    assert ids == {None, 61, 62, 63, 64, 69}
    text = log.read_text(encoding="utf-8", errors="replace")
    assert "transport yielded exception" not in text  # nothing reached the SDK that it could not read
    leaked = [encoding.variant for encoding in ENCODINGS if encoding.encode(SECRET) in text]
    assert leaked == [] and SECRET[:12] not in text
