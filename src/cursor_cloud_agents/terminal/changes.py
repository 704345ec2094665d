"""`diff AGENT` and `apply AGENT`: an agent's change, read and brought onto the current branch.

`diff` prints what the agent changed against the ref its run started from: a line per file (status,
lines added and removed) and the unified diff, coloured on a terminal and plain through a pipe, with the
agent's escape sequences, hidden and bidi characters removed (`clean.for_terminal`). `apply` puts the agent's
commits onto the current branch (fast-forward, `--merge` or `--cherry-pick`), refused on a dirty tree,
aborted whole on a conflict (`core/review/applying.py`). Git is the person's own, found as
`core/review/changes.py` says.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from rich.text import Text

from cursor_cloud_agents.core import (
    AgentChange,
    CheckResult,
    GitPlaces,
    Mode,
    Plan,
    cache_dir_for,
    carry_out,
    clone_place,
    diff,
    plan_apply,
    read_change,
    read_target,
    ready_to_change,
    refs,
    reviewed,
    stream_diff,
    toplevel,
)
from cursor_cloud_agents.terminal.ask import heard, is_yes
from cursor_cloud_agents.terminal.clean import agent_text, for_terminal
from cursor_cloud_agents.terminal.exits import OK, REFUSED, UsageError
from cursor_cloud_agents.terminal.term import Session, Term

_LINE_STYLES = (("+++", "bold"), ("---", "bold"), ("diff --git", "bold"), ("@@", "cyan"), ("+", "green"), ("-", "red"))
_MARKS = {"added": "A", "modified": "M", "renamed": "R", "deleted": "D"}


def places_for(term: Term, session: Session, env: Mapping[str, str], cwd: Path) -> GitPlaces:
    """Where git works for this command: the working directory's clone, else the cache of the session."""
    cache = session.git_cache or cache_dir_for(term.settings.state_dir)
    return GitPlaces(env, cache, session.git_config, term.interactive, cwd, term.settings.git_hosts)


def reviewed_dir(term: Term, session: Session) -> Path | None:
    """Where the commit a person reviewed is remembered: the state folder, or in simulated mode the simulator's
    own folder (simulated agents never enter the real state, as the store of paid acts keeps them out)."""
    if session.git_cache is not None:
        return session.git_cache.parent
    return term.settings.state_dir


def next_steps(agent_id: str, head: str) -> str:
    """What the person can do with a change once it is seen (apply lands exactly the commit seen)."""
    return (
        f"next: cursor-cloud-agents apply {agent_id} --commit {head} (onto this branch) · "
        f"checkout {agent_id} --check CMD (run your tests on it first)"
    )


def diff_line(line: str) -> Text:
    """One line of a unified diff, styled by its kind (styles vanish when the output is not a terminal)."""
    style = next((style for prefix, style in _LINE_STYLES if line.startswith(prefix)), "")
    return Text(line, style=style)


async def diff_command(
    term: Term, *, agent_id: str, run_id: str | None, paths: Sequence[str], cwd: Path, env: Mapping[str, str]
) -> int:
    """Print the agent's change: its files, then its diff."""
    for path in paths:
        problem = refs.path_problem(path)
        if problem is not None:
            raise UsageError(f"{ascii(path)} is not a path inside the repository ({problem}); nothing was read")
    async with term.open_session() as session:
        target = await read_target(session.api, agent_id, run_id)
        change = await read_change(places_for(term, session, env, cwd), target)
        remembered_in = reviewed_dir(term, session)
    if term.json:
        text = await diff(change.place.git, change.base, change.head, paths, cleaner=for_terminal)
        reviewed.remember(remembered_in, change.target.agent_id, change.head)
        term.emit(_document(change, text.text, text.hidden_removed, text.cut))
        return OK
    _header(term, change)

    def print_lines(text: str) -> None:
        for line in text.splitlines():
            term.out.print(diff_line(line), soft_wrap=True, overflow="ignore", crop=False)

    # Printed as git gives it, chunk by chunk: a diff of any size is never held whole here.
    hidden, cut = await stream_diff(
        change.place.git, change.base, change.head, paths, emit=print_lines, cleaner=for_terminal
    )
    reviewed.remember(remembered_in, change.target.agent_id, change.head)
    if hidden:
        term.out.print(Text(f"{hidden} hidden or control characters removed from the diff", style="yellow"))
    if cut:
        term.out.print(
            Text("the diff is cut here: name files or folders after the agent to see the rest", style="yellow")
        )
    term.out.print(Text(next_steps(agent_id, change.head), style="dim"), soft_wrap=True)
    return OK


def _header(term: Term, change: AgentChange) -> None:
    target, size = change.target, change.size
    term.out.print(
        Text(f"{target.agent_id} run {target.run_id} ({target.run_status}): ", style="bold")
        .append_text(agent_text(target.branch, "bold"))
        .append(
            f" against {target.starting_ref} ({change.base[:12]}..{change.head[:12]}), "
            f"{change.commits} commit{'s' * (change.commits != 1)}"
        ),
        soft_wrap=True,
    )
    for file in change.files:
        counts = "binary" if file.binary else f"+{file.additions} -{file.deletions}"
        name = f"{file.old_path} -> {file.path}" if file.old_path else file.path
        term.out.print(
            Text(f" {_MARKS[file.status]} ").append_text(agent_text(name)).append(f"  {counts}", style="dim")
        )
    term.out.print(
        Text(f" {size.files} files changed, +{size.additions} -{size.deletions}", style="bold"), soft_wrap=True
    )


