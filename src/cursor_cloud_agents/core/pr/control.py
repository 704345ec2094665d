"""Starting, stopping and reading a PR watch kept in the store (the MCP tool `cursor_watch_pr`).

Starting writes the watch (the agent found by id or by its PR, its PR found on the agent) for a process that
keeps the store's watches (the server) to look at; it is the consent to up to `max_fixes` paid follow-ups within
the limits. Nothing is sent by starting: the first look decides. Stopping marks it `stopped`; the fixes sent stay.
"""

from __future__ import annotations

from dataclasses import replace

from cursor_cloud_agents.core import failures
from cursor_cloud_agents.core.failures import Code, ToolFailure
from cursor_cloud_agents.core.pr.record import WatchRecord, fresh_watch, load_watch, save_watch, with_told
from cursor_cloud_agents.core.pr.resolve import agent_and_pr, resolve_agent
from cursor_cloud_agents.core.state import CoreState


async def start_watch(state: CoreState, target: str, max_fixes: int) -> WatchRecord:
    """Watch the PR of the agent `target` names (kept going if already watched, with this cap).

    Raises:
        ToolFailure: CONFIGURATION_MISSING (no GitHub token for the server), NOT_FOUND (no PR), VALIDATION.
    """
    if state.settings.gh_token is None and state.settings.github_token is None:
        raise ToolFailure(
            failures.CONFIGURATION_MISSING,
            "The server has no GitHub token: set GH_TOKEN (or GITHUB_TOKEN) in its environment to a token that can "
            "read the repository's pull requests and checks. Nothing was started.",
        )
    agent, ref = await agent_and_pr(state.api, target)
    if ref is None:
        raise ToolFailure(Code.NOT_FOUND, f"{agent.id} has no pull request yet; start the watch once it has one.")
    now = state.clock.now()
    kept = await load_watch(state.store, agent.id, now)
    record = (
        kept
        if kept is not None and kept.pr == ref.short
        else fresh_watch(agent.id, ref.short, ref.url, max_fixes=max_fixes, resolve_conflicts=False)
    )
    record = replace(record, max_fixes=max_fixes)
    await save_watch(state.store, record, now)
    return record


async def stop_watch(state: CoreState, target: str) -> WatchRecord:
    """Stop watching; NOT_FOUND when the agent has no watch going."""
    record = await read_watch(state, target)
    said = {"event": "stopped", "agent_id": record.agent_id, "pr": record.pr, "commit": "", "reason": "stopped"}
    stopped = with_told(replace(record, ended="stopped", pending=None), [said])
    await save_watch(state.store, stopped, state.clock.now())
    return stopped


async def read_watch(state: CoreState, target: str) -> WatchRecord:
    """The watch going on the agent `target` names; NOT_FOUND when there is none."""
    agent_id = await resolve_agent(state.api, target)
    record = await load_watch(state.store, agent_id, state.clock.now())
    if record is None:
        raise ToolFailure(Code.NOT_FOUND, f"No PR watch is going on {agent_id}; start one with action=start.")
    return record
