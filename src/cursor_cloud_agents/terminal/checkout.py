"""`checkout AGENT`: the agent's branch in a new worktree of this repository (or a local branch, `--branch`).

Presentation only: the git (the checks, the fetch, the creation undone whole on failure) is
`core/review/checkout.py`'s. With `--check CMD` the person's command runs first on the agent's commit
(`core/review/checks.py`); a failing check checks nothing out and changes no branch: exit 1, the check's verdict,
and `--anyway` to look all the same. Then the diffstat against the run's starting ref and where to look.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from rich.text import Text

from cursor_cloud_agents.api import Agent, Run
from cursor_cloud_agents.core import CheckResult, CheckRules, Git, git_environment, repository_key, run_check
from cursor_cloud_agents.core import checkout as core_checkout
from cursor_cloud_agents.terminal.changes import check_document, print_check
from cursor_cloud_agents.terminal.clean import agent_text
from cursor_cloud_agents.terminal.exits import OK, REFUSED, UsageError
from cursor_cloud_agents.terminal.status import shown_ended
from cursor_cloud_agents.terminal.term import Term

Where = core_checkout.Where
Reported = core_checkout.Reported
Fetched = core_checkout.Fetched
__all__ = ["Where", "checkout"]


def _not_pushed(agent: Agent, run: Run | None) -> UsageError:
    if run is None:
        return UsageError(f"agent {agent.id} has no run yet, so no branch: nothing was changed")
    if not run.is_terminal:
        return UsageError(
            f"agent {agent.id} has not pushed its branch yet (run {run.id} is {run.status}): wait for it with "
            f"`cursor-cloud-agents wait {agent.id}:{run.id}`, then check out again; nothing was changed"
        )
    return UsageError(f"agent {agent.id}'s run {run.id} ended {run.status} without a branch: nothing to check out")


def _reported(agent: Agent, run: Run | None) -> tuple[list[Reported], dict[str, str | None]]:
    """The branches the run reports, and each repository's starting ref, as the API gave them."""
    branches = [
        Reported(branch.repo_url, branch.branch or "", branch.pr_url)
        for branch in (run.git.branches if run and run.git else [])
        if branch.branch
    ]
    if not branches:
        raise _not_pushed(agent, run)
    starts: dict[str, str | None] = {}
    for repo in agent.repos or []:
        starts.setdefault(repository_key(repo.url), repo.starting_ref)
    return branches, starts


def _report(term: Term, agent: Agent, fetched: Fetched, stat: str) -> None:
    source, folder, base = fetched.source, fetched.folder, fetched.base
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


def _gate_refusal(term: Term, agent_id: str, checked: CheckResult) -> int:
    """A failed check: its verdict, that nothing was checked out, and how to look anyway; exit 1."""
    if term.json:
        document = check_document(checked)
        term.emit({"agent_id": agent_id, "checked_out": False, "commit": checked.commit, "check": document})
    else:
        print_check(term, checked)
        term.out.print(
            Text(
                f"nothing was checked out and no branch changed: the check failed on {checked.commit[:12]}. "
                f"To look at it anyway: cursor-cloud-agents checkout {agent_id} --check CMD --anyway "
                "(or without --check)",
                style="red",
            ),
            soft_wrap=True,
        )
    return REFUSED


async def checkout(
    term: Term,
    *,
    agent_id: str,
    where: Where,
    cwd: Path,
    env: Mapping[str, str],
    check: str | None = None,
    anyway: bool = False,
) -> int:
    """Put the agent's branch in a new worktree (or a local branch); refusals change nothing. With `check`, the
    person's command runs first on the agent's commit; a failing check checks nothing out (exit 1) unless
    `anyway`, which checks it out all the same (and still exits 1)."""
    git = Git.find(cwd, env)
    if git is None:
        raise UsageError("git is not on PATH: install git to check out an agent's branch")
    top, remotes = await core_checkout.local_checks(git, where)
    git = git.at(top)
    async with term.open_session() as session:
        agent = await session.api.get_agent(agent_id)
        run = None if agent.latest_run_id is None else await session.api.get_run(agent_id, agent.latest_run_id)
        read_at = session.now()
    if session.git_config:  # simulated: the agent's remote is the stand-in, whatever the person's origin says
        git = replace(git, env=git_environment(git.env, interactive=term.interactive, config=session.git_config))
    branches, starts = _reported(agent, run)
    source = core_checkout.source_of(branches, starts, remotes, where.remote)
    folder = (
        None
        if where.in_place
        else cwd / where.worktree
        if where.worktree
        else core_checkout.default_folder(top, source.branch)
    )
    fetched = await core_checkout.fetch_branch(git, source, folder)
    if fetched is None:
        raise (
            _not_pushed(agent, run)
            if run is not None and not run.is_terminal
            else UsageError(
                f"{source.remote} has no branch {source.branch} (the agent's, not pushed or deleted since): "
                "nothing was changed"
            )
        )
    checked = (
        None
        if check is None
        else await run_check(
            git, fetched.commit, check, env=env, timeout=term.settings.check_seconds, rules=CheckRules.of(term.settings)
        )
    )
    if checked is not None and not checked.passed and not anyway:
        return _gate_refusal(term, agent.id, checked)
    await core_checkout.create(git, fetched)
    stat = await core_checkout.diffstat(git, fetched)
    await shown_ended(term, [run.id] if run is not None and run.is_terminal else [], read_at)
    if term.json:
        term.emit(
            {
                "agent_id": agent.id,
                "run_id": None if run is None else run.id,
                "checked_out": True,
                "branch": source.branch,
                "remote": source.remote,
                "commit": fetched.commit,
                "worktree": None if folder is None else str(folder),
                "starting_ref": source.starting_ref,
                "base": fetched.base,
                "diffstat": stat.rstrip() or None,
                "pr_url": source.pr_url,
                "check": None if checked is None else check_document(checked),
            }
        )
    else:
        if checked is not None:
            print_check(term, checked)
        _report(term, agent, fetched, stat)
    return OK if checked is None or checked.passed else REFUSED
