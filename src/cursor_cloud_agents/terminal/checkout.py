"""`checkout AGENT`: the agent's branch in a new worktree of this repository (or a local branch, `--branch`).

It finds the remote whose URL is the agent's repository (or `--remote`), fetches the agent's branch into
FETCH_HEAD only, makes a worktree beside this one (`--worktree DIR` to choose) or a local branch switched to
in place, and prints the diffstat against the run's starting ref and where to look. The order keeps every
refusal free of side effects: what git can tell locally first (a repository? the remote, the folder, a
clean tree for `--branch`), then the agent's reads, then the branch name's check and the names that exist,
then the fetch (which changes no ref), and only then the one step that creates something, undone whole if
a later step fails. The branch name is agent text: checked (`git.branch_problem`) before it reaches git.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

import anyio
from rich.text import Text

from cursor_cloud_agents.api import Agent, GitBranch, Run
from cursor_cloud_agents.core import Git, GitError, branch_problem, git_environment, repository_key, run_check, toplevel
from cursor_cloud_agents.core import remotes as remotes_of
from cursor_cloud_agents.terminal.changes import check_document, print_check
from cursor_cloud_agents.terminal.clean import agent_text
from cursor_cloud_agents.terminal.exits import OK, REFUSED, UsageError
from cursor_cloud_agents.terminal.status import shown_ended
from cursor_cloud_agents.terminal.term import Term

_SLUG = re.compile(r"[^A-Za-z0-9._-]+")
_FULL_SHA = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


@dataclass(frozen=True)
class Where:
    """Where the branch should go: a worktree folder (None: the default beside this one), or in place."""

    worktree: str | None
    in_place: bool
    remote: str | None


@dataclass(frozen=True)
class BranchSource:
    """The agent's branch to fetch and the remote it is on."""

    remote: str
    branch: str
    starting_ref: str | None
    pr_url: str | None


async def _toplevel(git: Git) -> Path:
    top = await toplevel(git)
    if top is None:
        raise UsageError(f"{git.cwd} is not in a git repository: run checkout inside a clone of the agent's repository")
    return top


async def _local_checks(git: Git, where: Where) -> tuple[Path, dict[str, str]]:
    """What git can tell before anything is read at Cursor: the repository, its remotes, the target."""
    top = await _toplevel(git)
    remotes = await remotes_of(git)
    if where.remote is not None and where.remote not in remotes:
        raise UsageError(f"no remote named {where.remote!r} here (remotes: {', '.join(remotes) or 'none'})")
    if where.worktree is not None and (git.cwd / where.worktree).exists():
        raise UsageError(f"{where.worktree} exists already: name a new folder with --worktree")
    if where.in_place and (await git.at(top).run("status", "--porcelain", "--untracked-files=no")).strip():
        raise UsageError(
            "the working tree has uncommitted changes: commit or stash them before --branch switches it, "
            "or drop --branch to check out into a new worktree; nothing was changed"
        )
    return top, remotes


def _not_pushed(agent: Agent, run: Run | None) -> UsageError:
    if run is None:
        return UsageError(f"agent {agent.id} has no run yet, so no branch: nothing was changed")
    if not run.is_terminal:
        return UsageError(
            f"agent {agent.id} has not pushed its branch yet (run {run.id} is {run.status}): wait for it with "
            f"`cursor-cloud-agents wait {agent.id}:{run.id}`, then check out again; nothing was changed"
        )
    return UsageError(f"agent {agent.id}'s run {run.id} ended {run.status} without a branch: nothing to check out")


def _source(agent: Agent, run: Run | None, remotes: Mapping[str, str], chosen: str | None) -> BranchSource:
    """The branch and the remote it is on: the remote whose URL is the branch's repository (or `chosen`)."""
    branches = [branch for branch in (run.git.branches if run and run.git else []) if branch.branch]
    if not branches:
        raise _not_pushed(agent, run)
    by_key = {repository_key(url): name for name, url in remotes.items()}
    for branch in branches:
        remote = chosen if chosen is not None else by_key.get(repository_key(branch.repo_url))
        if remote is not None and (chosen is None or len(branches) == 1 or _same(branch, remotes[chosen])):
            return _with_start(agent, branch, remote)
    shown = ", ".join(f"{name} ({url})" for name, url in remotes.items()) or "none"
    wanted = " or ".join(sorted({branch.repo_url for branch in branches}))
    raise UsageError(
        f"no remote of this repository is {wanted} (remotes: {shown}): add one "
        "(`git remote add NAME URL`) or name it with --remote; nothing was changed"
    )


