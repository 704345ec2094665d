"""Catalogue answers: the models (compact, or one with its variants), a model choice, repositories, environments."""

from __future__ import annotations

from typing import Literal

from cursor_cloud_agents.api import Environment, Model, ModelSelection, ModelVariant, Page, Repository
from cursor_cloud_agents.core import models as model_check
from cursor_cloud_agents.server.views.view import View


class ModelRow(View):
    """One model as the catalogue lists it: parameters and their values, defaults, reasoning name, aliases."""

    id: str
    name: str | None
    aliases: list[str] | None
    params: dict[str, list[str]] | None
    defaults: dict[str, str] | None
    reasoning_param: str | None
    restricted_combinations: Literal[True] | None

    @classmethod
    def of(cls, model: Model) -> ModelRow:
        return cls(
            id=model.id,
            name=model.display_name if model.display_name != model.id else None,
            aliases=model.aliases or None,
            params=model_check.allowed_values(model) or None,
            defaults=model_check.defaults(model) or None,
            reasoning_param=model_check.reasoning_param(model),
            restricted_combinations=model_check.restricted(model) or None,
        )


class VariantRow(View):
    """One combination the API accepts for a model."""

    params: dict[str, str]
    name: str | None
    default: Literal[True] | None

    @classmethod
    def of(cls, variant: ModelVariant) -> VariantRow:
        return cls(
            params=model_check.combination(variant), name=variant.display_name, default=variant.is_default or None
        )


class ModelDetail(ModelRow):
    """One model with its valid variants."""

    description: str | None
    variants: list[VariantRow] | None

    @classmethod
    def of(cls, model: Model) -> ModelDetail:
        variants = [VariantRow.of(variant) for variant in model_check.published_variants(model)]
        return cls(**dict(ModelRow.of(model)), description=model.description, variants=variants or None)


class ModelCatalogue(View):
    """The answer of `cursor_list_models` without a model_id."""

    models: list[ModelRow]
    count: int

    @classmethod
    def of(cls, models: list[Model]) -> ModelCatalogue:
        return cls(models=[ModelRow.of(model) for model in models], count=len(models))


class OneModel(View):
    """The answer of `cursor_list_models` with a model_id."""

    model: ModelDetail


class ModelChoice(View):
    """The model a create or follow-up chose, as its answer shows it (the API never echoes the model)."""

    id: str
    params: dict[str, str] | None

    @classmethod
    def of(cls, chosen: ModelSelection | None) -> ModelChoice | None:
        """None (omitted) when the call kept the default or current model."""
        if chosen is None:
            return None
        return cls(id=chosen.id, params={param.id: param.value for param in chosen.params or []} or None)


class RepositoriesPage(View):
    """A page of repository URLs, with the count of all and of those the query matched."""

    repositories: list[str]
    total_count: int
    matched: int | None
    next_offset: int | None

    @classmethod
    def of(cls, repositories: list[Repository], query: str | None, offset: int, limit: int) -> RepositoriesPage:
        """The URLs containing `query` (case-insensitive), `limit` of them from `offset`."""
        urls = [repo.url for repo in repositories if query is None or query.lower() in repo.url.lower()]
        more = offset + limit < len(urls)
        return cls(
            repositories=urls[offset : offset + limit],
            total_count=len(repositories),
            matched=len(urls) if query is not None else None,
            next_offset=offset + limit if more else None,
        )


class EnvironmentRow(View):
    """An environment as listed: its name goes into `env_name` with `env_type=cloud`."""

    id: str
    name: str | None
    owner: str | None
    repos: list[str] | None

    @classmethod
    def of(cls, environment: Environment) -> EnvironmentRow:
        repos = [repo.url for repo in environment.repos or []]
        return cls(id=environment.id, name=environment.name, owner=environment.owner, repos=repos or None)


class EnvironmentsPage(View):
    """One page of environments and the cursor of the next."""

    environments: list[EnvironmentRow]
    next_cursor: str | None
    has_more: bool

    @classmethod
    def of(cls, page: Page[Environment]) -> EnvironmentsPage:
        environments = [EnvironmentRow.of(environment) for environment in page.items]
        return cls(environments=environments, next_cursor=page.next_cursor, has_more=page.next_cursor is not None)
