"""`core/review/check_process.py` and `core/review/check_supervisor.py` (issue 42): every descendant ended,
the answer on the command's own exit, and checks bounded in number.

Real processes on short timeouts (a process cannot be put on the manual clock); the test itself never
sleeps: the supervisor has killed and reaped every descendant before `run_check` answers, so `/proc/<pid>` is
read once, right after. Without the sandbox (`sandbox="off"`): these are what every Linux machine gets.
"""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from cursor_cloud_agents.core.review.checks import CheckResult, CheckRules, run_check
from tests.core.review.hostile_repo import Hostile, alive, make_hostile

pytestmark = pytest.mark.anyio
BARE = CheckRules(sandbox="off")


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Hostile:
    return make_hostile(tmp_path_factory.mktemp("process"))


def pids_in(result: CheckResult) -> list[int]:
    return [int(line.removeprefix("pid=")) for line in result.last_lines.splitlines() if line.startswith("pid=")]


async def check(hostile: Hostile, command: str, *, timeout: float, rules: CheckRules = BARE) -> CheckResult:
    return await run_check(hostile.git, hostile.commit, command, env=hostile.env, timeout=timeout, rules=rules)


async def test_a_setsid_grandchild_is_ended_at_the_timeout_h_56(hostile: Hostile) -> None:
    """H-56: a grandchild in a session of its own (`setsid`, out of the command's process group, where a kill
    of the group never reached) is dead when the answer comes."""
    command = "setsid sh -c 'echo pid=$$; exec sleep 30' & setsid sh -c '(echo pid=$$; exec sleep 30) &' ; sleep 30"
    result = await check(hostile, command, timeout=1.0)  # room for the clone and both starts on a busy machine
    pids = pids_in(result)
    assert result.timed_out and result.exit_code is None and len(pids) == 2
    assert [pid for pid in pids if alive(pid)] == []
    assert result.reaper == "subreaper"


async def test_a_daemon_left_behind_by_a_passing_command_is_ended_too_h_56(hostile: Hostile) -> None:
    """H-56: a double-forked child that would run on after a command that passed is ended before the answer."""
    result = await check(hostile, "(setsid sh -c 'echo pid=$$; exec sleep 30' &); exit 0", timeout=10)
    assert result.passed and result.seconds < 5
    assert [pid for pid in pids_in(result) if alive(pid)] == []


async def test_a_background_child_holding_the_output_open_does_not_hold_the_answer_h_57(hostile: Hostile) -> None:
    """H-57: the command exits 0 while a child it started keeps standard output open for 30 s: passed, at
    once (waiting on the pipe's end made this 'timed out' at the timeout)."""
    result = await check(hostile, "sleep 30 & echo pid=$!; echo done; exit 0", timeout=10)
    assert result.passed and result.exit_code == 0 and not result.timed_out
    assert result.seconds < 5 and "done" in result.last_lines
    assert [pid for pid in pids_in(result) if alive(pid)] == []


async def test_a_background_child_does_not_hide_a_failing_exit_code_h_57(hostile: Hostile) -> None:
    """H-57: the command's own exit code is the answer, with the child's output so far."""
    result = await check(hostile, "sleep 30 & echo failing; exit 3", timeout=10)
    assert not result.passed and result.exit_code == 3 and not result.timed_out and result.seconds < 5


async def test_a_cancelled_check_ends_everything_it_started_h_58(hostile: Hostile, tmp_path: Path) -> None:
    """H-58: the call that runs the check is cancelled (the tool call's deadline, a client's cancel): the
    supervisor, told by its closed input, ends the setsid grandchild before `run_check` returns."""
    pid_file = tmp_path / "pid"
    command = f"setsid sh -c 'echo $$ > {pid_file}; exec sleep 30' & sleep 30"
    with anyio.move_on_after(1.0) as scope:  # room for the clone and the grandchild's start on a busy machine
        await check(hostile, command, timeout=30)
    assert scope.cancelled_caught
    assert not alive(int(pid_file.read_text()))


async def test_eight_checks_at_once_run_two_at_a_time_h_59(hostile: Hostile, tmp_path: Path) -> None:
    """H-59: eight checks started together: never more than `at_once` (2) run at the same moment, all pass.
    Each command counts the others in a shared folder while it runs (~1.5 s in all: 4 rounds of real checks)."""
    running = tmp_path / "running"
    running.mkdir()
    command = f"touch {running}/$$; echo now=$(ls {running} | wc -l); sleep 0.15; rm {running}/$$"
    results: list[CheckResult] = []

    async def one() -> None:
        results.append(await check(hostile, command, timeout=20, rules=CheckRules(at_once=2, sandbox="off")))

    async with anyio.create_task_group() as group:
        for _ in range(8):
            group.start_soon(one)
    counts = [int(line.removeprefix("now=")) for result in results for line in result.last_lines.splitlines()]
    assert len(results) == 8 and all(result.passed for result in results)
    assert max(counts) <= 2


async def test_a_check_waiting_for_a_slot_past_its_timeout_is_not_started_h_59(hostile: Hostile) -> None:
    """H-59: with one slot held by a long check, a check whose timeout passes while it waits answers
    'timed out, not started' within its own timeout, and the long one is unaffected."""
    one = CheckRules(at_once=1, sandbox="off")
    outcome: dict[str, CheckResult] = {}

    async def long() -> None:
        outcome["long"] = await check(hostile, "echo long; sleep 30", timeout=0.8, rules=one)

    async with anyio.create_task_group() as group:
        group.start_soon(long)
        await anyio.wait_all_tasks_blocked()
        outcome["short"] = await check(hostile, "echo short", timeout=0.2, rules=one)
    short = outcome["short"]
    assert short.timed_out and not short.passed and short.seconds < 0.8
    assert "not started" in short.last_lines and "CURSOR_MCP_CHECKS_AT_ONCE" in short.last_lines
    assert outcome["long"].timed_out and "long" in outcome["long"].last_lines
