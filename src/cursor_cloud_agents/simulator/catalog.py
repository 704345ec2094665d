"""Static account catalogue: models (with parameters and variants), repositories, environments and pools.

The first two models are the documented example of `GET /v1/models`; the others add the parameter
ids seen in the wild (`effort`, `reasoning_effort`, `thinking`) and a restricted variant set, so the
validation of `model.params` has something to refuse.
"""

from __future__ import annotations

from typing import Any

from .errors import ApiError, bad_request
from .wire import as_array, as_object


def _param(pid: str, values: list[str], display: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"id": pid, "values": [{"value": v} for v in values]}
    if display is not None:
        out["displayName"] = display
    return out


def _variant(params: dict[str, str], display: str, *, default: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {"params": [{"id": k, "value": v} for k, v in params.items()], "displayName": display}
    if default:
        out["isDefault"] = True
    return out


def _docs_models() -> list[dict[str, Any]]:
    fast = _param("fast", ["false", "true"], "Fast")
    fast["values"][1]["displayName"] = "Fast"
    return [
        {
            "id": "composer-2",
            "displayName": "Composer 2",
            "aliases": ["composer-latest", "composer"],
            "parameters": [fast],
            "variants": [
                _variant({"fast": "true"}, "Composer 2", default=True),
                _variant({"fast": "false"}, "Composer 2"),
            ],
        },
        {
            "id": "claude-4.6-sonnet-thinking",
            "displayName": "Claude 4.6 Sonnet (Thinking)",
            "variants": [_variant({}, "Claude 4.6 Sonnet (Thinking)", default=True)],
        },
    ]


def _extra_models() -> list[dict[str, Any]]:
    return [
        {"id": "default", "displayName": "Auto", "description": "Cursor picks the model."},
        {
            "id": "gpt-5.2",
            "displayName": "GPT-5.2",
            "parameters": [_param("reasoning_effort", ["low", "medium", "high", "xhigh"], "Reasoning effort")],
            "variants": [
                _variant({"reasoning_effort": "medium"}, "GPT-5.2", default=True),
                _variant({"reasoning_effort": "low"}, "GPT-5.2 Low"),
                _variant({"reasoning_effort": "high"}, "GPT-5.2 High"),
                _variant({"reasoning_effort": "xhigh"}, "GPT-5.2 Extra High"),
            ],
        },
        {
            # Restricted combinations: `fast=true` exists only with `effort=low`.
            "id": "claude-4.6-opus",
            "displayName": "Claude 4.6 Opus",
            "aliases": ["opus"],
            "parameters": [
                _param("effort", ["low", "medium", "high"], "Effort"),
                _param("thinking", ["false", "true"], "Thinking"),
                _param("fast", ["false", "true"], "Fast"),
            ],
            "variants": [
                _variant({"effort": "medium", "thinking": "true", "fast": "false"}, "Opus", default=True),
                _variant({"effort": "high", "thinking": "true", "fast": "false"}, "Opus High"),
                _variant({"effort": "low", "thinking": "false", "fast": "false"}, "Opus Low"),
                _variant({"effort": "low", "thinking": "false", "fast": "true"}, "Opus Fast"),
            ],
        },
    ]


MODELS: list[dict[str, Any]] = _docs_models() + _extra_models()

REPOSITORIES: list[str] = [
    "https://github.com/your-org/your-repo",
    "https://github.com/acme/web",
    "https://github.com/acme/api",
    "https://github.com/acme/infra",
    "https://github.com/acme/docs",
]

# Pools: the default pool and repo-bound pools take exactly one repo; an any-repo pool takes several.
POOLS: dict[str, bool] = {"default": False, "acme-any-repo": True, "acme-web-pool": False}


def find_model(model_id: str) -> dict[str, Any] | None:
    """A model by id or alias."""
    for model in MODELS:
        if model["id"] == model_id or model_id in model.get("aliases", []):
            return model
    return None


def resolve_model(selection: Any) -> dict[str, Any]:
    """Validate a `model` selection of a create/follow-up body and return it normalised.

    Raises:
        ApiError: 400 `invalid_model` for an unknown id, `validation_error` for unknown parameters,
            values, or a combination that is no variant of the model.
    """
    chosen = as_object(selection) or {}
    model_id = chosen.get("id")
    if not isinstance(model_id, str):
        raise bad_request("model must be an object with a string id")
    model = find_model(model_id)
    if model is None:
        raise bad_request(f"Unknown model: {model_id}", code="invalid_model")
    params = _params_of(chosen.get("params", []), model)
    _check_variant(params, model)
    return {"id": model["id"], "params": [{"id": k, "value": v} for k, v in params.items()]}


def _params_of(raw: Any, model: dict[str, Any]) -> dict[str, str]:
    entries = as_array(raw)
    if entries is None:
        raise bad_request("model.params must be an array")
    known = {p["id"]: {v["value"] for v in p["values"]} for p in model.get("parameters", [])}
    params: dict[str, str] = {}
    for entry in entries:
        item = as_object(entry) or {}
        pid, value = item.get("id"), item.get("value")
        if not isinstance(pid, str) or not isinstance(value, str):
            raise bad_request("each model.params entry needs string id and value")
        if pid not in known:
            raise bad_request(f"Unknown parameter {pid!r} for model {model['id']}")
        if value not in known[pid]:
            raise bad_request(f"Invalid value {value!r} for parameter {pid!r} of model {model['id']}")
        params[pid] = value
    return params


def _check_variant(params: dict[str, str], model: dict[str, Any]) -> None:
    variants = [v for v in model.get("variants", []) if v["params"]]
    if not params or not variants:
        return
    # Omitted parameters take the default variant's values (the default silently applies).
    default = next((v for v in variants if v.get("isDefault")), variants[0])
    merged = {p["id"]: p["value"] for p in default["params"]} | params
    for variant in variants:
        if {p["id"]: p["value"] for p in variant["params"]} == merged:
            return
    raise ApiError(400, "validation_error", f"No variant of model {model['id']} has parameters {merged}")
