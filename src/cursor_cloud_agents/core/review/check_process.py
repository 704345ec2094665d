"""The check command as a process: started through `check_supervisor.py`, waited for by its own exit, its output
read from a file at the end, and how many run at once.

The server waits on the supervisor's one-line report on a pipe only the supervisor holds, never on the
command's output: a background child that keeps the output open cannot hold the answer back. When this side
gives up first (the tool call cancelled), it tells the supervisor to stop by closing its standard input, which
ends every descendant; a supervisor that does not answer within its grace is killed with its process group.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import anyio
import anyio.abc
from anyio.lowlevel import RunVar

from cursor_cloud_agents.core.review.check_place import CheckFolder

SUPERVISOR = Path(__file__).with_name("check_supervisor.py")
END_GRACE_SECONDS = 6.0
"""What the supervisor may take past the check's timeout to end every descendant and report (its own bound on
ending them is 5 s)."""
REPORT_BYTES = 4096
SHELL = "/bin/sh"

_slots: RunVar[anyio.CapacityLimiter] = RunVar("check_slots")


def check_slots(at_once: int) -> anyio.CapacityLimiter:
    """The one limiter of this event loop's checks, holding `at_once` of them (the latest setting wins)."""
    try:
        limiter = _slots.get()
    except LookupError:
        limiter = anyio.CapacityLimiter(at_once)
        _slots.set(limiter)
    if limiter.total_tokens != at_once:
        limiter.total_tokens = at_once
    return limiter


@dataclass(frozen=True)
class Finished:
    """How the command ended and what it printed."""

    exit_code: int | None
    """Negative: ended by that signal. None: stopped at the timeout or never reported."""
    timed_out: bool
    reaper: str
    """"subreaper" (every descendant found and ended) or "session" (its session and group only), "" unknown."""
    output_bytes: int
    tail: bytes
    problem: str = ""
    """Why the supervisor gave no report, if it did not."""


async def run_supervised(
    command: str, sandbox: Sequence[str], place: CheckFolder, env: dict[str, str], timeout: float, tail_bytes: int
) -> Finished:
    """Run `command` in `place` with exactly `env`, for at most `timeout` seconds, every descendant ended after."""
    argv = [
        sys.executable, "-I", "-S", str(SUPERVISOR), repr(max(timeout, 0.0)), str(place.output),
        "--", *sandbox, SHELL, "-c", command,
    ]  # fmt: skip
    process = await anyio.open_process(
        argv,
        cwd=place.tree,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    said = errors = b""
    try:
        assert process.stdout is not None
        with anyio.move_on_after(timeout + END_GRACE_SECONDS):
            said = await _read_at_most(process.stdout, REPORT_BYTES)
            await process.wait()
    finally:
        with anyio.CancelScope(shield=True):
            await _stop(process)
            errors = await _read_at_most(process.stderr, REPORT_BYTES) if process.stderr is not None else b""
            await process.aclose()
    size, tail = await anyio.to_thread.run_sync(_tail, place.output, tail_bytes)
    return _finished(said, errors, size, tail)


def _finished(said: bytes, errors: bytes, size: int, tail: bytes) -> Finished:
    try:
        report = json.loads(said.decode(errors="replace").strip().splitlines()[-1])
    except (ValueError, IndexError):
        problem = errors.decode(errors="replace").strip()[-300:] or "no report"
        return Finished(None, False, "", size, tail, f"the check's supervisor gave no report: {problem}")
    signalled = report.get("signal")
    code = -int(signalled) if signalled else report.get("exit")
    timed_out = bool(report.get("timed_out") or report.get("stopped"))
    return Finished(code if not timed_out else None, timed_out, str(report.get("reaper", "")), size, tail)


async def _stop(process: anyio.abc.Process) -> None:
    """End the supervisor if it still runs: first by closing its input (it then ends every descendant and
    reports), then, past its grace, by killing its process group."""
    if process.returncode is not None:
        return
    if process.stdin is not None:
        await process.stdin.aclose()
    with anyio.move_on_after(END_GRACE_SECONDS):
        await process.wait()
        return
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass  # it ended between the wait and the kill
    await process.wait()


async def _read_at_most(stream: anyio.abc.ByteReceiveStream, limit: int) -> bytes:
    data = bytearray()
    try:
        while len(data) < limit:
            data += await stream.receive(limit - len(data))
    except (anyio.EndOfStream, anyio.BrokenResourceError, anyio.ClosedResourceError):
        pass
    return bytes(data)


def _tail(path: Path, limit: int) -> tuple[int, bytes]:
    """The size of the output file and its last `limit` bytes (never more held in memory)."""
    with path.open("rb") as output:
        size = output.seek(0, os.SEEK_END)
        output.seek(max(0, size - limit))
        return size, output.read(limit)
