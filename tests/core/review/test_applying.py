"""`core/review/applying.py` (issue 30): an agent's commits onto the person's branch, or nothing at all.

Each test takes a fresh clone of one shared stand-in remote (about 50 ms of git) and compares the whole
tree, the index and HEAD byte for byte around every refusal and abort.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cursor_cloud_agents.core.failures import ToolFailure
from cursor_cloud_agents.core.review.applying import Mode, apply_change, clone_place
from cursor_cloud_agents.core.review.changes import AgentBranch
from cursor_cloud_agents.simulator import World
from tests.stand_in import Remote, agent_named, changes_world, git, make_remote, target_of

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def pushed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Remote, World]:
    remote = make_remote(tmp_path_factory.mktemp("apply"))
    return remote, changes_world(remote)


def snapshot(clone: Path, remote: Remote) -> dict[str, object]:
    """Every byte of the tree (untracked files included), the index and HEAD."""
    files = {
        str(path.relative_to(clone)): path.read_bytes()
        for path in sorted(clone.rglob("*"))
        if path.is_file() and ".git" not in path.relative_to(clone).parts
    }
    head = git(clone, "rev-parse", "HEAD", env=remote.env)
    return {"files": files, "head": head, "index": git(clone, "ls-files", "-s", env=remote.env)}


async def apply(remote: Remote, clone: Path, target: AgentBranch, mode: Mode) -> str:
    place = await clone_place(remote.places(), clone, target.repo_url)
    return (await apply_change(place, target, mode, remote.head_of(target.branch))).line()


def commit(clone: Path, remote: Remote, path: str, text: str) -> None:
    (clone / path).write_text(text)
    git(clone, "commit", "--quiet", "-am", f"The person changes {path}", env=remote.env)


async def test_a_clean_tree_is_fast_forwarded_to_the_agents_branch(
    pushed: tuple[Remote, World], tmp_path: Path
) -> None:
    """D-56: the commit lands; one line says the mode, the commits, files, lines and the commits moved between."""
    remote, world = pushed
    target = target_of(agent_named(world, "small"))
    clone = remote.clone(tmp_path.name)
    line = await apply(remote, clone, target, "fast-forward")
    head = git(clone, "rev-parse", "HEAD", env=remote.env).strip()
    assert head == git(clone, "rev-parse", f"origin/{target.branch}", env=remote.env).strip()
    assert line.startswith(f"applied 1 commit of {target.branch} onto main by fast-forward: 3 files, +14 -1, ")
    assert git(clone, "status", "--porcelain", env=remote.env) == ""
    assert await apply(remote, clone, target, "fast-forward") == f"nothing to apply: main already holds {target.branch}"


async def test_a_dirty_tree_is_refused_and_nothing_changes(pushed: tuple[Remote, World], tmp_path: Path) -> None:
    """D-56: an uncommitted edit: CONFLICT before anything is fetched or moved."""
    remote, world = pushed
    clone = remote.clone(tmp_path.name)
    (clone / "README.md").write_text("my unsaved work\n")
    before = snapshot(clone, remote)
    with pytest.raises(ToolFailure) as raised:
        await apply(remote, clone, target_of(agent_named(world, "small")), "merge")
    assert raised.value.code == "CONFLICT" and "uncommitted changes" in raised.value.message
    assert snapshot(clone, remote) == before


@pytest.mark.parametrize("mode", ["merge", "cherry-pick"])
async def test_a_conflict_is_aborted_with_the_tree_byte_for_byte_as_before(
    pushed: tuple[Remote, World], tmp_path: Path, mode: Mode
) -> None:
    """D-56: the person's README ends differently from the agent's: aborted, HEAD, index and every byte as before."""
    remote, world = pushed
    clone = remote.clone(tmp_path.name)
    readme = (clone / "README.md").read_text()
    commit(clone, remote, "README.md", readme + "\n## My own section\n")
    (clone / "notes.txt").write_text("an untracked file of the person's\n")
    before = snapshot(clone, remote)
    with pytest.raises(ToolFailure) as raised:
        await apply(remote, clone, target_of(agent_named(world, "small")), mode)
    assert raised.value.code == "CONFLICT" and "README.md" in raised.value.message and "aborted" in raised.value.message
    assert snapshot(clone, remote) == before
    assert git(clone, "status", "--porcelain", env=remote.env) == "?? notes.txt\n"


async def test_a_branch_that_moved_on_is_not_fast_forwarded_but_merges(
    pushed: tuple[Remote, World], tmp_path: Path
) -> None:
    """D-56: fast-forward refused with what to use instead, nothing changed; --merge then makes a merge commit."""
    remote, world = pushed
    clone = remote.clone(tmp_path.name)
    commit(clone, remote, "manual/guide.md", "# Guide\n\nRewritten by the person.\n")
    target = target_of(agent_named(world, "small"))
    before = snapshot(clone, remote)
    with pytest.raises(ToolFailure) as raised:
        await apply(remote, clone, target, "fast-forward")
    assert "--merge or --cherry-pick" in raised.value.message
    assert snapshot(clone, remote) == before
    line = await apply(remote, clone, target, "merge")
    assert " by merge: 3 files" in line
    parents = git(clone, "log", "-1", "--format=%P", env=remote.env).split()
    assert len(parents) == 2


async def test_cherry_pick_copies_only_the_agents_commits(pushed: tuple[Remote, World], tmp_path: Path) -> None:
    remote, world = pushed
    clone = remote.clone(tmp_path.name)
    commit(clone, remote, "manual/guide.md", "# Guide\n\nRewritten by the person.\n")
    line = await apply(remote, clone, target_of(agent_named(world, "rename")), "cherry-pick")
    assert " by cherry-pick: 2 files" in line
    assert (clone / "src" / "text.py").exists() and not (clone / "src" / "util.py").exists()
    assert len(git(clone, "log", "-1", "--format=%P", env=remote.env).split()) == 1


async def test_outside_a_clone_of_the_agents_repository_apply_says_where_to_run(
    pushed: tuple[Remote, World], tmp_path: Path
) -> None:
    remote, world = pushed
    git(tmp_path, "init", "--quiet", env=remote.env)
    with pytest.raises(ToolFailure) as raised:
        await clone_place(remote.places(), tmp_path, target_of(agent_named(world, "small")).repo_url)
    assert "No remote of this repository is github.com/your-org/your-repo" in raised.value.message
