"""The person's check command, run on an agent's branch before the work comes home.

This runs code an agent wrote (its tests, its build scripts), so every bound is here: the command is the
person's (`CURSOR_MCP_CHECK_COMMAND`, or `--check CMD` at the terminal), never one a model writes; it runs in a
throwaway worktree of the branch's commit (removed afterwards, whatever happened), with standard input closed,
an environment without any `CURSOR_*` variable (the key above all), a timeout after which its whole process
group is killed, and its output kept to the last `TAIL_BYTES` however much it prints. The answer is passed or
failed, the exit code, the duration and the last lines, cleaned as agent text.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import anyio
import anyio.abc

from cursor_cloud_agents.core.failures import Code, ToolFailure
from cursor_cloud_agents.core.review.git import Git, GitError, without_cursor
from cursor_cloud_agents.core.untrusted import strip_hidden

TAIL_BYTES = 64 * 1024
"""The end of the command's output that is kept (the rest is counted, not held)."""
TAIL_LINES = 40
"""Lines of that end shown in an answer."""
SHELL = "/bin/sh"


@dataclass(frozen=True)
class CheckResult:
    """What the check command did on the agent's commit."""

    command: str
    commit: str
    passed: bool
    exit_code: int | None
    """None when it was stopped at its timeout."""
    timed_out: bool
    seconds: float
    output_bytes: int
    last_lines: str
    hidden_removed: int


def not_configured() -> ToolFailure:
    """The failure when the person configured no check command (a model may not supply one)."""
    return ToolFailure(
        Code.CONFIGURATION,
        "No check command is configured. The person sets one in the server's environment "
        "(CURSOR_MCP_CHECK_COMMAND, e.g. `python3 -m pytest -q`), or runs "
        "`cursor-cloud-agents checkout AGENT --check CMD` at a terminal. A model cannot supply the command.",
    )


async def run_check(git: Git, commit: str, command: str, *, env: Mapping[str, str], timeout: float) -> CheckResult:
    """Run `command` (a shell line) in a throwaway worktree of `commit` of `git`'s repository, for at most
    `timeout` seconds; the worktree is removed afterwards whatever happened.

    Raises:
        ToolFailure: the worktree cannot be made.
    """
    parent = Path(tempfile.mkdtemp(prefix="agent-check-"))
    folder = parent / "tree"
    try:
        try:
            await git.run("worktree", "add", "--quiet", "--detach", "--", str(folder), commit)
        except GitError as exc:
            raise ToolFailure(
                Code.UPSTREAM, f"A worktree of {commit[:12]} cannot be made: {exc.stderr.strip()[:300]}"
            ) from None
        return await _run(command, commit, folder, without_cursor(env), timeout)
    finally:
        with anyio.CancelScope(shield=True):
            await git.succeeds("worktree", "remove", "--force", "--", str(folder))
            await git.succeeds("worktree", "prune")
            await anyio.to_thread.run_sync(_remove, parent)


def _remove(folder: Path) -> None:
    shutil.rmtree(folder, ignore_errors=True)


async def _run(command: str, commit: str, folder: Path, env: dict[str, str], timeout: float) -> CheckResult:
    started = time.monotonic()
    tail = _Tail()
    timed_out = False
    process = await anyio.open_process(
        [SHELL, "-c", command],
        cwd=folder,
        env=env,
        stdin=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group: the timeout kills what it started too
    )
    try:
        assert process.stdout is not None
        with anyio.move_on_after(timeout) as scope:
            await tail.read(process.stdout)
            await process.wait()
        timed_out = scope.cancelled_caught
    finally:
        if process.returncode is None:
            _kill_group(process)
            with anyio.CancelScope(shield=True):
                await process.wait()
        await process.aclose()
    text = bytes(tail.data[-TAIL_BYTES:]).decode(errors="replace")
    lines = "\n".join(text.splitlines()[-TAIL_LINES:])
    cleaned = strip_hidden(lines)
    code = None if timed_out else process.returncode
    return CheckResult(
        command,
        commit,
        code == 0,
        code,
        timed_out,
        round(time.monotonic() - started, 3),
        tail.total,
        cleaned,
        len(lines) - len(cleaned),
    )


class _Tail:
    """The last `TAIL_BYTES` of an output, and how many bytes it had in all (both kept if the read is cut)."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.total = 0

    async def read(self, stream: anyio.abc.ByteReceiveStream) -> None:
        """Read `stream` to its end."""
        try:
            while True:
                chunk = await stream.receive(1 << 16)
                self.total += len(chunk)
                self.data += chunk
                if len(self.data) > 2 * TAIL_BYTES:
                    del self.data[:-TAIL_BYTES]
        except (anyio.EndOfStream, anyio.BrokenResourceError):
            return


def _kill_group(process: anyio.abc.Process) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass  # it ended between the check and the kill
