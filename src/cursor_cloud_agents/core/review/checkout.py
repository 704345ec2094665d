"""Checking out an agent's branch in the person's clone: a new worktree beside it, or a local branch in place.

The terminal's `checkout AGENT` asks; this does the git. The order keeps every refusal free of side effects:
what git can tell locally first (a repository? the remote, the folder, a clean tree for `--branch`), then
the agent's reads (the terminal's), then the branch name's and starting ref's checks (`core/review/refs.py`: a ref
from the API is a value, never git syntax) and the names that exist, then the fetch (objects only: no ref,
no FETCH_HEAD, `changes.fetch_ref`), then the person's check when asked (a failing check stops here: nothing
is checked out), and only then the one step that creates something, undone whole if a later part fails.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

import anyio

from cursor_cloud_agents.core.failures import Code, ToolFailure
from cursor_cloud_agents.core.review import refs
from cursor_cloud_agents.core.review.changes import Place, default_branch, fetch_ref
from cursor_cloud_agents.core.review.git import Git, GitError, remotes, repository_key, toplevel

_SLUG = re.compile(r"[^A-Za-z0-9._-]+")


def refused(message: str) -> ToolFailure:
    """A refusal the person fixes on their side (exit 2 at the terminal): nothing was changed."""
    return ToolFailure(Code.VALIDATION, message)


@dataclass(frozen=True)
class Where:
    """Where the branch should go: a worktree folder (None: the default beside this one), or in place."""

    worktree: str | None
    in_place: bool
    remote: str | None


@dataclass(frozen=True)
class BranchSource:
    """The agent's branch to fetch (checked), the remote it is on, and the ref its run started from (checked)."""

    remote: str
    branch: str
    starting_ref: str | None
    pr_url: str | None


@dataclass(frozen=True)
class Fetched:
    """The branch's commit, fetched into the clone (objects only), and the run's starting commit if it could be
    had (for the diffstat)."""

    source: BranchSource
    folder: Path | None
    commit: str
    base: str | None


async def local_checks(git: Git, where: Where) -> tuple[Path, dict[str, str]]:
    """What git can tell before anything is read at Cursor: the repository's top, its remotes, the target.

    Raises:
        ToolFailure: VALIDATION (not a repository, no such remote, the folder exists, a dirty tree for --branch).
    """
    top = await toplevel(git)
    if top is None:
        raise refused(f"{git.cwd} is not in a git repository: run checkout inside a clone of the agent's repository")
    found = await remotes(git)
    if where.remote is not None and where.remote not in found:
        raise refused(f"no remote named {where.remote!r} here (remotes: {', '.join(found) or 'none'})")
    if where.worktree is not None and (git.cwd / where.worktree).exists():
        raise refused(f"{where.worktree} exists already: name a new folder with --worktree")
    if where.in_place and (await git.at(top).run("status", "--porcelain", "--untracked-files=no")).strip():
        raise refused(
            "the working tree has uncommitted changes: commit or stash them before --branch switches it, "
            "or drop --branch to check out into a new worktree; nothing was changed"
        )
    return top, found


@dataclass(frozen=True)
class Reported:
    """A branch as the API reports it: its repository, its name, its PR; and the agent's starting refs."""

    repo_url: str
    branch: str
    pr_url: str | None


def source_of(
    branches: list[Reported], starts: Mapping[str, str | None], found: Mapping[str, str], chosen: str | None
) -> BranchSource:
    """The branch and the remote it is on: the remote whose URL is the branch's repository (or `chosen`); the
    branch and its starting ref checked as refs (`starts` maps a repository key to its starting ref).

    Raises:
        ToolFailure: VALIDATION for a refused name or no matching remote; nothing was run.
    """
    by_key = {repository_key(url): name for name, url in found.items()}
    for branch in branches:
        key = repository_key(branch.repo_url)
        remote = chosen if chosen is not None else by_key.get(key)
        if remote is not None and (chosen is None or len(branches) == 1 or repository_key(found[chosen]) == key):
            name = refs.checked_branch(branch.branch)
            start = starts.get(key)
            return BranchSource(remote, name, refs.checked_start(start) if start else None, branch.pr_url)
    shown = ", ".join(f"{name} ({url})" for name, url in found.items()) or "none"
    wanted = " or ".join(sorted({branch.repo_url for branch in branches}))
    raise refused(
        f"no remote of this repository is {wanted} (remotes: {shown}): add one "
        "(`git remote add NAME URL`) or name it with --remote; nothing was changed"
    )


