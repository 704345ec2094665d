"""Applying an agent's commits onto the person's current branch: only when the person asks, never half-way.

Fast-forward (the default), a merge commit, or the agent's commits cherry-picked one by one, chosen by the
person. Refused before anything moves when the tree has uncommitted changes or another operation is under
way; a conflict is aborted (`git merge --abort`, `git cherry-pick --abort`), which puts back the commit, the
index and the tree exactly as they were (they were clean: that was checked first). What moved is said in one
line: the mode, the commits, the files and lines, the commit before and after.

This changes the person's working tree, so no model starts it: it is a terminal command (`apply AGENT`) and
no MCP tool (docs/architecture.md, "Bringing the work home").
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from cursor_cloud_agents.core.failures import Code, ToolFailure
from cursor_cloud_agents.core.review.changes import (
    AgentBranch,
    ChangeSize,
    GitPlaces,
    Place,
    branch_missing,
    default_branch,
    fetch_ref,
    files_between,
    no_git,
)
from cursor_cloud_agents.core.review.git import Git, GitError, remotes, repository_key, toplevel

Mode = Literal["fast-forward", "merge", "cherry-pick"]
MODES: tuple[Mode, ...] = ("fast-forward", "merge", "cherry-pick")
_UNDER_WAY = ("MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD", "REBASE_HEAD")


@dataclass(frozen=True)
class Applied:
    """What `apply_change` moved."""

    mode: Mode
    branch: str
    onto: str
    before: str
    after: str
    commits: int
    size: ChangeSize

    def line(self) -> str:
        """The one-line report."""
        if self.before == self.after:
            return f"nothing to apply: {self.onto} already holds {self.branch}"
        size = self.size
        return (
            f"applied {self.commits} commit{'s' * (self.commits != 1)} of {self.branch} "
            f"onto {self.onto} by {self.mode}: "
            f"{size.files} file{'s' * (size.files != 1)}, +{size.additions} -{size.deletions}, "
            f"{self.before[:12]}..{self.after[:12]}"
        )


async def clone_place(places: GitPlaces, cwd: Path, repo_url: str, chosen: str | None = None) -> Place:
    """The person's clone `cwd` is in, with its remote that is `repo_url` (or `chosen`).

    Raises:
        ToolFailure: no git, not in a repository, no such remote.
    """
    git = places.git(cwd)
    if git is None:
        raise no_git()
    top = await toplevel(git)
    if top is None:
        raise ToolFailure(Code.VALIDATION, f"{cwd} is not in a git repository: run this inside a clone of {repo_url}.")
    git = git.at(top)
    found = await remotes(git)
    if chosen is not None:
        if chosen not in found:
            raise ToolFailure(
                Code.VALIDATION, f"No remote named {chosen!r} here (remotes: {', '.join(found) or 'none'})."
            )
        return Place(git, chosen, "clone")
    key = repository_key(repo_url)
    for name, url in found.items():
        if repository_key(url) == key:
            return Place(git, name, "clone")
    shown = ", ".join(f"{name} ({url})" for name, url in found.items()) or "none"
    raise ToolFailure(
        Code.VALIDATION,
        f"No remote of this repository is {repo_url} (remotes: {shown}): add one (`git remote add NAME URL`) "
        "or name it with --remote. Nothing was changed.",
    )


async def ready_to_change(git: Git) -> str:
    """The current branch's name (or `HEAD` when detached), once the tree is clean and nothing is under way.

    Raises:
        ToolFailure: uncommitted changes, or a merge, cherry-pick, revert or rebase under way.
    """
    if (await git.run("status", "--porcelain", "--untracked-files=no")).strip():
        raise ToolFailure(
            Code.CONFLICT,
            "The working tree has uncommitted changes: commit or stash them first. Nothing was changed.",
        )
    for marker in _UNDER_WAY:
        if await git.succeeds("rev-parse", "--quiet", "--verify", marker):
            raise ToolFailure(Code.CONFLICT, f"A git operation is under way here ({marker}): finish or abort it first.")
    name = (await git.run("rev-parse", "--abbrev-ref", "HEAD")).strip()
    return name or "HEAD"


async def apply_change(place: Place, target: AgentBranch, mode: Mode) -> Applied:
    """The agent's commits onto the current branch of the clone at `place`, by `mode`.

    Raises:
        ToolFailure: a dirty tree or an operation under way (nothing changed), the branch not pushed, no access,
            a fast-forward that is not possible, a conflict (aborted: the tree as it was).
    """
    git = place.git
    onto = await ready_to_change(git)
    head = await fetch_ref(place, target.branch)
    if head is None:
        raise branch_missing(target)
    starting_ref = target.starting_ref or await default_branch(place)
    start = await fetch_ref(place, starting_ref) if starting_ref else None
    before = (await git.run("rev-parse", "HEAD")).strip()
    if await git.succeeds("merge-base", "--is-ancestor", head, before):
        return Applied(mode, target.branch, onto, before, before, 0, ChangeSize(0, 0, 0))
    own_base = (await git.run("merge-base", start or before, head)).strip()
    files = await files_between(git, own_base, head)
    commits = int((await git.run("rev-list", "--count", f"{own_base}..{head}")).strip() or 0)
    await _move(git, mode, target, own_base, head)
    after = (await git.run("rev-parse", "HEAD")).strip()
    return Applied(mode, target.branch, onto, before, after, commits, ChangeSize.of(files))


async def _move(git: Git, mode: Mode, target: AgentBranch, own_base: str, head: str) -> None:
    if mode == "fast-forward":
        try:
            await git.run("merge", "--ff-only", "--quiet", head)
        except GitError:
            raise ToolFailure(
                Code.CONFLICT,
                f"The current branch has commits {target.branch} does not have, so it cannot be fast-forwarded: "
                "apply with --merge or --cherry-pick. Nothing was changed.",
            ) from None
        return
    message = f"Merge {target.branch} (agent {target.agent_id})"
    step = ("merge", "--no-ff", "--no-edit", "--quiet", "-m", message, head)
    if mode == "cherry-pick":
        step = ("cherry-pick", "--allow-empty", f"{own_base}..{head}")
    try:
        await git.run(*step)
    except GitError as exc:
        conflicted = (await git.run("diff", "--name-only", "--diff-filter=U")).split()
        await git.succeeds(step[0], "--abort")
        if not conflicted:
            raise ToolFailure(
                Code.CONFLICT, f"git {step[0]} failed and was undone: {exc.stderr.strip()[:300]}"
            ) from None
        raise ToolFailure(
            Code.CONFLICT,
            f"{target.branch} conflicts with the current branch in {', '.join(conflicted[:10])}: the {step[0]} was "
            "aborted and the tree is as it was. Check it out to resolve by hand (`checkout AGENT`).",
        ) from None
