"""Agents: list, read, create (paid), archive and delete.

Creation is the paid call that must never happen twice: the agent id is minted before the POST
(or taken from the caller), noted on the call so that every failure carries it, and the POST is
sent once (the client never replays it). With variables, where the API forbids a client id, the
required `name` is the key to find the agent again. Archive and delete resolve a lost answer by
reading the agent, since both are idempotent in effect.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import Field

from cursor_cloud_agents.api import (
    AgentSummary,
    CreateAgentRequest,
    CreatedAgent,
    CursorClient,
    MutationOutcomeUnknownError,
    NotFoundError,
)
from cursor_cloud_agents.core import (
    MAX_ATTEMPTS,
    MIN_ATTEMPTS,
    AgentAsked,
    AttemptModel,
    RepoInput,
    consent,
    create_attempts,
    create_within_limits,
    images_of,
    journal,
    new_agent_request,
    plan_set,
    scan,
    texts,
)
from cursor_cloud_agents.core.timing import CREATE_BUDGET_SECONDS as CREATE_BUDGET
from cursor_cloud_agents.server.pipeline.answers import Answers
from cursor_cloud_agents.server.pipeline.declaration import Access, Catalogue
from cursor_cloud_agents.server.pipeline.params import (
    AgentId,
    AttemptInput,
    Images,
    ModelId,
    ModelParams,
    NameFilter,
    PageCursor,
    PageLimit,
    PrUrl,
    Reasoning,
    Text,
)
from cursor_cloud_agents.server.pipeline.state import ServerState
from cursor_cloud_agents.server.pipeline.toolcall import ToolCall
from cursor_cloud_agents.server.views.agents import (
    AgentRow,
    AgentsPage,
    AgentView,
    ArchivedView,
    CreatedAgentView,
    DeletedView,
    PendingCreationView,
    ResumedAgentView,
)
from cursor_cloud_agents.server.views.attempts import AttemptsView

LIST_ENVELOPE_BYTES = 600
"""Room for next_cursor, has_more, scanned and the braces around a list of agents."""

catalogue = Catalogue()


def name_filter(needle: str) -> Callable[[AgentSummary], bool]:
    """Whether an agent's name contains `needle` (lowercase), as the name filter keeps it."""
    return lambda agent: needle in (agent.name or "").lower()


@dataclass(frozen=True)
class AgentFilters:
    """The filters of an agent listing: a lowercase name substring (ours), a PR URL and archived (the API's)."""

    needle: str | None
    pr_url: str | None
    include_archived: bool


async def list_page(
    api: CursorClient, answers: Answers, filters: AgentFilters, limit: int, cursor: str | None
) -> scan.ScanPage[AgentSummary]:
    """One page of agents that fits the result cap: when long names overflow it, the page is read again shorter,
    so that next_cursor resumes exactly after the last agent shown."""
    keep = None if filters.needle is None else name_filter(filters.needle)
    mark = scan.fingerprint(filters.needle, filters.pr_url, filters.include_archived)

    async def read(count: int) -> scan.ScanPage[AgentSummary]:
        return await scan.scan_agents(
            api,
            limit=count,
            cursor=cursor,
            keep=keep,
            mark=mark,
            pr_url=filters.pr_url,
            include_archived=filters.include_archived,
        )

    page = await read(limit)
    fits = answers.rows_that_fit([AgentRow.of(agent) for agent in page.items], answers.max_bytes - LIST_ENVELOPE_BYTES)
    if fits < len(page.items):
        page = await read(max(fits, 1))
    return page


async def resolve_by_read(api: CursorClient, agent_id: str, unknown: MutationOutcomeUnknownError, *, want: str) -> None:
    """After a lost answer to archive, unarchive or delete: return if a read shows it happened, else re-raise."""
    try:
        status = (await api.get_agent(agent_id)).status
    except NotFoundError:
        status = "DELETED"
    happened = status == want or (want == "UNARCHIVED" and status in ("ACTIVE", "IDLE"))
    if not happened:
        raise unknown


@catalogue.tool(title="List agents")
async def cursor_list_agents(
    state: ServerState,
    limit: PageLimit = 20,
    cursor: PageCursor = None,
    name: NameFilter = None,
    pr_url: PrUrl = None,
    include_archived: Annotated[bool, Field(description="Also archived agents.")] = False,
) -> AgentsPage:
    """List agents, one page; each with its web url and latest_run_id.

    name filters locally over up to 5 pages of 100 and reports scanned; pass next_cursor back unchanged
    with the same filters.
    """
    needle = name.lower() if name else None
    filters = AgentFilters(needle, pr_url, include_archived)
    page = await list_page(state.api, state.answers, filters, limit, cursor)
    return AgentsPage.of(page, named=needle is not None)


@catalogue.tool(title="Get agent")
async def cursor_get_agent(state: ServerState, agent_id: AgentId) -> AgentView | PendingCreationView:
    """Read one agent: status, latest_run_id, repositories, branch settings, url.

    Use it to resolve MUTATION_OUTCOME_UNKNOWN: the agent exists if this finds it.
    """
    try:
        return AgentView.of(await state.api.get_agent(agent_id))
    except NotFoundError:
        now = state.clock.now()
        pending = journal.pending(await state.store.read(now), agent_id, now)
        if pending is None:
            raise
        return PendingCreationView.of(pending)


def create_budget(_arguments: Mapping[str, Any]) -> float:
    return CREATE_BUDGET