def default_folder(top: Path, branch: str) -> Path:
    """`../<repository>-<branch as a file name>`: beside this checkout, never anywhere the name points."""
    return top.parent / f"{top.name}-{_SLUG.sub('-', branch).strip('-.') or 'agent'}"


async def fetch_branch(git: Git, source: BranchSource, folder: Path | None) -> Fetched | None:
    """The branch's commit fetched (objects only), once its local name and folder are free; None when the
    remote has no such branch.

    Raises:
        ToolFailure: VALIDATION (a local branch or the folder exists), PERMISSION_DENIED (the remote unreadable).
    """
    if await git.succeeds("show-ref", "--verify", "--quiet", refs.full_ref(source.branch)):
        raise refused(
            f"a local branch {source.branch} exists already: look at it with `git switch {source.branch}`, or "
            "delete it (`git branch -D`) to check out the agent's again; nothing was changed"
        )
    if folder is not None and folder.exists():
        raise refused(f"{folder} exists already: choose another folder with --worktree DIR; nothing was changed")
    place = Place(git, source.remote, "clone")
    commit = await fetch_ref(place, source.branch)
    if commit is None:
        return None
    try:
        if source.starting_ref is None:  # a run given none starts on the remote's default branch (K-66)
            source = replace(source, starting_ref=await default_branch(place))
        base = None if source.starting_ref is None else await fetch_ref(place, source.starting_ref)
    except ToolFailure as failure:
        if failure.code == Code.VALIDATION:
            raise  # a hostile ref is refused, never passed over
        base = None  # only the diffstat needs it, and a remote that cannot give it is said as "no diffstat"
    return Fetched(source, folder, commit, base)


async def create(git: Git, fetched: Fetched) -> None:
    """The one step that changes the repository: the branch (and its worktree), its upstream; what of it was
    begun is undone if a later part fails or is interrupted. A part is noted before it runs: git can fail after
    doing it (a failing post-checkout hook fails `switch` and `worktree add` once they are done).

    Raises:
        ToolFailure: CONFLICT with git's words; what was made is undone.
    """
    source, folder, commit = fetched.source, fetched.folder, fetched.commit
    made: list[str] = []
    back = (await git.run("rev-parse", "--symbolic-full-name", "HEAD")).strip()
    back = back.removeprefix("refs/heads/") if back.startswith("refs/heads/") else None
    try:
        if folder is None:
            await git.run("branch", "--no-track", "--", source.branch, commit)
            made += ["branch", "switch"]
            await git.run("switch", "--quiet", "--end-of-options", source.branch)
        else:
            made += ["branch", "worktree"]
            await git.run("worktree", "add", "--quiet", "-b", source.branch, "--", str(folder), commit)
        made.append("upstream")
        await git.run("config", f"branch.{source.branch}.remote", source.remote)
        await git.run("config", f"branch.{source.branch}.merge", refs.full_ref(source.branch))
    except BaseException as exc:
        with anyio.CancelScope(shield=True):
            await _undo(git, fetched, made, back)
        if isinstance(exc, GitError):
            raise ToolFailure(Code.CONFLICT, f"{exc}; what was made is undone: nothing was changed") from None
        raise


async def _undo(git: Git, fetched: Fetched, made: list[str], back: str | None) -> None:
    """Undo what `create` began; `back` is the branch this tree was on (None: a detached HEAD)."""
    source, folder = fetched.source, fetched.folder
    if "upstream" in made:
        await git.succeeds("config", "--remove-section", f"branch.{source.branch}")
    if "worktree" in made and folder is not None:
        await git.succeeds("worktree", "remove", "--force", "--", str(folder))
    on = (await git.run("rev-parse", "--symbolic-full-name", "HEAD")).strip()
    if "switch" in made and on == refs.full_ref(source.branch):
        await git.succeeds("switch", "--quiet", *(["--end-of-options", back] if back else ["--detach", "@{-1}"]))
    if "branch" in made:
        await git.succeeds("branch", "-D", "--", source.branch)


async def diffstat(git: Git, fetched: Fetched) -> str:
    """`git diff --stat` from the run's start to the branch ("" without a start)."""
    if fetched.base is None:
        return ""
    return await git.run("diff", "--stat", f"{fetched.base}...{fetched.commit}", "--")
