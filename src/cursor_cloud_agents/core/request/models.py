"""Models: the published catalogue, and the check of a model choice against the published variants.

`GET /v1/models` lists, per model, its parameters and the variants (combinations) it accepts. The
whole list is large (the reference measured 240 KB with every variant), so the catalogue tool shows
a compact form and the variants of one model on request (`views/choices.py`, from the helpers here).
Creation and follow-up choose a model by id or by an alias that names exactly one model, and their
`reasoning_level` and `model_params` are checked here against the variants before anything is sent:
a combination that is not published is refused locally (docs/api-contract.md §3.2). The model list is read
through the server's ten-minute cache.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from cursor_cloud_agents.api import CursorClient, Model, ModelParam, ModelSelection, ModelVariant
from cursor_cloud_agents.core import failures
from cursor_cloud_agents.core.advice import Step, advice
from cursor_cloud_agents.core.cache import Cache
from cursor_cloud_agents.core.failures import ToolFailure

# The names the reasoning level goes by, most specific first (values are not normalised: xhigh != extra-high).
REASONING_PARAMS = ("effort", "reasoning_effort", "reasoning", "thinking")


ModelCache = Cache[str, list[Model]]


async def models_of(api: CursorClient, cache: ModelCache) -> list[Model]:
    """The published models, read through the server's cache."""
    models = cache.get("models")
    if models is None:
        models = await api.list_models()
        cache.put("models", models)
    return models


def _refuse(message: str, **context: Any) -> ToolFailure:
    return ToolFailure(failures.VALIDATION, message + " Nothing was sent.", **context)


def find_model(models: list[Model], wanted: str) -> Model:
    """The model whose id is `wanted`, or the one model with that alias; VALIDATION otherwise."""
    for model in models:
        if model.id == wanted:
            return model
    named = [model for model in models if wanted in (model.aliases or [])]
    if len(named) == 1:
        return named[0]
    if named:
        ids = ", ".join(model.id for model in named)
        raise _refuse(f"Alias {wanted!r} names several models ({ids}): pass one of these ids.")
    raise ToolFailure(
        failures.VALIDATION, f"Unknown model {wanted!r}. Nothing was sent.", advice=advice(Step.LIST_MODELS)
    )


def reasoning_param(model: Model) -> str | None:
    """The name this model gives its reasoning level (`effort`, `reasoning_effort`...), if it has one."""
    names = {parameter.id for parameter in model.parameters or []}
    return next((name for name in REASONING_PARAMS if name in names), None)


def combination(variant: ModelVariant) -> dict[str, str]:
    """A variant's parameter values by parameter name."""
    return {param.id: param.value for param in variant.params}


def published_variants(model: Model) -> list[ModelVariant]:
    """The variants that name a combination (a variant without params says nothing to check against)."""
    return [variant for variant in model.variants or [] if variant.params]


def allowed_values(model: Model) -> dict[str, list[str]]:
    """Each parameter of the model and the values it takes."""
    return {parameter.id: [value.value for value in parameter.values] for parameter in model.parameters or []}


def defaults(model: Model) -> dict[str, str]:
    """The parameter values of the default variant (what applies when none is given)."""
    variants = published_variants(model)
    chosen = next((variant for variant in variants if variant.is_default), variants[0] if variants else None)
    return {} if chosen is None else combination(chosen)


def restricted(model: Model) -> bool:
    """Whether only some combinations of the parameter values exist (then only the variants say which)."""
    published = {tuple(sorted(combination(variant).items())) for variant in published_variants(model)}
    return bool(published) and len(published) < math.prod(len(parameter.values) for parameter in model.parameters or [])


def _wanted_params(model: Model, reasoning_level: str | None, params: Mapping[str, str]) -> dict[str, str]:
    wanted = dict(params)
    if reasoning_level is not None:
        name = reasoning_param(model)
        if name is None:
            raise _refuse(f"Model {model.id} has no reasoning level; omit reasoning_level.")
        if wanted.get(name, reasoning_level) != reasoning_level:
            raise _refuse(f"reasoning_level and model_params[{name!r}] disagree; pass one of them.")
        wanted[name] = reasoning_level
    allowed = allowed_values(model)
    for name, value in wanted.items():
        if name not in allowed:
            known = ", ".join(allowed) or "none"
            raise _refuse(f"Model {model.id} has no parameter {name!r} (its parameters: {known}).")
        if value not in allowed[name]:
            raise _refuse(f"{name}={value!r} is not a value of model {model.id} (values: {', '.join(allowed[name])}).")
    return wanted


def select(
    models: list[Model], model_id: str, reasoning_level: str | None, params: Mapping[str, str]
) -> ModelSelection:
    """The model selection to send, checked against the published variants of the chosen model.

    Parameters left out take the default variant's values; the merged combination must be one of
    the variants, and the whole combination is sent, so the API never fills a costly default in.
    """
    model = find_model(models, model_id)
    wanted = _wanted_params(model, reasoning_level, params)
    if not wanted:
        return ModelSelection(id=model.id)
    combinations = [combination(variant) for variant in published_variants(model)]
    if not combinations:
        chosen = wanted
    else:
        chosen = defaults(model) | wanted
        if chosen not in combinations:
            valid = "; ".join(",".join(f"{key}={value}" for key, value in combo.items()) for combo in combinations)
            raise _refuse(
                f"Model {model.id} publishes no variant with {chosen}. Valid combinations: {valid}.",
                model_id=model.id,
            )
    return ModelSelection(id=model.id, params=[ModelParam(id=key, value=value) for key, value in chosen.items()])


async def selection(
    api: CursorClient,
    cache: ModelCache,
    model_id: str | None,
    reasoning_level: str | None,
    params: Mapping[str, str] | None,
) -> ModelSelection | None:
    """The checked model selection for a create or follow-up call (None: keep the default or current model)."""
    if model_id is None:
        if reasoning_level is not None or params:
            raise _refuse("reasoning_level and model_params need model_id.")
        return None
    return select(await models_of(api, cache), model_id, reasoning_level, params or {})
