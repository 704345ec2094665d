"""The server answers `initialize` whatever the state directory holds (issue 34): F-77, F-78.

The previous version's `creations.jsonl` and `ledger.jsonl` are migrated on the server's first read of the
store, at start-up. Before, a FIFO at either name held the server before `initialize` for ever, and a folder,
or a ledger holding `{"at": 1e999999}`, killed it with a traceback. The real server is spawned over stdio,
three at once (one per fault), each answered or failed within a bounded time.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import anyio
import pytest

pytestmark = pytest.mark.anyio

START_UP_SECONDS = 20.0
"""A clean start-up takes 1.1-1.7 s idle and 3.5-4.7 s with the shared 2-core machine at a load of 11 (measured
with `bench/state_dir_startup.py`): this bound is for the process, not the store's read, whose 2 s are held in
`tests/core/test_migration.py`. The faults this catches never answer, or exit at once with a traceback."""
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "i34", "version": "1"}},
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
TOOLS_LIST = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
CASES = [("creations.jsonl", "fifo"), ("ledger.jsonl", "folder"), ("ledger.jsonl", "1e999999")]
"""Each fault once, each name at least once, in three processes started together (every name with every fault
is held in-process by `tests/server/test_app.py`: a process start-up costs seconds here)."""


def hostile_state_dir(root: Path, name: str, kind: str) -> Path:
    folder = root / f"{name}-{kind}"
    folder.mkdir()
    if kind == "fifo":
        os.mkfifo(folder / name)
    elif kind == "folder":
        (folder / name).mkdir()
    else:
        (folder / name).write_text('{"at": 1e999999, "fingerprint": "f", "state": "sent"}\n')
    return folder


async def initialize(state_dir: Path, said: str) -> tuple[dict[str, object] | None, float, str]:
    """The server's answer to `initialize` (None when it exited first), the seconds from spawn, and stderr read
    until it holds `said`: a client's start-up (`initialize`, then `tools/list`) is answered first, the store is
    read just after it (`WARM_UP_AFTER_LIST_SECONDS`), so what it could not read is said then, unasked."""
    env = {"PATH": "/usr/bin:/bin", "CURSOR_MCP_STATE_DIR": str(state_dir), "CURSOR_MCP_LOG_LEVEL": "WARNING"}
    env |= {name: os.environ[name] for name in ("PYTHONPATH",) if name in os.environ}  # a tree under test
    started = time.perf_counter()
    command = [sys.executable, "-m", "cursor_cloud_agents"]
    async with await anyio.open_process(command, env=env, stderr=subprocess.PIPE) as process:
        assert process.stdin is not None and process.stdout is not None and process.stderr is not None
        await process.stdin.send((json.dumps(INITIALIZE) + "\n").encode())
        line, answer, seconds, errors = b"", None, 0.0, b""
        with anyio.move_on_after(START_UP_SECONDS):
            try:
                while not line.endswith(b"\n"):
                    line += await process.stdout.receive()
                answer = json.loads(line)
                seconds = time.perf_counter() - started
                for message in (INITIALIZED, TOOLS_LIST):
                    await process.stdin.send((json.dumps(message) + "\n").encode())
                async for chunk in process.stderr:
                    errors += chunk
                    if said.encode() in errors:
                        break
            except anyio.EndOfStream:
                pass
        if process.returncode is None:
            process.kill()  # what it could not read was said: its stop is not under test
        with anyio.move_on_after(5):
            async for chunk in process.stderr:
                errors += chunk
    return answer, seconds, errors.decode("utf-8", "replace")


async def test_old_state_files_that_are_a_fifo_a_folder_or_out_of_range_never_stop_initialize(
    tmp_path: Path,
) -> None:
    """F-77, F-78 (issue 34): for each fault, the spawned server answers `initialize`, and stderr names what
    it could not read (the file, for a FIFO or a folder; the line, for 1e999999). Slower than 1 s: three real
    server processes start."""
    found: dict[tuple[str, str], tuple[dict[str, object] | None, float, str]] = {}

    def said(name: str, kind: str) -> str:
        return f"{name} cannot be migrated" if kind != "1e999999" else "could not be read"

    async def one(name: str, kind: str) -> None:
        found[name, kind] = await initialize(hostile_state_dir(tmp_path, name, kind), said(name, kind))

    async with anyio.create_task_group() as group:
        for name, kind in CASES:
            group.start_soon(one, name, kind)
    for (name, kind), (answer, _seconds, errors) in found.items():
        assert answer is not None and "result" in answer, (name, kind, errors[-2000:])
        assert "Traceback" not in errors, (name, kind, errors[-2000:])
        assert said(name, kind) in errors, (name, kind, errors[-2000:])
