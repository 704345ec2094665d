"""The person's check command, run on an agent's commit before the work comes home.

This runs code an agent wrote (its tests, its build scripts, a `conftest.py`), so every bound is here, and
each lives in its own module:
- the command is the person's (`CURSOR_MCP_CHECK_COMMAND`, or `--check CMD` at the terminal), never one a
  model writes;
- it runs in a throwaway clone of the commit with its own `.git` (`core/review/check_place.py`), never in the
  person's repository or a worktree of it, removed afterwards whatever happened;
- its environment is built from an allow-list: PATH, LANG, TZ, TERM, the names the person lists in
  `CURSOR_MCP_CHECK_ENV` (never a `CURSOR_*` one), HOME and TMPDIR in the throwaway folder;
- a supervisor (`core/review/check_supervisor.py`, a child subreaper on Linux) ends every process it started at the
  timeout, and the answer waits on the command's own exit, never on an output pipe a background child holds
  (`core/review/check_process.py`);
- at most `CURSOR_MCP_CHECKS_AT_ONCE` run at once, the others wait their turn within their timeout;
- where bubblewrap works it runs with no network and a read-only view of everything but its own folder
  (`core/review/check_sandbox.py`).
The answer is passed or failed, the exit code, the duration and the last lines, cleaned as agent text. What
each platform gets is in docs/safety.md ("The check").
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import anyio

from cursor_cloud_agents.core.failures import Code, ToolFailure
from cursor_cloud_agents.core.review.check_place import CheckFolder, check_environment, clone_commit, remove
from cursor_cloud_agents.core.review.check_process import Finished, check_slots, run_supervised
from cursor_cloud_agents.core.review.check_sandbox import sandbox_for
from cursor_cloud_agents.core.review.git import Git
from cursor_cloud_agents.core.untrusted import strip_hidden

if TYPE_CHECKING:
    from cursor_cloud_agents.config import Settings

TAIL_BYTES = 64 * 1024
"""The end of the command's output that is kept (the rest is counted, not held)."""
TAIL_LINES = 40
"""Lines of that end shown in an answer."""
_COMMIT = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


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
    sandboxed: bool = False
    """Whether it ran in the sandbox (no network, the file system read-only but for its folder)."""
    reaper: str = ""
    """How its descendants were found at the end: "subreaper" (every one) or "session" (its session only)."""


def not_configured() -> ToolFailure:
    """The failure when the person configured no check command (a model may not supply one)."""
    return ToolFailure(
        Code.CONFIGURATION,
        "No check command is configured. The person sets one in the server's environment "
        "(CURSOR_MCP_CHECK_COMMAND, e.g. `python3 -m pytest -q`), or runs "
        "`cursor-cloud-agents checkout AGENT --check CMD` at a terminal. A model cannot supply the command.",
    )


@dataclass(frozen=True)
class CheckRules:
    """The person's bounds on every check (`CURSOR_MCP_CHECK_ENV`, `CURSOR_MCP_CHECKS_AT_ONCE`,
    `CURSOR_MCP_CHECK_SANDBOX`)."""

    env_names: tuple[str, ...] = ()
    """Variables passed to the check besides PATH, LANG, TZ and TERM (never a `CURSOR_*` one)."""
    at_once: int = 2
    """Checks run at once by this process; the others wait their turn within their own timeout."""
    sandbox: str = "auto"

    @classmethod
    def of(cls, settings: Settings) -> CheckRules:
        return cls(settings.check_env, settings.checks_at_once, settings.check_sandbox)


async def run_check(
    git: Git,
    commit: str,
    command: str,
    *,
    env: Mapping[str, str],
    timeout: float,
    rules: CheckRules = CheckRules(),
) -> CheckResult:
    """Run `command` (a shell line) in a throwaway clone of `commit` of `git`'s repository, with an environment
    built from `env` by the allow-list, for at most `timeout` seconds counted from the call (the wait for a free
    slot and the clone included); the clone is removed afterwards whatever happened.

    Raises:
        ToolFailure: `commit` is not a full commit id, the clone cannot be made, or a required sandbox is missing.
    """
    if not _COMMIT.fullmatch(commit):
        raise ToolFailure(Code.VALIDATION, "The check runs on a full commit id (40 or 64 hexadecimal characters)")
    started = time.monotonic()
    slots = check_slots(rules.at_once)
    acquired = False
    with anyio.move_on_after(timeout):
        await slots.acquire()
        acquired = True
    if not acquired:
        return _never_started(command, commit, rules.at_once, time.monotonic() - started)
    try:
        place = await anyio.to_thread.run_sync(CheckFolder.make)
        try:
            sandbox = await sandbox_for(rules.sandbox, env, place)  # a required one missing: refused before git runs
            await clone_commit(git, commit, place)
            left = timeout - (time.monotonic() - started)
            finished = await run_supervised(
                command, sandbox, place, check_environment(env, rules.env_names, place), left, TAIL_BYTES
            )
        finally:
            with anyio.CancelScope(shield=True):
                await remove(place)
    finally:
        slots.release()
    return _result(command, commit, finished, time.monotonic() - started, sandboxed=bool(sandbox))


def _never_started(command: str, commit: str, at_once: int, waited: float) -> CheckResult:
    said = f"not started: {at_once} other check(s) held every slot (CURSOR_MCP_CHECKS_AT_ONCE) until the timeout"
    return CheckResult(command, commit, False, None, True, round(waited, 3), 0, said, 0)


def _result(command: str, commit: str, finished: Finished, seconds: float, *, sandboxed: bool) -> CheckResult:
    text = finished.tail.decode(errors="replace")
    lines = "\n".join([*text.splitlines()[-TAIL_LINES:], *([finished.problem] if finished.problem else [])])
    cleaned = strip_hidden(lines)
    code = finished.exit_code
    return CheckResult(
        command,
        commit,
        code == 0 and not finished.timed_out,
        code,
        finished.timed_out,
        round(seconds, 3),
        finished.output_bytes,
        cleaned,
        len(lines) - len(cleaned),
        sandboxed=sandboxed,
        reaper=finished.reaper,
    )