def _same(branch: GitBranch, url: str) -> bool:
    return repository_key(branch.repo_url) == repository_key(url)


def _with_start(agent: Agent, branch: GitBranch, remote: str) -> BranchSource:
    name = branch.branch or ""
    problem = branch_problem(name)
    if problem is not None:
        raise UsageError(f"the agent's branch name {name!r} is refused: {problem}; nothing was changed")
    key = repository_key(branch.repo_url)
    starts = [repo.starting_ref for repo in agent.repos or [] if repository_key(repo.url) == key]
    return BranchSource(remote, name, starts[0] if starts else None, branch.pr_url)


def _default_folder(top: Path, branch: str) -> Path:
    """`../<repository>-<branch as a file name>`: beside this checkout, never anywhere the name points."""
    return top.parent / f"{top.name}-{_SLUG.sub('-', branch).strip('-.') or 'agent'}"


async def _names_free(git: Git, source: BranchSource, folder: Path | None) -> None:
    if await git.succeeds("show-ref", "--verify", "--quiet", f"refs/heads/{source.branch}"):
        raise UsageError(
            f"a local branch {source.branch} exists already: look at it with `git switch {source.branch}`, or "
            "delete it (`git branch -D`) to check out the agent's again; nothing was changed"
        )
    if folder is not None and folder.exists():
        raise UsageError(f"{folder} exists already: choose another folder with --worktree DIR; nothing was changed")


async def _fetch(git: Git, remote: str, ref: str) -> str | None:
    """The commit `ref` names on `remote`, fetched into FETCH_HEAD only (`--refmap=`: no ref is updated)."""
    try:
        await git.run("fetch", "--quiet", "--no-tags", "--refmap=", "--", remote, ref)
        return (await git.run("rev-parse", "--verify", "--end-of-options", "FETCH_HEAD^{commit}")).strip()
    except GitError:
        return None


async def _base(git: Git, source: BranchSource) -> str | None:
    """The commit the run started from, for the diffstat (None when it cannot be had)."""
    ref = source.starting_ref
    if ref is None or ref.startswith("-"):
        return None
    if _FULL_SHA.fullmatch(ref.lower()) and await git.succeeds("cat-file", "-e", f"{ref}^{{commit}}"):
        return ref.lower()
    return await _fetch(git, source.remote, ref if _FULL_SHA.fullmatch(ref.lower()) else f"refs/heads/{ref}")


async def _create(git: Git, source: BranchSource, commit: str, folder: Path | None) -> None:
    """The one step that changes the repository: the branch (and its worktree), its upstream; what of it was
    begun is undone if a later part fails or is interrupted. A part is noted before it runs: git can fail after
    doing it (a failing post-checkout hook fails `switch` and `worktree add` once they are done)."""
    made: list[str] = []
    back = (await git.run("rev-parse", "--symbolic-full-name", "HEAD")).strip()
    back = back.removeprefix("refs/heads/") if back.startswith("refs/heads/") else None
    try:
        if folder is None:
            await git.run("branch", "--no-track", "--", source.branch, commit)
            made += ["branch", "switch"]
            await git.run("switch", "--quiet", source.branch)
        else:
            made += ["branch", "worktree"]
            await git.run("worktree", "add", "--quiet", "-b", source.branch, "--", str(folder), commit)
        made.append("upstream")
        await git.run("config", f"branch.{source.branch}.remote", source.remote)
        await git.run("config", f"branch.{source.branch}.merge", f"refs/heads/{source.branch}")
    except BaseException:
        with anyio.CancelScope(shield=True):
            await _undo(git, source, folder, made, back)
        raise