def _document(change: AgentChange, text: str, hidden: int, cut: bool) -> dict[str, object]:
    target, size = change.target, change.size
    files = [
        {
            "path": for_terminal(f.path),
            "status": f.status,
            "binary": f.binary,
            "additions": f.additions,
            "deletions": f.deletions,
            "old_path": f.old_path,
        }
        for f in change.files
    ]
    return {
        "agent_id": target.agent_id,
        "run_id": target.run_id,
        "branch": for_terminal(target.branch),
        "starting_ref": target.starting_ref,
        "base": change.base,
        "head": change.head,
        "commits": change.commits,
        "files": files,
        "totals": {"files": size.files, "additions": size.additions, "deletions": size.deletions},
        "diff": text,
        "hidden_removed": hidden,
        "diff_cut": cut,
    }


async def apply_command(
    term: Term,
    *,
    agent_id: str,
    mode: Mode,
    remote: str | None,
    cwd: Path,
    env: Mapping[str, str],
    commit: str | None = None,
    confirmed: bool = False,
) -> int:
    """Apply the commit of the agent's change the person reviewed (`commit`, else the one `diff` showed last)
    onto the current branch, once the commit range is shown and confirmed; one line says what moved."""
    if not confirmed and not term.interactive:
        raise UsageError(
            "apply changes this branch and there is no terminal to confirm on: pass --yes; nothing was changed"
        )
    async with term.open_session() as session:
        reviewed_commit = commit or reviewed.recall(reviewed_dir(term, session), agent_id)
        if reviewed_commit is None:
            raise UsageError(
                f"no reviewed commit of {agent_id}: look at the change first (`cursor-cloud-agents diff {agent_id}` "
                "remembers the commit it showed), or name it with --commit SHA; nothing was changed"
            )
        places = places_for(term, session, env, cwd)
        git = places.git(cwd)
        if git is not None and (top := await toplevel(git)) is not None:
            await ready_to_change(git.at(top))  # a dirty tree is refused before anything is read
        target = await read_target(session.api, agent_id, None)
        place = await clone_place(places, cwd, target.repo_url, remote)
        plan = await plan_apply(place, target, mode, reviewed_commit)
        if plan.commits:
            _confirm_plan(term, plan, confirmed)
        applied = await carry_out(place, plan)
    if term.json:
        term.emit(
            {
                "agent_id": agent_id,
                "mode": applied.mode,
                "branch": for_terminal(applied.branch),
                "onto": applied.onto,
                "before": applied.before,
                "after": applied.after,
                "commits": applied.commits,
                "files": applied.size.files,
                "additions": applied.size.additions,
                "deletions": applied.size.deletions,
            }
        )
    else:
        term.out.print(agent_text(applied.line()), soft_wrap=True)
    return OK


def _confirm_plan(term: Term, plan: Plan, confirmed: bool) -> None:
    """Show the commits that would land and ask, unless `--yes`."""
    term.err.print(
        Text(f"apply {plan.commits} commit{'s' * (plan.commits != 1)} of ", style="bold")
        .append_text(agent_text(plan.target.branch, "bold"))
        .append(f" onto {plan.onto} by {plan.mode}: {plan.range()}, ")
        .append(f"{plan.size.files} files, +{plan.size.additions} -{plan.size.deletions}"),
        soft_wrap=True,
    )
    term.err.print(Text(f"see them: git log --stat {plan.range()}", style="dim"), soft_wrap=True)
    if confirmed:
        return
    answer = term.ask("Apply them? [y/N] ")
    if not is_yes(answer):
        raise UsageError(f"not confirmed (the answer was {heard(answer)}; only y or yes confirms); nothing was changed")


def print_check(term: Term, result: CheckResult) -> int:
    """Print a check's outcome (its last lines, its verdict); the exit code it means."""
    for line in result.last_lines.splitlines():
        term.out.print(agent_text(line, "dim"), soft_wrap=True)
    verdict = "passed" if result.passed else ("timed out" if result.timed_out else "failed")
    code = "" if result.exit_code is None else f", exit {result.exit_code}"
    style = "green" if result.passed else "red"
    term.out.print(
        Text(f"check {verdict}{code} in {result.seconds:.1f} s{_SANDBOXED[result.sandboxed]}: ", style=style).append(
            result.command
        ),
        soft_wrap=True,
    )
    return OK if result.passed else REFUSED


_SANDBOXED = {True: " in the sandbox", False: ""}


def check_document(result: CheckResult) -> dict[str, object]:
    """A check's outcome as JSON."""
    return {
        "command": result.command,
        "commit": result.commit,
        "passed": result.passed,
        "exit_code": result.exit_code,
        "timed_out": result.timed_out,
        "seconds": result.seconds,
        "output_bytes": result.output_bytes,
        "last_lines": for_terminal(result.last_lines),
        "sandboxed": result.sandboxed,
    }
