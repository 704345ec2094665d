"""`tidy [--dry-run] [--yes] [--idle-days D]`: archive the agents whose PR merged or closed, or idle for days,
after saving their result, usage and conversation under the state directory (`core/runs/tidy.py`).

Running agents are untouched and nothing is deleted. GitHub is read when a token is found (GH_TOKEN, GITHUB_TOKEN,
`gh auth token`); without one only idle agents are picked, and it says so. `--dry-run` shows the plan only.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from rich.text import Text

from cursor_cloud_agents.api import CursorClient, CursorError
from cursor_cloud_agents.config import Secret
from cursor_cloud_agents.core import TidyPlan, archive_saved, plan_tidy
from cursor_cloud_agents.github import GitHubAccessMissing, github_token
from cursor_cloud_agents.terminal.ask import heard, is_yes
from cursor_cloud_agents.terminal.clean import agent_text
from cursor_cloud_agents.terminal.exits import OK, UsageError
from cursor_cloud_agents.terminal.pr import OpenGitHub, open_github
from cursor_cloud_agents.terminal.term import Term


def _show(term: Term, plan: TidyPlan, *, dry_run: bool) -> None:
    if term.json:
        return
    for item in plan.picked:
        term.out.print(
            agent_text(f"{'would archive' if dry_run else 'archive'} {item.agent_id} {item.name or ''} · {item.reason}")
        )
    if plan.running:
        term.out.print(f"untouched: {len(plan.running)} agents with a run going", style="dim")
    if plan.unread:
        term.out.print(f"left alone: {len(plan.unread)} agents that could not be read", style="dim")


def _refuse_early(term: Term, *, dry_run: bool, confirmed: bool) -> None:
    """What makes a tidy impossible, said before any request."""
    if dry_run:
        return
    if term.settings.state_dir is None:
        raise UsageError(
            "tidy saves each agent's result, usage and conversation under CURSOR_MCP_STATE_DIR before archiving it: "
            "set it to a folder (not memory), or use --dry-run. Nothing was archived."
        )
    if not confirmed and not term.interactive:
        raise UsageError("archiving needs --yes when there is no terminal to confirm on. Nothing was archived.")


def _token(term: Term, env: Mapping[str, str]) -> Secret | None:
    try:
        return github_token(term.settings, env)
    except GitHubAccessMissing:
        term.notice("no GitHub access: only agents idle for long are picked (set GH_TOKEN to include merged PRs)")
        return None


def _report(term: Term, plan: TidyPlan, archived: list[str], *, dry_run: bool) -> None:
    freed = sum(1 for item in plan.picked if item.agent_id in archived and item.status == "ACTIVE")
    if term.json:
        term.emit(
            {
                "dry_run": dry_run,
                "picked": [item.__dict__ for item in plan.picked],
                "running": plan.running,
                "unread": plan.unread,
                "archived": archived,
                "slots_freed": freed,
            }
        )
    elif not plan.picked:
        term.out.print("nothing to tidy")
    elif not dry_run:
        term.out.print(f"{len(archived)} agents archived (reversible in Cursor's web app); {freed} slots freed")


async def _archive_all(term: Term, api: CursorClient, plan: TidyPlan, state_dir: Path) -> list[str]:
    archived: list[str] = []
    for item in plan.picked:
        try:
            folder = await archive_saved(api, item, state_dir)
        except (CursorError, OSError) as failed:
            term.notice(f"{item.agent_id} was not archived: {failed}", style="red")
            continue
        archived.append(item.agent_id)
        if not term.json:
            term.out.print(Text("archived ", style="green").append_text(agent_text(f"{item.agent_id} → {folder}")))
    return archived


async def tidy(
    term: Term,
    *,
    dry_run: bool,
    confirmed: bool,
    idle_days: float,
    env: Mapping[str, str],
    github: OpenGitHub = open_github,
) -> int:
    """Archive what the plan picks, each saved first; the slots freed said."""
    _refuse_early(term, dry_run=dry_run, confirmed=confirmed)
    token = _token(term, env)
    async with term.open_session() as session:
        reader = (
            None if token is None else github(session.github_url or term.settings.github_api_url, token, session.now)
        )
        try:
            plan = await plan_tidy(session.api, reader, session.now(), idle_days * 86_400)
        finally:
            if reader is not None:
                await reader.aclose()
        _show(term, plan, dry_run=dry_run)
        archived: list[str] = []
        if not dry_run and plan.picked and term.settings.state_dir is not None:
            if not confirmed:
                answer = term.ask(f"Archive these {len(plan.picked)} agents (their work saved first)? [y/N] ")
                if not is_yes(answer):
                    raise UsageError(f"not confirmed (the answer was {heard(answer)}); nothing was archived")
            archived = await _archive_all(term, session.api, plan, term.settings.state_dir)
    _report(term, plan, archived, dry_run=dry_run)
    return OK