@catalogue.tool(title="Create agent", access=Access.WRITE, idempotent=False, budget=create_budget)
async def cursor_create_agent(
    state: ServerState,
    call: ToolCall,
    prompt: Text,
    images: Images = None,
    model_id: ModelId = None,
    reasoning_level: Reasoning = None,
    model_params: ModelParams = None,
    repository: Annotated[str | None, Field(description="One repository URL.")] = None,
    starting_ref: Annotated[str | None, Field(description="Branch or full SHA for repository.")] = None,
    repositories: Annotated[list[RepoInput] | None, Field(max_length=20, description="Up to 20.")] = None,
    env_type: Literal["cloud", "pool", "machine"] | None = None,
    env_name: Annotated[str | None, Field(description="Cloud environment or pool name.")] = None,
    name: Annotated[
        str | None, Field(max_length=texts.NAME_MAX_CHARS, description=f"At most {texts.NAME_MAX_CHARS} characters.")
    ] = None,
    agent_id: Annotated[AgentId | None, Field(description="Your bc-<uuid>, to retry safely.")] = None,
    auto_create_pr: bool = False,
    env_vars: Annotated[dict[str, str] | None, Field(description="Variables for the agent.")] = None,
    forward_env: Annotated[list[str] | None, Field(description="Names from CURSOR_MCP_FORWARD_ENV.")] = None,
    attempts: Annotated[
        list[AttemptInput] | None,
        Field(min_length=MIN_ATTEMPTS, max_length=MAX_ATTEMPTS, description="2-8 models: one agent each."),
    ] = None,
) -> CreatedAgentView | ResumedAgentView | AttemptsView:
    """Create a Cloud Agent and start its first run (paid). Returns agent_id, run_id, url without waiting.

    With env_vars/forward_env, name is required (agent_id is not allowed). On MUTATION_OUTCOME_UNKNOWN never
    resend: read the returned agent_id. attempts: the same task on several models, all or none (a group).
    """
    asked = AgentAsked(
        prompt=prompt,
        images=await images_of(call, images),
        model_id=model_id,
        reasoning_level=reasoning_level,
        model_params=model_params,
        repository=repository,
        starting_ref=starting_ref,
        repositories=repositories,
        env_type=env_type,
        env_name=env_name,
        name=name,
        agent_id=agent_id,
        auto_create_pr=auto_create_pr,
        env_vars=env_vars,
        forward_env=forward_env,
    )
    if attempts is not None:  # the set's plan names each attempt after `name` and gives it an id
        return await _create_attempts(state, call, await new_agent_request(state, asked, for_set=True), attempts, name)
    request = await new_agent_request(state, asked)
    call.note(agent_id=request.agent_id, name=name)
    created = await create_within_limits(
        state, request, call=call, asks=state.settings.ask, on_resend=lambda agent_id: call.note(agent_id=agent_id)
    )
    if isinstance(created, CreatedAgent):
        return CreatedAgentView.of(created, request.model)
    return ResumedAgentView.of(created)


async def _create_attempts(
    state: ServerState, call: ToolCall, shared: CreateAgentRequest, attempts: list[AttemptInput], name: str | None
) -> AttemptsView:
    """The same task on each model asked: one paid act for the set (core/attempts/attempts.py)."""
    choices = [AttemptModel(item.model_id, item.reasoning_level, item.model_params) for item in attempts]
    plan = await plan_set(state, shared, choices, name)

    def note(group_id: str, agent_ids: list[str]) -> None:
        call.note(group_id=group_id, agent_ids=",".join(agent_ids))

    return AttemptsView.of(await create_attempts(state, plan, call=call, asks=state.settings.ask, on_ids=note))


@catalogue.tool(title="Archive agent", access=Access.DESTRUCTIVE, idempotent=True)
async def cursor_archive_agent(
    state: ServerState,
    agent_id: AgentId,
    unarchive: Annotated[bool, Field(description="Restore instead.")] = False,
) -> ArchivedView:
    """Archive an agent (reversible with unarchive=true). An archived agent is hidden from lists and takes
    no follow-up."""
    action = state.api.unarchive_agent if unarchive else state.api.archive_agent
    try:
        await action(agent_id)
    except MutationOutcomeUnknownError as unknown:
        await resolve_by_read(state.api, agent_id, unknown, want="UNARCHIVED" if unarchive else "ARCHIVED")
    return ArchivedView(agent_id=agent_id, archived=not unarchive)


@catalogue.tool(title="Delete agent", access=Access.DELETE)
async def cursor_delete_agent(
    state: ServerState,
    call: ToolCall,
    agent_id: AgentId,
    confirm_agent_id: Annotated[AgentId | None, Field(description="agent_id again.")] = None,
) -> DeletedView:
    """Delete an agent permanently. Needs CURSOR_MCP_ALLOW_DELETE=1; the user is asked if the client can
    (CURSOR_MCP_ASK), else confirm_agent_id must equal agent_id. cursor_archive_agent is the reversible
    alternative."""
    del confirm_agent_id  # the toolkit's delete gate checked it (required unless the user can be asked)
    if consent.will_ask(call, "delete", state.settings.ask):
        agent = await state.api.get_agent(agent_id)
        question = consent.deletion(agent, state.clock.now())
        await consent.ask_before(call, question, "the agent was not deleted", state.settings.ask)
    try:
        await state.api.delete_agent(agent_id)
    except MutationOutcomeUnknownError as unknown:
        await resolve_by_read(state.api, agent_id, unknown, want="DELETED")
    return DeletedView(agent_id=agent_id)
