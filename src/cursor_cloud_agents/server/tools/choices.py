"""What an agent can be created with: models, repositories and cloud environments."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import Field

from cursor_cloud_agents.core import models as model_check
from cursor_cloud_agents.core.timing import REPOSITORIES_BUDGET_SECONDS as REPOSITORIES_BUDGET
from cursor_cloud_agents.server.pipeline.declaration import Catalogue
from cursor_cloud_agents.server.pipeline.params import ModelLookup, PageCursor, PageLimit, UrlFilter
from cursor_cloud_agents.server.pipeline.state import ServerState
from cursor_cloud_agents.server.views.choices import (
    EnvironmentsPage,
    ModelCatalogue,
    ModelDetail,
    OneModel,
    RepositoriesPage,
)

catalogue = Catalogue()


@catalogue.tool(title="List models", shrink_hint="pass model_id for one model")
async def cursor_list_models(
    state: ServerState,
    model_id: ModelLookup = None,
) -> ModelCatalogue | OneModel:
    """List the models an agent can use: per model its params and values, defaults, reasoning_param, aliases.

    restricted_combinations means only some combinations exist: pass model_id to see the valid variants.
    Cached 10 minutes.
    """
    models = await model_check.models_of(state.api, state.models)
    if model_id is not None:
        return OneModel(model=ModelDetail.of(model_check.find_model(models, model_id)))
    return ModelCatalogue.of(models)


def repositories_budget(_arguments: Mapping[str, Any]) -> float:
    return REPOSITORIES_BUDGET


@catalogue.tool(title="List repositories", budget=repositories_budget, shrink_hint="pass a smaller limit")
async def cursor_list_repositories(
    state: ServerState,
    query: UrlFilter = None,
    limit: Annotated[int, Field(ge=1, le=300, description="URLs per answer, 1-300.")] = 100,
    offset: Annotated[int, Field(ge=0, description="next_offset of the previous answer.")] = 0,
) -> RepositoriesPage:
    """List the GitHub repositories the key can use (URLs for cursor_create_agent).

    Cached 5 minutes; Cursor allows 1 call per minute, so a refusal answers QUOTA with retry_after_seconds.
    """
    return RepositoriesPage.of(await state.api.list_repositories(), query, offset, limit)


@catalogue.tool(title="List environments")
async def cursor_list_environments(
    state: ServerState, limit: PageLimit = 20, cursor: PageCursor = None
) -> EnvironmentsPage:
    """List one page of cloud environments; a name goes into cursor_create_agent env_name (env_type=cloud)."""
    return EnvironmentsPage.of(await state.api.list_environments(limit=limit, cursor=cursor))
