"""An agent named by its id or by its pull request, resolved in one place for every face.

A PR (`https://github.com/o/r/pull/7` or `o/r#7`) is looked up with the API's `prUrl` filter (archived agents
included: a PR outlives its agent's activity). None is NOT_FOUND; two or more is an ambiguity that lists them
all, so the person picks one by id; nothing is guessed.
"""

from __future__ import annotations

from cursor_cloud_agents.api import Agent, CursorClient, ids
from cursor_cloud_agents.core.failures import Code, ToolFailure
from cursor_cloud_agents.github import PullRef, pull_ref

LISTED = 20
"""Agents read on one PR: more than one is already an ambiguity."""


def names_a_pr(text: str) -> bool:
    """Whether `text` names a PR rather than an agent (the parsers of both faces accept either)."""
    return pull_ref(text) is not None


async def resolve_agent(api: CursorClient, text: str) -> str:
    """The agent id that `text` names: an agent id as it is, or the one agent on the PR it names.

    Raises:
        ToolFailure: VALIDATION (neither an id nor a PR, or several agents on the PR), NOT_FOUND (no agent on it).
    """
    ref = pull_ref(text)
    if ref is None:
        try:
            return ids.agent_id(text)
        except ValueError:
            raise ToolFailure(
                Code.VALIDATION,
                f"{text[:80]!r} is neither an agent id (bc-<uuid>) nor a pull request (https://github.com/o/r/pull/7 "
                "or o/r#7)",
            ) from None
    return await agent_of_pr(api, ref)


async def agent_of_pr(api: CursorClient, ref: PullRef) -> str:
    page = await api.list_agents(limit=LISTED, pr_url=ref.url, include_archived=True)
    found = [agent.id for agent in page.items]
    if not found:
        raise ToolFailure(Code.NOT_FOUND, f"No agent of this key is on {ref.short} ({ref.url}).")
    if len(found) > 1:
        raise ToolFailure(
            Code.VALIDATION,
            f"{len(found)} agents are on {ref.short}: {', '.join(found)}. Name one of them by its id.",
            agent_ids=found,
        )
    return found[0]


def pr_of(agent: Agent, run_prs: list[str]) -> PullRef | None:
    """The agent's PR: its record's `repos[].prUrl`, else one its runs' branches carry."""
    for url in [repo.pr_url for repo in agent.repos or () if repo.pr_url] + run_prs:
        ref = pull_ref(url)
        if ref is not None:
            return ref
    return None


async def agent_and_pr(api: CursorClient, target: str) -> tuple[Agent, PullRef | None]:
    """The agent `target` names (an id or its PR) and its PR (None when it has none yet)."""
    agent = await api.get_agent(await resolve_agent(api, target))
    run_prs: list[str] = []
    if agent.latest_run_id is not None:
        run = await api.get_run(agent.id, agent.latest_run_id)
        run_prs = [branch.pr_url for branch in (run.git.branches if run.git else []) if branch.pr_url]
    return agent, pr_of(agent, run_prs)
