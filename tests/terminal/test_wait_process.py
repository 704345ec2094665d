"""`wait` as a coding agent's background shell runs it (issue 24): a real process under a pipe and under a
pseudo-terminal, its exit codes, and Ctrl-C.

Against the embedded simulator (`--simulated`, the demo world, whose running agent is fixed by its seed).
Every read of the process's output is bounded by a deadline.
"""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
import time

RUNNING_AGENT = "bc-7a024204-f7c1-4d87-8da5-e709d4713d60"
"""The demo world's running agent (a 10-minute run)."""
ENV = {"PATH": os.defpath, "HOME": "/nonexistent", "COLUMNS": "160", "CURSOR_MCP_STATE_DIR": "memory"}
"""Each command its own fresh world (`CURSOR_MCP_STATE_DIR=memory`); the lasting one is tested in test_lasting.py."""


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "cursor_cloud_agents", "wait", "--simulated", *args]


def test_under_a_pipe_wait_prints_only_the_report_and_exits_0_when_the_run_finished() -> None:
    """Issue 24: stdout a pipe (a background shell's): nothing but the report, no control codes; exit 0."""
    # At 1000 times real time the 10-minute run ends in about 0.6 s: the report is the same at any speed.
    done = subprocess.run(
        command(RUNNING_AGENT, "--speed", "1000"), env=ENV, capture_output=True, timeout=120, stdin=subprocess.DEVNULL
    )
    out = done.stdout.decode()
    assert done.returncode == 0, done.stderr
    assert out.startswith("wait ended after ") and f"1 of 1 runs ended (FINISHED {RUNNING_AGENT}:" in out
    assert "\nFINISHED after 10m 2s · " + RUNNING_AGENT in out
    assert "\x1b" not in out and "\r" not in out and "waiting for" not in out


def test_a_timeout_exits_124() -> None:
    """Issue 24: `--timeout` reached first: exit 124, as timeout(1), with the command to wait again."""
    done = subprocess.run(
        command(RUNNING_AGENT, "--timeout", "60", "--speed", "600"),
        env=ENV,
        capture_output=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert (
        done.returncode == 124 and b"wait again with: cursor-cloud-agents wait " + RUNNING_AGENT.encode() in done.stdout
    )


def test_a_usage_error_exits_2() -> None:
    """Issue 24: a malformed AGENT[:RUN] is a usage error."""
    done = subprocess.run(command("bc-1:run-2"), env=ENV, capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and b"not an agent id" in done.stderr


def read_until(master: int, wanted: bytes, seen: bytearray, seconds: float) -> bool:
    """Read the pseudo-terminal into `seen` until `wanted` shows, the other end closes, or `seconds` pass."""
    deadline = time.monotonic() + seconds
    while wanted not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            break
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the process closed the terminal
            return wanted in seen
        if not chunk:
            break
        seen += chunk
    return wanted in seen


def test_on_a_terminal_one_progress_line_then_ctrl_c_exits_130_and_says_how_to_wait_again() -> None:
    """Issue 24: stdout a terminal: one progress line, redrawn in place; Ctrl-C stops waiting (never the run),
    exits 130 like the other commands and says how to wait again."""
    master, slave = pty.openpty()
    process = subprocess.Popen(command(RUNNING_AGENT), env=ENV, stdin=slave, stdout=slave, stderr=slave)
    os.close(slave)
    seen = bytearray()
    try:
        assert read_until(master, b"waiting for any of 1 runs: 0 ended", seen, 60), bytes(seen)
        process.send_signal(signal.SIGINT)
        read_until(master, b"\x00never", seen, 30)
        code = process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
        os.close(master)
    shown = bytes(seen).decode(errors="replace")
    assert code == 130 and "The runs go on. Wait again with: cursor-cloud-agents wait " + RUNNING_AGENT in shown
    assert "\r" in shown or "\x1b[" in shown  # the line is redrawn in place, not printed line after line
