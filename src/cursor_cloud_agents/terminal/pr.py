"""`pr AGENT` and `babysit AGENT`: an agent's pull request, shown once or watched until it merges.

AGENT is an agent id or the agent's PR (`https://github.com/o/r/pull/7`, `o/r#7`), resolved by the core
(`resolve_agent`: the API's `prUrl` filter; two agents on one PR is an error listing both). GitHub is read with
its own token (`GH_TOKEN`, `GITHUB_TOKEN`, else `gh auth token`); without one, both commands stop before any
request with exit 2. `babysit` is the person's consent to up to `--max-fixes` paid follow-ups (within the
spend limit), said as it starts; it runs in the foreground until the PR is merged or closed (exit 0), or
until the watch cannot go on (exit 3: the PR or the agent can no longer be read). With `--json`, one line per
event (`watching`, `fix_sent`, `fix_skipped`, `fix_waiting`, `checks_waiting`, `conflict`, `escalated`,
`merged`, `closed`), each with `agent_id`, `pr` and `commit`.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from rich.text import Text

from cursor_cloud_agents.api import Agent
from cursor_cloud_agents.config import Secret
from cursor_cloud_agents.core import (
    CoreState,
    Event,
    PrWatch,
    WatchCannotGoOn,
    WatchRecord,
    agent_and_pr,
    fresh_watch,
    keep_watching,
    load_watch,
    save_watch,
    stamped,
    verdict,
)
from cursor_cloud_agents.github import (
    GitHubAccessMissing,
    GitHubError,
    GitHubReader,
    PullRef,
    github_token,
)
from cursor_cloud_agents.terminal.clean import agent_text
from cursor_cloud_agents.terminal.exits import OK, UsageError
from cursor_cloud_agents.terminal.notify import Notifier
from cursor_cloud_agents.terminal.paid import command_state
from cursor_cloud_agents.terminal.term import Session, Term

HOLDER = f"babysit-{uuid.uuid4().hex[:12]}"
"""This process's name on the watch it looks at: a server keeping the store's watches lets it be meanwhile."""
WATCH_STOPPED = 3
"""`babysit`'s exit when the watch cannot go on (the PR or the agent can no longer be read)."""

OpenGitHub = Callable[[str, Secret, Callable[[], float]], GitHubReader]
SIMULATED_TOKEN = Secret("simulated-github-token")
"""What a simulated session sends its GitHub stand-in (which checks none)."""


def open_github(url: str, token: Secret, now: Callable[[], float]) -> GitHubReader:
    return GitHubReader(url, token, now=now)


@dataclass(frozen=True)
class Watching:
    """What `babysit` was asked for."""

    max_fixes: int = 3
    interval: float = 60.0
    resolve_conflicts: bool = False


def _token(term: Term, env: Mapping[str, str]) -> Secret:
    if term.settings.simulated:
        return SIMULATED_TOKEN  # the simulator's GitHub stand-in, beside its API
    try:
        token = github_token(term.settings, env)
    except GitHubAccessMissing as missing:
        raise UsageError(f"{missing} Nothing was sent.") from None
    term.redactor.add(token.reveal())  # `gh auth token`'s too: masked in every line
    return token


async def _agent_and_pr(session: Session, target: str) -> tuple[Agent, PullRef]:
    agent, ref = await agent_and_pr(session.api, target)
    if ref is None:
        raise UsageError(f"{agent.id} has no pull request yet (none in its record or its runs' branches)")
    return agent, ref


async def pr(term: Term, *, target: str, env: Mapping[str, str], github: OpenGitHub = open_github) -> int:
    """Show the agent's PR: its head's checks, reviews and comments, mergeability, the fixes the watch sent."""
    token = _token(term, env)
    async with term.open_session() as session:
        agent, ref = await _agent_and_pr(session, target)
        reader = github(session.github_url or term.settings.github_api_url, token, session.now)
        try:
            pull = await reader.pull(ref)
            checks = await reader.checks(ref, pull.head_sha) if pull.head_sha else []
            comments = await reader.comments(ref)
        except GitHubError as failed:
            raise UsageError(str(failed)) from None
        finally:
            await reader.aclose()
        record = await load_watch(command_state(term, session).store, agent.id, session.now())
    state = "merged" if pull.merged else pull.state
    failed = [check.name for check in checks if check.state == "failure"]
    counts = {
        kind: sum(1 for comment in comments if comment.kind == kind) for kind in ("review", "review_comment", "issue")
    }
    fixes = record.fixes if record is not None else 0
    if term.json:
        term.emit(
            {
                "agent_id": agent.id,
                "pr": ref.short,
                "url": ref.url,
                "state": state,
                "commit": pull.head_sha,
                "checks": verdict(checks),
                "failed": failed,
                "pending": [check.name for check in checks if check.state == "pending"],
                "mergeable": pull.mergeable,
                "conflict": pull.conflicted,
                "reviews": counts["review"],
                "review_comments": counts["review_comment"],
                "comments": counts["issue"],
                "watched": record is not None,
                "fixes_sent": fixes,
            }
        )
        return OK
    term.out.print(Text(f"{ref.short} ", style="bold").append_text(agent_text(f"{state} · head {pull.head_sha[:12]}")))
    term.out.print(agent_text(f"checks: {verdict(checks)}" + (f" (failed: {', '.join(failed)})" if failed else "")))
    term.out.print(f"mergeable: {'conflict' if pull.conflicted else pull.mergeable}")
    term.out.print(
        f"reviews: {counts['review']}, comments on the diff: {counts['review_comment']}, comments: {counts['issue']}"
    )
    term.out.print(f"fixes sent by a watch: {fixes}" + ("" if record is not None else " (not watched)"))
    return OK


