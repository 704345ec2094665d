"""What an agent can be created with: models, repositories and cloud environments."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from cursor_cloud_agents.api import Environment
from cursor_cloud_agents.server.domain import models as model_check
from cursor_cloud_agents.server.params import PageCursor, PageLimit
from cursor_cloud_agents.server.state import ServerState
from cursor_cloud_agents.server.toolkit import Toolkit

# GET /v1/repositories can take tens of seconds (CONTRACT.md §3.3); the toolkit caps it at the call limit.
REPOSITORIES_BUDGET = 95.0


def environment_view(environment: Environment) -> dict[str, Any]:
    """An environment as listed: its name goes into `env_name` with `env_type=cloud`."""
    return {
        "id": environment.id,
        "name": environment.name,
        "owner": environment.owner,
        "repos": [repo.url for repo in environment.repos or []] or None,
    }


def register(kit: Toolkit, state: ServerState) -> None:
    """Declare the catalogue tools on `kit`."""

    @kit.tool(title="List models", shrink_hint="pass model_id for one model")
    async def cursor_list_models(
        model_id: Annotated[str | None, Field(description="One model (id or alias): adds its variants.")] = None,
    ) -> dict[str, Any]:
        """List the models an agent can use: per model its params and values, defaults, reasoning_param, aliases.

        restricted_combinations means only some combinations exist: pass model_id to see the valid variants.
        Cached 10 minutes.
        """
        models = await model_check.models_of(state.api, state.models)
        if model_id is not None:
            return {"model": model_check.detailed(model_check.find_model(models, model_id))}
        return {"models": [model_check.compact(model) for model in models], "count": len(models)}

    @kit.tool(title="List repositories", budget=lambda _args: REPOSITORIES_BUDGET, shrink_hint="pass a smaller limit")
    async def cursor_list_repositories(
        query: Annotated[str | None, Field(description="Keep URLs containing this (case-insensitive).")] = None,
        limit: Annotated[int, Field(ge=1, le=300, description="URLs per answer, 1-300.")] = 100,
        offset: Annotated[int, Field(ge=0, description="next_offset of the previous answer.")] = 0,
    ) -> dict[str, Any]:
        """List the GitHub repositories the key can use (URLs for cursor_create_agent).

        Cached 5 minutes; Cursor allows 1 call per minute, so a refusal answers QUOTA with retry_after_seconds.
        """
        repositories = await state.api.list_repositories()
        urls = [repo.url for repo in repositories if query is None or query.lower() in repo.url.lower()]
        page = urls[offset : offset + limit]
        more = offset + limit < len(urls)
        return {
            "repositories": page,
            "total_count": len(repositories),
            "matched": len(urls) if query is not None else None,
            "next_offset": offset + limit if more else None,
        }

    @kit.tool(title="List environments")
    async def cursor_list_environments(limit: PageLimit = 20, cursor: PageCursor = None) -> dict[str, Any]:
        """List one page of cloud environments; a name goes into cursor_create_agent env_name (env_type=cloud)."""
        page = await state.api.list_environments(limit=limit, cursor=cursor)
        return {
            "environments": [environment_view(environment) for environment in page.items],
            "next_cursor": page.next_cursor,
            "has_more": page.next_cursor is not None,
        }
