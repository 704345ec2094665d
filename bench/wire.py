"""Bench: the stdio wire's bounds (issue 13), on the spawned server in simulated mode, as the tests drive it.

Two figures, each the median of `--runs` fresh servers: the peak RSS growth while a 64 MiB line arrives
(target <= 32 MiB; the line is refused -32600 without being read whole), and the time from SIGINT to the
process's exit (target < 1 s; exit status 130).

Run: `.venv/bin/python bench/wire.py [--runs 5]`
"""

from __future__ import annotations

import argparse
import signal
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the tests' wire helpers, used as they are

from tests.e2e.test_wire import answer, initialized, peak_kib, rss_kib, send, server

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


def main(runs: int) -> None:
    growth = [line_growth_mib() for _ in range(runs)]
    exits = [sigint_exit_seconds() for _ in range(runs)]
    print(
        f"64 MiB line: peak RSS +{statistics.median(growth):.1f} MiB median of {runs} "
        f"(max {max(growth):.1f}; target <= 32)"
    )
    print(f"SIGINT to exit: {statistics.median(exits):.2f} s median of {runs} (max {max(exits):.2f}; target < 1)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    main(parser.parse_args().runs)