async def babysit(
    term: Term,
    *,
    target: str,
    watching: Watching,
    env: Mapping[str, str],
    github: OpenGitHub = open_github,
    notifier: Notifier | None = None,
) -> int:
    """Watch the agent's PR until it merges or closes, sending the fixes it calls for."""
    token = _token(term, env)
    notifier = notifier or Notifier()
    async with term.open_session() as session:
        state = command_state(term, session)
        agent, ref = await _agent_and_pr(session, target)
        reader = github(session.github_url or term.settings.github_api_url, token, session.now)
        try:
            return await _watch(
                term,
                state,
                PrWatch(state, reader, ref, await _record(state, agent, ref, watching), holder=HOLDER),
                watching,
                notifier,
            )
        finally:
            await reader.aclose()


async def _record(state: CoreState, agent: Agent, ref: PullRef, watching: Watching) -> WatchRecord:
    """The watch kept in the store for this agent and PR (a restart goes on from it), else a new one; written
    back with this command's cap and interval, so that a process keeping the store's watches sees them."""
    kept = await load_watch(state.store, agent.id, state.clock.now())
    if kept is None or kept.pr != ref.short:
        kept = fresh_watch(agent.id, ref.short, ref.url, max_fixes=watching.max_fixes, resolve_conflicts=False)
    record = replace(
        kept, max_fixes=watching.max_fixes, resolve_conflicts=watching.resolve_conflicts, interval=watching.interval
    )
    await save_watch(state.store, record, state.clock.now())
    return record


async def _watch(term: Term, state: CoreState, watch: PrWatch, watching: Watching, notifier: Notifier) -> int:
    record = watch.record
    watch.trusted_logins = term.settings.trusted_reviewers
    term.notice(
        f"Watching {record.pr} of {record.agent_id} every {watching.interval:g} s until it is merged or closed. "
        f"Starting babysit is your consent to up to {watching.max_fixes} paid follow-ups to this agent "
        f"({record.fixes} sent so far), within your limits (CURSOR_MCP_MAX_SPEND_CENTS); Ctrl-C stops watching.",
        style="yellow",
    )
    term.come_back = f"The agent goes on. Watch again with: cursor-cloud-agents babysit {record.agent_id}"

    async def emit(item: Event) -> None:
        if term.json:
            term.emit(stamped(item, state.clock.now()))
            term.out.file.flush()
        else:
            term.out.print(agent_text(_line(item)))
        if item["event"] == "escalated":
            await notifier.ended(f"escalated-{record.agent_id}-{record.pr}", f"{record.pr}: {_line(item)}")

    try:
        ended = await keep_watching(watch, emit, watching.interval, say=term.notice)
    except WatchCannotGoOn as stopped:
        term.notice(f"cursor-cloud-agents: the watch cannot go on: {stopped}", style="red")
        return WATCH_STOPPED
    term.come_back = None
    term.notice(f"{record.pr} {ended}; the watch is over.")
    return WATCH_STOPPED if ended == "stopped" else OK


def _line(item: Event) -> str:
    name = str(item["event"])
    commit = str(item.get("commit", ""))[:12]
    details = {
        "watching": f"watching (head {commit}; {item.get('comments_seen', 0)} comments already there are not acted on)",
        "fix_sent": f"fix sent for {item.get('trigger', 'a queued fix')} on {commit}"
        + (f": run {item['run_id']}" if "run_id" in item else " (queued behind the running run)"),
        "fix_skipped": f"no fix sent ({item.get('reason')}) on {commit}",
        "fix_waiting": f"waiting: {item.get('reason')} ({item.get('run_id')})",
        "checks_waiting": f"head {commit}: checks have not reported yet",
        "conflict": f"head {commit} conflicts with its base"
        + (" (asking the agent to merge it)" if item.get("fixing") else ""),
        "escalated": f"escalated: {item.get('fixes')} fixes sent and still failing on {commit}; nothing more is sent",
    }
    return details.get(name, f"{name} at {commit}")
