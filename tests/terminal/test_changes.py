"""`diff AGENT`, `apply AGENT` and `checkout --check` (issue 30) in a clone of the simulator's stand-in remote.

The clone is made as `simulate` tells a person to make it (its origin is the GitHub URL, git's `insteadOf`
sends it to the stand-in), so the commands find it as they would a real clone.
"""

from __future__ import annotations

import sys
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import pytest

from cursor_cloud_agents.simulator import Change, ManualClock, RunScript, World
from cursor_cloud_agents.simulator.changes import Write
from cursor_cloud_agents.terminal.changes import apply_command, diff_command, diff_line
from cursor_cloud_agents.terminal.checkout import Where, checkout
from cursor_cloud_agents.terminal.dispatch import execute
from cursor_cloud_agents.terminal.exits import OK, REFUSED, USAGE
from tests.stand_in import Remote, git, make_remote
from tests.terminal.conftest import Rig, RigFactory

pytestmark = pytest.mark.anyio
TESTS = f"{sys.executable} -m unittest discover -s tests"


@pytest.fixture(scope="module")
def remote(tmp_path_factory: pytest.TempPathFactory) -> Remote:
    return make_remote(tmp_path_factory.mktemp("terminal"))


def world_with(remote: Remote, change: str = "small") -> tuple[World, str]:
    world = remote.attach(World(ManualClock()))
    agent = world.add_agent(f"Terminal {change}", script=RunScript(change=change), created_ago=3600)
    return world, agent.id


async def run(rig: Rig, command: Coroutine[Any, Any, int]) -> int:
    return await execute(rig.term, lambda _term: command)


async def test_diff_prints_the_files_and_the_diff_plain_through_a_pipe(
    rig_factory: RigFactory, remote: Remote, tmp_path: Path
) -> None:
    """Issue 30 acceptance (`diff AGENT` exits 0 and prints the diff); D-50 through the terminal."""
    world, agent_id = world_with(remote)
    clone = remote.clone(tmp_path.name)
    async with rig_factory(world) as rig:
        code = await run(
            rig, diff_command(rig.term, agent_id=agent_id, run_id=None, paths=[], cwd=clone, env=remote.env)
        )
        shown, screen = rig.text(), rig.screen()
    assert code == OK, rig.errors()
    assert " M README.md  +5 -0" in shown and "3 files changed, +14 -1" in shown
    assert "@@ -3,3 +3,8 @@" in shown and "+## Setup" in shown
    assert f"next: cursor-cloud-agents apply {agent_id}" in shown
    assert "\x1b" not in screen


def test_diff_lines_are_coloured_by_kind_on_a_terminal() -> None:
    assert [diff_line(line).style for line in ("+added", "-removed", "@@ -1 +1 @@", " same")] == [
        "green",
        "red",
        "cyan",
        "",
    ]


async def test_escape_sequences_planted_in_the_agents_text_are_removed_whole(
    rig_factory: RigFactory, remote: Remote, tmp_path: Path
) -> None:
    """P-52: a colour, a window title and a zero-width space in a line the agent wrote: none reaches the screen."""
    world, agent_id = world_with(remote, "small")
    agent = world.agents[agent_id]
    planted = Change((Write("NOTES.md", b"\x1b[31mred\x1b[0m \x1b]0;owned\x07title\xe2\x80\x8b here\n"),))
    assert world.remote is not None
    world.remote.push(agent.repos[0]["url"], agent.branches[0]["branch"], "main", planted, "Notes")
    clone = remote.clone(tmp_path.name)
    async with rig_factory(world) as rig:
        await run(
            rig, diff_command(rig.term, agent_id=agent_id, run_id=None, paths=["NOTES.md"], cwd=clone, env=remote.env)
        )
        shown, screen = rig.text(), rig.screen()
    assert "+red title here" in shown and "owned" not in shown and "[31m" not in shown
    assert "\x1b" not in screen and "\u200b" not in screen
    assert "control characters removed" in shown


