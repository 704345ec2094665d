"""Speaking to a spawned server over its stdio with raw bytes, as a hostile client would: the helpers of the
wire tests (`test_wire*.py`) and of `bench/wire.py`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Generator
from contextlib import contextmanager
from typing import Any

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "wire-test", "version": "1"},
    },
}


@contextmanager
def server() -> Generator[subprocess.Popen[bytes], None, None]:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": "/tmp", "CURSOR_MCP_FIXTURE": "1"}
    command = [sys.executable, "-m", "cursor_cloud_agents"]
    process = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env
    )
    try:
        yield process
    finally:
        end(process)


def end(process: subprocess.Popen[bytes]) -> None:
    """Stop a spawned server if it still runs, and close its pipes."""
    if process.poll() is None:
        process.kill()
    process.wait(5)
    for pipe in (process.stdin, process.stdout):
        if pipe is not None and not pipe.closed:
            try:
                pipe.close()
            except BrokenPipeError:
                pass  # the server is gone: what was buffered for it does not matter


def send(process: subprocess.Popen[bytes], raw: bytes) -> None:
    assert process.stdin is not None
    process.stdin.write(raw + b"\n")
    process.stdin.flush()


def answer(process: subprocess.Popen[bytes]) -> dict[str, Any]:
    assert process.stdout is not None
    line = process.stdout.readline()
    assert line, "the server wrote nothing back"
    message: dict[str, Any] = json.loads(line)
    return message


def initialized(process: subprocess.Popen[bytes]) -> None:
    send(process, json.dumps(INITIALIZE).encode())
    assert "result" in answer(process)
    send(process, b'{"jsonrpc": "2.0", "method": "notifications/initialized"}')


def still_in_step(process: subprocess.Popen[bytes]) -> None:
    """The server answers a ping of its own next: no answer of the case is left unread, and it goes on."""
    marker = "in-step"
    send(process, json.dumps({"jsonrpc": "2.0", "id": marker, "method": "ping"}).encode())
    reply = answer(process)
    assert reply["id"] == marker and "result" in reply, reply
