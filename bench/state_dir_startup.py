"""Seconds from spawning the server to its answer to `initialize`, for a clean state directory and for each
fault of issue 34 (F-77, F-78, F-79), and the server's peak memory (VmHWM) when it answered.

Run: `.venv/bin/python bench/state_dir_startup.py` (one process at a time; the machine's load shows in the
clean row, which the others are read against).
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import tempfile
import time
from pathlib import Path

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}},
}
BOUND_SECONDS = 30.0


def prepare(folder: Path, case: str) -> None:
    name, _, kind = case.partition(":")
    path = folder / name
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "1e999999":
        path.write_text('{"at": 1e999999}\n')
    elif kind == "40MB-line":
        with path.open("wb") as file:
            for _ in range(40):
                file.write(b"x" * 1024 * 1024)


def peak_mib(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def measure(case: str) -> str:
    with tempfile.TemporaryDirectory() as directory:
        if case != "clean":
            prepare(Path(directory), case)
        env = {"PATH": "/usr/bin:/bin", "CURSOR_MCP_STATE_DIR": directory, "CURSOR_MCP_LOG_LEVEL": "WARNING"}
        started = time.perf_counter()
        process = subprocess.Popen(
            [sys.executable, "-m", "cursor_cloud_agents"],
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write((json.dumps(INITIALIZE) + "\n").encode())
        process.stdin.flush()
        ready, _, _ = select.select([process.stdout], [], [], BOUND_SECONDS)
        answered = bool(ready) and b'"result"' in process.stdout.readline()
        seconds = time.perf_counter() - started
        memory = peak_mib(process.pid)
        process.kill()
        process.wait()
    outcome = f"answered in {seconds:5.2f} s" if answered else f"NO ANSWER after {seconds:5.2f} s"
    return f"{case:<30} {outcome}   peak {memory or 0:6.1f} MiB"


def main() -> None:
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    cases = ["clean"] + [
        f"{name}:{kind}"
        for name in ("creations.jsonl", "ledger.jsonl")
        for kind in ("fifo", "folder", "1e999999", "40MB-line")
    ]
    for case in cases:
        print(measure(case), flush=True)


if __name__ == "__main__":
    main()