async def test_diff_json_holds_the_files_the_totals_and_the_diff(
    rig_factory: RigFactory, remote: Remote, tmp_path: Path
) -> None:
    world, agent_id = world_with(remote, "rename")
    clone = remote.clone(tmp_path.name)
    async with rig_factory(world, json_output=True) as rig:
        await run(rig, diff_command(rig.term, agent_id=agent_id, run_id=None, paths=[], cwd=clone, env=remote.env))
        [document] = rig.documents()
    renamed = next(row for row in document["files"] if row["status"] == "renamed")
    assert renamed["old_path"] == "src/util.py" and document["totals"]["files"] == 2
    assert "rename from src/util.py" in document["diff"]


async def test_apply_fast_forwards_a_clean_clone_and_says_what_moved(
    rig_factory: RigFactory, remote: Remote, tmp_path: Path
) -> None:
    """D-56 at the terminal: one line; the commit `diff` showed (remembered in the state folder) is the one
    applied, after the commit range was shown."""
    world, agent_id = world_with(remote)
    clone = remote.clone(tmp_path.name)
    async with rig_factory(world, state_dir=tmp_path / "state") as rig:
        diffed = diff_command(rig.term, agent_id=agent_id, run_id=None, paths=[], cwd=clone, env=remote.env)
        assert await run(rig, diffed) == OK
        command = apply_command(
            rig.term, agent_id=agent_id, mode="fast-forward", remote=None, cwd=clone, env=remote.env, confirmed=True
        )
        code = await run(rig, command)
        shown = rig.text()
    assert code == OK, rig.errors()
    assert "applied 1 commit of cursor/terminal-small-" in shown and "onto main by fast-forward: 3 files" in shown
    assert "def farewell" in (clone / "src" / "app.py").read_text()


async def test_apply_on_a_dirty_tree_is_refused_before_anything_is_read(
    rig_factory: RigFactory, remote: Remote, tmp_path: Path
) -> None:
    """D-56: exit 1, the reason on stderr, no request sent to the API, the edit still there."""
    world, agent_id = world_with(remote)
    clone = remote.clone(tmp_path.name)
    (clone / "README.md").write_text("mine\n")
    async with rig_factory(world) as rig:
        command = apply_command(
            rig.term,
            agent_id=agent_id,
            mode="merge",
            remote=None,
            cwd=clone,
            env=remote.env,
            commit="a" * 40,
            confirmed=True,
        )
        code = await run(rig, command)
        errors, sent = rig.errors(), rig.requests()
    assert code == REFUSED and "uncommitted changes" in errors and sent == []
    assert (clone / "README.md").read_text() == "mine\n"


@pytest.mark.parametrize(("change", "passed"), [("small", True), ("failing", False)])
async def test_checkout_check_runs_the_persons_tests_first(
    rig_factory: RigFactory, remote: Remote, tmp_path: Path, change: str, passed: bool
) -> None:
    """R-55 at the terminal: the verdict and the last lines, then the checkout; a failed check exits 1 and (issue
    42, H-20) checks nothing out: the clone's refs, worktrees and HEAD as they were, and the flag to look anyway."""
    world, agent_id = world_with(remote, change)
    clone = remote.clone(tmp_path.name)
    before = [git(clone, *args, env=remote.env) for args in (("for-each-ref",), ("worktree", "list"), ("status",))]
    async with rig_factory(world) as rig:
        command = checkout(
            rig.term, agent_id=agent_id, where=Where(None, False, None), cwd=clone, env=remote.env, check=TESTS
        )
        code = await run(rig, command)
        shown = rig.text()
    after = [git(clone, *args, env=remote.env) for args in (("for-each-ref",), ("worktree", "list"), ("status",))]
    assert code == (OK if passed else REFUSED), rig.errors()
    assert ("check passed, exit 0" if passed else "check failed, exit 1") in shown
    if passed:
        assert "checked out cursor/terminal-" in shown
    else:
        assert "checked out cursor" not in shown and "nothing was checked out" in shown and "--anyway" in shown
        assert after == before


