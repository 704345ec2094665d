"""`core/review/checks.py` (issues 30, 42): the person's check command on an agent's commit, bounded every way.

The commands are real shell lines in a real throwaway clone of the stand-in remote's clone; the one that
hangs is stopped by a timeout of half a second (a real process cannot be put on the manual clock). Tests that
read a file the command wrote outside its folder run without the sandbox (`CheckRules(sandbox="off")`),
which makes such files read-only.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from cursor_cloud_agents.core.review.checks import TAIL_BYTES, CheckRules, not_configured, run_check
from cursor_cloud_agents.core.review.git import Git
from tests.core.review.hostile_repo import alive
from tests.stand_in import Remote, agent_named, changes_world, git, make_remote

pytestmark = pytest.mark.anyio
PYTHON = sys.executable
BARE = CheckRules(sandbox="off")


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Remote, Path, dict[str, str]]:
    """A clone of the stand-in remote and the commits of the `small` (tests pass) and `failing` changes."""
    remote = make_remote(tmp_path_factory.mktemp("checks"))
    world = changes_world(remote)
    clone = remote.clone("clone")
    commits = {
        name: git(
            clone, "rev-parse", f"origin/{agent_named(world, name).branches[0]['branch']}", env=remote.env
        ).strip()
        for name in ("small", "failing")
    }
    return remote, clone, commits


def git_in(repo: tuple[Remote, Path, dict[str, str]]) -> Git:
    remote, clone, _ = repo
    found = Git.find(clone, remote.env)
    assert found is not None
    return found


async def test_the_projects_tests_pass_on_the_agents_commit(repo: tuple[Remote, Path, dict[str, str]]) -> None:
    """R-55: passed, exit 0, the runner's last lines; no worktree was made in the person's repository."""
    remote, clone, commits = repo
    command = f"{PYTHON} -m unittest discover -s tests"
    result = await run_check(git_in(repo), commits["small"], command, env=remote.env, timeout=30)
    assert result.passed and result.exit_code == 0 and not result.timed_out
    assert "OK" in result.last_lines and "Ran 3 tests" in result.last_lines
    assert git(clone, "worktree", "list", "--porcelain", env=remote.env).count("worktree ") == 1


async def test_failing_tests_fail_the_check_with_their_exit_code(repo: tuple[Remote, Path, dict[str, str]]) -> None:
    """R-55: failed, the exit code of the command, and the failure in the last lines."""
    remote, _, commits = repo
    command = f"{PYTHON} -m unittest discover -s tests"
    result = await run_check(git_in(repo), commits["failing"], command, env=remote.env, timeout=30)
    assert not result.passed and result.exit_code == 1
    assert "FAILED" in result.last_lines


async def test_a_hanging_command_and_what_it_started_are_killed_at_the_timeout(
    repo: tuple[Remote, Path, dict[str, str]], tmp_path: Path
) -> None:
    """R-55: a child that would outlive the shell is ended with it; no worktree is left."""
    remote, clone, commits = repo
    pid_file = tmp_path / "child"
    command = f"sleep 30 & echo $! > {pid_file}; wait"
    result = await run_check(git_in(repo), commits["small"], command, env=remote.env, timeout=0.5, rules=BARE)
    assert result.timed_out and not result.passed and result.exit_code is None
    assert result.seconds < 5
    assert git(clone, "worktree", "list", "--porcelain", env=remote.env).count("worktree ") == 1
    assert not alive(int(pid_file.read_text()))  # killed and reaped by the supervisor before the answer


async def test_megabytes_of_output_are_counted_and_only_their_end_is_kept(
    repo: tuple[Remote, Path, dict[str, str]],
) -> None:
    """R-55: 5 MB printed: output_bytes counts them all, the lines shown are the last ones, bounded."""
    remote, _, commits = repo
    command = f"{PYTHON} -c \"import sys; [sys.stdout.write('line %07d\\n' % n) for n in range(400000)]\""
    result = await run_check(git_in(repo), commits["small"], command, env=remote.env, timeout=30)
    assert result.passed and result.output_bytes == 400_000 * 13
    assert result.last_lines.splitlines()[-1] == "line 0399999"
    assert len(result.last_lines) <= TAIL_BYTES


async def test_the_check_command_sees_no_cursor_variable(repo: tuple[Remote, Path, dict[str, str]]) -> None:
    """S-54: the key and every CURSOR_* variable of the process are not in the command's environment, nor the
    person's HOME (its own throwaway one instead)."""
    remote, _, commits = repo
    env = remote.env | {"CURSOR_API_KEY": "sk-secret", "CURSOR_MCP_STATE_DIR": "/x", "Cursor_Team_Id": "t"}
    result = await run_check(git_in(repo), commits["small"], "env", env=env, timeout=30)
    assert result.passed
    seen = result.last_lines
    assert "CURSOR" not in seen.upper() and "sk-secret" not in seen and f"HOME={remote.env['HOME']}" not in seen


def test_without_a_configured_command_the_answer_says_how_the_person_sets_one() -> None:
    failure = not_configured()
    assert failure.code == "CONFIGURATION" and "CURSOR_MCP_CHECK_COMMAND" in failure.message
    assert "cannot supply" in failure.message