async def _undo(git: Git, source: BranchSource, folder: Path | None, made: list[str], back: str | None) -> None:
    """Undo what `_create` began; `back` is the branch this tree was on (None: a detached HEAD)."""
    if "upstream" in made:
        await git.succeeds("config", "--remove-section", f"branch.{source.branch}")
    if "worktree" in made and folder is not None:
        await git.succeeds("worktree", "remove", "--force", "--", str(folder))
    on = (await git.run("rev-parse", "--symbolic-full-name", "HEAD")).strip()
    if "switch" in made and on == f"refs/heads/{source.branch}":
        await git.succeeds("switch", "--quiet", *([back] if back else ["--detach", "@{-1}"]))
    if "branch" in made:
        await git.succeeds("branch", "-D", "--", source.branch)


def _report(term: Term, agent: Agent, source: BranchSource, folder: Path | None, base: str | None, stat: str) -> None:
    where = "this working tree" if folder is None else str(folder)
    term.out.print(
        Text("checked out ", style="bold")
        .append_text(agent_text(source.branch, "bold"))
        .append(f" of {agent.id} from {source.remote} in {where}"),
        soft_wrap=True,
    )
    if base is None:
        term.out.print(Text("no diffstat: the run's starting ref could not be fetched", style="dim"))
    else:
        term.out.print(agent_text(f"against {source.starting_ref} ({base[:12]}):", "dim"))
        term.out.print(agent_text(stat.rstrip() or " no changes"), soft_wrap=True)
    # HEAD, not the branch's name: the line is made to be pasted into a shell, and the name is the agent's text.
    look = f"cd {shlex.quote(str(folder))} && " if folder is not None else ""
    since = f"{base[:12]}.." if base is not None else ""
    term.out.print(agent_text(f"look: {look}git log --stat {since}HEAD", "dim"), soft_wrap=True)
    if source.pr_url:
        term.out.print(Text("PR    ", style="dim").append_text(agent_text(source.pr_url, "bold")), soft_wrap=True)


async def checkout(
    term: Term, *, agent_id: str, where: Where, cwd: Path, env: Mapping[str, str], check: str | None = None
) -> int:
    """Put the agent's branch in a new worktree (or a local branch); refusals change nothing. With `check`, the
    person's command runs first in a throwaway worktree of the branch (`core/checks.py`); the branch is checked
    out either way, and a failed check makes the exit code 1."""
    git = Git.find(cwd, env)
    if git is None:
        raise UsageError("git is not on PATH: install git to check out an agent's branch")
    top, remotes = await _local_checks(git, where)
    git = git.at(top)
    async with term.open_session() as session:
        agent = await session.api.get_agent(agent_id)
        run = None if agent.latest_run_id is None else await session.api.get_run(agent_id, agent.latest_run_id)
        read_at = session.now()
    if session.git_config:  # simulated: the agent's remote is the stand-in, whatever the person's origin says
        git = replace(git, env=git_environment(git.env, interactive=term.interactive, config=session.git_config))
    source = _source(agent, run, remotes, where.remote)
    folder = None if where.in_place else cwd / where.worktree if where.worktree else _default_folder(top, source.branch)
    await _names_free(git, source, folder)
    commit = await _fetch(git, source.remote, f"refs/heads/{source.branch}")
    if commit is None:
        raise (
            _not_pushed(agent, run)
            if run is not None and not run.is_terminal
            else UsageError(
                f"{source.remote} has no branch {source.branch} (the agent's, not pushed or deleted since): "
                "nothing was changed"
            )
        )
    base = await _base(git, source)
    checked = (
        None if check is None else await run_check(git, commit, check, env=env, timeout=term.settings.check_seconds)
    )
    try:
        await _create(git, source, commit, folder)
    except GitError as exc:
        raise UsageError(f"{exc}; what was made is undone: nothing was changed") from None
    stat = "" if base is None else await git.run("diff", "--stat", f"{base}...{commit}", "--")
    await shown_ended(term, [run.id] if run is not None and run.is_terminal else [], read_at)
    if term.json:
        term.emit(
            {
                "agent_id": agent.id,
                "run_id": None if run is None else run.id,
                "branch": source.branch,
                "remote": source.remote,
                "commit": commit,
                "worktree": None if folder is None else str(folder),
                "starting_ref": source.starting_ref,
                "base": base,
                "diffstat": stat.rstrip() or None,
                "pr_url": source.pr_url,
                "check": None if checked is None else check_document(checked),
            }
        )
    else:
        if checked is not None:
            print_check(term, checked)
        _report(term, agent, source, folder, base, stat)
    return OK if checked is None or checked.passed else REFUSED
