"""Applying an agent's commits onto the person's current branch: only when the person asks, never half-way.

Fast-forward (the default), a merge commit, or the agent's commits cherry-picked one by one, chosen by the
person, and only the commit the person reviewed (`core/review/reviewed.py`): refused before anything moves when the
branch moved since, when the agent's run is still going, when the change would overwrite a file the person
has that git ignores or does not track (an `.env`), or when the tree has uncommitted changes or another
operation is under way; a conflict is aborted (`git merge --abort`, `git cherry-pick --abort`), which puts
back the commit, the index and the tree exactly as they were (they were clean: that was checked first). What
moved is said in one line: the mode, the commits, the files and lines, the commit before and after.

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


@dataclass(frozen=True)
class Plan:
    """What `apply` would do, found before anything moves: shown to the person, then carried out."""

    mode: Mode
    target: AgentBranch
    onto: str
    before: str
    head: str
    own_base: str
    commits: int
    size: ChangeSize

    def range(self) -> str:
        """The commits that would land, as a person checks them (`git log BASE..HEAD`)."""
        return f"{self.own_base[:12]}..{self.head[:12]}"


async def plan_apply(place: Place, target: AgentBranch, mode: Mode, reviewed: str) -> Plan:
    """What applying `reviewed` (the commit the person saw) of the agent's branch would do, once it is sure
    to be what lands.

    Raises:
        ToolFailure: a dirty tree or an operation under way, the run still going, the branch gone or moved
            since `reviewed`, a file of the person's (ignored or untracked) the change would overwrite; nothing
            changed.
    """
    git = place.git
    onto = await ready_to_change(git)
    if target.run_active:
        raise ToolFailure(
            Code.AGENT_BUSY,
            f"Agent {target.agent_id}'s run {target.run_id} is still {target.run_status}: it may push again. Wait "
            f"for it to end (`cursor-cloud-agents wait {target.agent_id}:{target.run_id}`), review the change "
            "(`diff`), then apply. Nothing was changed.",
            agent_id=target.agent_id,
            run_id=target.run_id,
        )
    head = await fetch_ref(place, target.branch)
    if head is None:
        raise branch_missing(target)
    if head != reviewed.lower():
        raise ToolFailure(
            Code.CONFLICT,
            f"{target.branch} moved since it was reviewed: you saw {reviewed[:12]}, it is now {head[:12]}. Look "
            f"again (`cursor-cloud-agents diff {target.agent_id}`), then apply (or `--commit {head}` once you "
            "have read it). Nothing was changed.",
            agent_id=target.agent_id,
        )
    starting_ref = target.starting_ref or await default_branch(place)
    start = await fetch_ref(place, starting_ref) if starting_ref else None
    before = (await git.run("rev-parse", "--verify", "HEAD^{commit}")).strip()
    if await git.succeeds("merge-base", "--is-ancestor", head, before):
        return Plan(mode, target, onto, before, head, head, 0, ChangeSize(0, 0, 0))
    own_base = (await git.run("merge-base", start or before, head)).strip()
    files = await files_between(git, own_base, head)
    commits = int((await git.run("rev-list", "--count", f"{own_base}..{head}")).strip() or 0)
    overwritten = await would_overwrite(git, before, own_base, head)
    if overwritten:
        shown = ", ".join(overwritten[:10]) + (f" and {len(overwritten) - 10} more" if len(overwritten) > 10 else "")
        raise ToolFailure(
            Code.CONFLICT,
            f"Applying {target.branch} would overwrite files you have that git ignores or does not track: {shown}. "
            "Move them aside (or commit them) first. Nothing was changed.",
            agent_id=target.agent_id,
        )
    return Plan(mode, target, onto, before, head, own_base, commits, ChangeSize.of(files))


async def would_overwrite(git: Git, before: str, own_base: str, head: str) -> list[str]:
    """The paths of the working tree, untracked or ignored by git, that bringing `head` in would replace: a
    path the change writes that exists here untracked (a file, a link or a folder), or an untracked file
    standing where the change needs a folder. Git itself refuses the untracked ones in a merge, but replaces
    ignored ones (an `.env`) without a word."""
    written = set(_names(await git.run("diff", "--name-only", "-z", "--no-renames", before, head, "--")))
    written |= set(_names(await git.run("diff", "--name-only", "-z", "--no-renames", own_base, head, "--")))
    tracked = set(_names(await git.run("ls-files", "-z", "--cached")))
    top = git.cwd
    hit: set[str] = set()
    for name in written:
        if name in tracked:
            continue
        parts = name.split("/")
        for depth in range(1, len(parts)):
            parent = "/".join(parts[:depth])
            path = top / parent
            if parent not in tracked and (path.is_symlink() or path.is_file()):
                hit.add(parent)
        path = top / name
        if path.is_symlink() or path.exists():
            hit.add(name)
    return sorted(hit)


def _names(listed: str) -> list[str]:
    return [name for name in listed.split("\0") if name]


async def carry_out(place: Place, plan: Plan) -> Applied:
    """Move the current branch as `plan` says, if nothing moved since it was made.

    Raises:
        ToolFailure: the tree or the branch changed since the plan (nothing changed), a fast-forward that is not
            possible, a conflict (aborted: the tree as it was).
    """
    git = place.git
    await ready_to_change(git)
    if (await git.run("rev-parse", "--verify", "HEAD^{commit}")).strip() != plan.before:
        raise ToolFailure(Code.CONFLICT, "The current branch moved while you were asked: apply again. Nothing changed.")
    if plan.commits == 0:
        return Applied(plan.mode, plan.target.branch, plan.onto, plan.before, plan.before, 0, plan.size)
    await _move(git, plan.mode, plan.target, plan.own_base, plan.head)
    after = (await git.run("rev-parse", "HEAD")).strip()
    return Applied(plan.mode, plan.target.branch, plan.onto, plan.before, after, plan.commits, plan.size)


async def apply_change(place: Place, target: AgentBranch, mode: Mode, reviewed: str) -> Applied:
    """The agent's commits, exactly `reviewed`, onto the current branch of the clone at `place`, by `mode`.

    Raises:
        ToolFailure: as `plan_apply` and `carry_out` do; nothing changed but on success.
    """
    return await carry_out(place, await plan_apply(place, target, mode, reviewed))


async def _move(git: Git, mode: Mode, target: AgentBranch, own_base: str, head: str) -> None:
    if mode == "fast-forward":
        try:
            await git.run("merge", "--ff-only", "--quiet", "--end-of-options", head)
        except GitError:
            raise ToolFailure(
                Code.CONFLICT,
                f"The current branch has commits {target.branch} does not have, so it cannot be fast-forwarded: "
                "apply with --merge or --cherry-pick. Nothing was changed.",
            ) from None
        return
    message = f"Merge {target.branch} (agent {target.agent_id})"
    step = ("merge", "--no-ff", "--no-edit", "--quiet", "-m", message, "--end-of-options", head)
    if mode == "cherry-pick":
        step = ("cherry-pick", "--allow-empty", "--end-of-options", f"{own_base}..{head}")
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
