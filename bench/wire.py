"""Bench: the stdio wire's bounds (issue 13), on the spawned server in simulated mode, as the tests drive it.

Two figures, each the median of `--runs` fresh servers: the peak RSS growth while a 64 MiB line arrives
(target <= 32 MiB; the line is refused -32600 without being read whole), and the time from SIGINT to the
process's exit (target < 1 s; exit status 130). Then what judging one line costs the wire (`admit`, issue 23:
depth, surrogates and the SDK's own validation), by kind of message, the best of seven rounds.

Run: `.venv/bin/python bench/wire.py [--runs 5]`
"""

from __future__ import annotations

import argparse
import json
import signal
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the tests' wire helpers, used as they are

from tests.e2e.test_wire import peak_kib, rss_kib
from tests.e2e.wire import answer, initialized, send, server

from cursor_cloud_agents.server.protocol.wire import admit

MIB = 1024 * 1024


def line_growth_mib() -> float:
    with server() as process:
        initialized(process)
        before = rss_kib(process.pid)
        assert process.stdin is not None
        process.stdin.write(b'{"jsonrpc": "2.0", "id": 11, "method": "tools/call", "params": {"arguments": {"a": "')
        for _ in range(64):
            process.stdin.write(b"x" * MIB)
        send(process, b'"}}}')
        assert answer(process)["error"]["code"] == -32600
        return (peak_kib(process.pid) - before) / 1024


def sigint_exit_seconds() -> float:
    with server() as process:
        initialized(process)
        started = time.monotonic()
        process.send_signal(signal.SIGINT)
        assert process.wait(5) == 130
        return time.monotonic() - started


def call(arguments: dict[str, object]) -> bytes:
    params = {"name": "cursor_create_agent", "arguments": arguments}
    return json.dumps({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": params}).encode()


LINES = {
    "ping": b'{"jsonrpc": "2.0", "id": 1, "method": "ping"}',
    "a call, 30 KiB of code as prompt": call({"prompt": "def f(x): return [x[i] for i in {1: 2}]\n" * 750}),
    "a call, 256 KiB prompt": call({"prompt": "word " * 52428}),
    "a call, 2,000 env_vars": call({"prompt": "x", "name": "n", "env_vars": {f"V{i}": "v" * 20 for i in range(2000)}}),
    "a call, 1 MiB of images": call({"prompt": "x", "images": ["data:image/png;base64," + "A" * 50000] * 20}),
    "a 100,000-level line (refused)": b'{"jsonrpc": "2.0", "id": 3, "params": ' + b"[" * 10**5 + b"]" * 10**5 + b"}",
}


def admit_microseconds(line: bytes) -> float:
    repeats = max(3, 1_000_000 // len(line))
    best = float("inf")
    for _ in range(7):
        started = time.perf_counter()
        for _ in range(repeats):
            admit(line)
        best = min(best, (time.perf_counter() - started) / repeats)
    return best * 1e6


def main(runs: int) -> None:
    growth = [line_growth_mib() for _ in range(runs)]
    exits = [sigint_exit_seconds() for _ in range(runs)]
    print(
        f"64 MiB line: peak RSS +{statistics.median(growth):.1f} MiB median of {runs} "
        f"(max {max(growth):.1f}; target <= 32)"
    )
    print(f"SIGINT to exit: {statistics.median(exits):.2f} s median of {runs} (max {max(exits):.2f}; target < 1)")
    for name, line in LINES.items():
        print(f"admit {name} ({len(line)} bytes): {admit_microseconds(line):.0f} us")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    main(parser.parse_args().runs)