async def test_a_failing_check_with_branch_leaves_the_persons_tree_on_its_branch_h_21(
    rig_factory: RigFactory, remote: Remote, tmp_path: Path
) -> None:
    """H-21: `checkout AGENT --branch --check CMD` with a failing CMD: exit 1, this tree still on `main`, no
    branch made, the files as they were (it switched the tree to the failing branch before)."""
    world, agent_id = world_with(remote, "failing")
    clone = remote.clone(tmp_path.name)
    before = [git(clone, *args, env=remote.env) for args in (("for-each-ref",), ("status", "--porcelain"))]
    async with rig_factory(world) as rig:
        command = checkout(
            rig.term, agent_id=agent_id, where=Where(None, True, None), cwd=clone, env=remote.env, check=TESTS
        )
        code = await run(rig, command)
    after = [git(clone, *args, env=remote.env) for args in (("for-each-ref",), ("status", "--porcelain"))]
    assert code == REFUSED and after == before
    assert git(clone, "rev-parse", "--abbrev-ref", "HEAD", env=remote.env).strip() == "main"


async def test_anyway_checks_a_failing_branch_out_and_still_exits_1_h_22(
    rig_factory: RigFactory, remote: Remote, tmp_path: Path
) -> None:
    """H-22: the explicit flag to look all the same: checked out, the verdict shown, exit 1."""
    world, agent_id = world_with(remote, "failing")
    clone = remote.clone(tmp_path.name)
    async with rig_factory(world) as rig:
        command = checkout(
            rig.term,
            agent_id=agent_id,
            where=Where(None, False, None),
            cwd=clone,
            env=remote.env,
            check=TESTS,
            anyway=True,
        )
        code = await run(rig, command)
        shown = rig.text()
    assert code == REFUSED and "check failed, exit 1" in shown and "checked out cursor/terminal-" in shown


async def test_apply_without_a_reviewed_commit_is_refused_before_anything_is_read_h_15(
    rig_factory: RigFactory, remote: Remote, tmp_path: Path
) -> None:
    """H-15: nothing seen (no `diff` in this state folder, no --commit): exit 2, how to review, nothing sent."""
    world, agent_id = world_with(remote)
    clone = remote.clone(tmp_path.name)
    head = git(clone, "rev-parse", "HEAD", env=remote.env)
    async with rig_factory(world, state_dir=tmp_path / "state") as rig:
        command = apply_command(
            rig.term, agent_id=agent_id, mode="fast-forward", remote=None, cwd=clone, env=remote.env, confirmed=True
        )
        code = await run(rig, command)
        errors, sent = rig.errors(), rig.requests()
    assert code == USAGE and f"cursor-cloud-agents diff {agent_id}" in errors and "--commit" in errors and sent == []
    assert git(clone, "rev-parse", "HEAD", env=remote.env) == head


async def test_apply_shows_the_commit_range_and_a_no_changes_nothing_h_16(
    rig_factory: RigFactory, remote: Remote, tmp_path: Path
) -> None:
    """H-16: at a terminal the range (`git log --stat BASE..HEAD`) is shown and asked about; `n` moves nothing."""
    world, agent_id = world_with(remote)
    clone = remote.clone(tmp_path.name)
    head = git(clone, "rev-parse", "HEAD", env=remote.env)
    async with rig_factory(world, state_dir=tmp_path / "state", interactive=True, answers=["n"]) as rig:
        assert (
            await run(rig, diff_command(rig.term, agent_id=agent_id, run_id=None, paths=[], cwd=clone, env=remote.env))
            == OK
        )
        command = apply_command(
            rig.term, agent_id=agent_id, mode="fast-forward", remote=None, cwd=clone, env=remote.env
        )
        code = await run(rig, command)
        errors = rig.errors()
    assert code == USAGE and rig.asked == ["Apply them? [y/N] "] and "git log --stat " in errors
    assert "apply 1 commit of cursor/terminal-small-" in errors and "not confirmed" in errors
    assert git(clone, "rev-parse", "HEAD", env=remote.env) == head


@pytest.mark.parametrize("path", ["../../etc/passwd", "/etc/passwd", "a\u202eb", "-x"])
async def test_diff_refuses_a_path_outside_the_repository_before_any_request_h_10(
    rig_factory: RigFactory, remote: Remote, tmp_path: Path, path: str
) -> None:
    """H-10 at the terminal: exit 2, the rule named, nothing sent."""
    world, agent_id = world_with(remote)
    async with rig_factory(world) as rig:
        command = diff_command(rig.term, agent_id=agent_id, run_id=None, paths=[path], cwd=tmp_path, env=remote.env)
        code = await run(rig, command)
        errors, sent = rig.errors(), rig.requests()
    assert code == USAGE and "is not a path inside the repository" in errors and sent == []
