"""Models: the compact catalogue, and the check of a model choice against the published variants.

`GET /v1/models` lists, per model, its parameters and the variants (combinations) it accepts. The
whole list is large (the reference measured 240 KB with every variant), so the catalogue tool shows
a compact form and the variants of one model on request. Creation and follow-up choose a model by
id or by an alias that names exactly one model, and their `reasoning_level` and `model_params` are
checked here against the variants before anything is sent: a combination that is not published is
refused locally (CONTRACT.md §3.2). The model list is read through the server's ten-minute cache.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from cursor_cloud_agents.api import CursorClient, Model, ModelParam, ModelSelection, ModelVariant
from cursor_cloud_agents.server import failures
from cursor_cloud_agents.server.failures import ToolFailure
from cursor_cloud_agents.server.state import Cache

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
    raise _refuse(f"Unknown model {wanted!r}: cursor_list_models lists the ids and aliases.")


def reasoning_param(model: Model) -> str | None:
    """The name this model gives its reasoning level (`effort`, `reasoning_effort`...), if it has one."""
    names = {parameter.id for parameter in model.parameters or []}
    return next((name for name in REASONING_PARAMS if name in names), None)


def _combination(variant: ModelVariant) -> dict[str, str]:
    return {param.id: param.value for param in variant.params}


def _variants(model: Model) -> list[ModelVariant]:
    return [variant for variant in model.variants or [] if variant.params]


def defaults(model: Model) -> dict[str, str]:
    """The parameter values of the default variant (what applies when none is given)."""
    variants = _variants(model)
    chosen = next((variant for variant in variants if variant.is_default), variants[0] if variants else None)
    return {} if chosen is None else _combination(chosen)


def _restricted(model: Model) -> bool:
    parameters = model.parameters or []
    published = {tuple(sorted(_combination(variant).items())) for variant in _variants(model)}
    return bool(published) and len(published) < math.prod(len(parameter.values) for parameter in parameters)


def compact(model: Model) -> dict[str, Any]:
    """One model as the catalogue shows it: parameters and their values, defaults, reasoning name, aliases."""
    parameters = {parameter.id: [value.value for value in parameter.values] for parameter in model.parameters or []}
    return {
        "id": model.id,
        "name": model.display_name if model.display_name != model.id else None,
        "aliases": model.aliases or None,
        "params": parameters or None,
        "defaults": defaults(model) or None,
        "reasoning_param": reasoning_param(model),
        "restricted_combinations": _restricted(model) or None,
    }


def detailed(model: Model) -> dict[str, Any]:
    """One model with its valid variants (each combination the API accepts)."""
    variants = [
        {"params": _combination(variant), "name": variant.display_name, "default": variant.is_default or None}
        for variant in _variants(model)
    ]
    return compact(model) | {"description": model.description, "variants": variants or None}


def _wanted_params(model: Model, reasoning_level: str | None, params: Mapping[str, str]) -> dict[str, str]:
    wanted = dict(params)
    if reasoning_level is not None:
        name = reasoning_param(model)
        if name is None:
            raise _refuse(f"Model {model.id} has no reasoning level; omit reasoning_level.")
        if wanted.get(name, reasoning_level) != reasoning_level:
            raise _refuse(f"reasoning_level and model_params[{name!r}] disagree; pass one of them.")
        wanted[name] = reasoning_level
    allowed = {parameter.id: [value.value for value in parameter.values] for parameter in model.parameters or []}
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
    combinations = [_combination(variant) for variant in _variants(model)]
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


def describe(chosen: ModelSelection | None) -> dict[str, Any] | None:
    """The model choice as an answer shows it (the API never echoes the model)."""
    if chosen is None:
        return None
    return {"id": chosen.id, "params": {param.id: param.value for param in chosen.params or []} or None}
