"""Tool arguments: the strict model that judges them and the compact schema that advertises them.

The SDK validates arguments leniently and drops unknown ones before a tool sees them. We hand it a
pass-through model instead, and validate in the toolkit's guard with a strict copy of the tool's own
model (unknown names refused, JSON types exact), so a malformed call answers our `VALIDATION` error
and nothing is sent. The advertised schema is the strict one, made compact for the catalogue.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, cast

from mcp.server.mcpserver.tools.base import Tool
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase, func_metadata
from pydantic import BaseModel, ConfigDict, ValidationError

from cursor_cloud_agents.server import failures
from cursor_cloud_agents.server.failures import ToolFailure


class RawArguments(ArgModelBase):
    """Hands the arguments to our guard untouched, so that our strict model is the one that judges them."""

    model_config = ConfigDict(extra="allow")

    def model_dump_one_level(self) -> dict[str, Any]:
        return dict(self.model_extra or {})


class StrictArguments:
    """The strict argument model of a tool function, built on the tool's first call (not at start-up)."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        self._fn = fn
        self._model: type[BaseModel] | None = None

    def model(self) -> type[BaseModel]:
        if self._model is None:
            base = func_metadata(self._fn, structured_output=False).arg_model
            config = ConfigDict(extra="forbid", strict=True, arbitrary_types_allowed=True)
            self._model = type(base.__name__, (base,), {"model_config": config, "__module__": __name__})
        return self._model


def advertised_schema(tool: Tool) -> dict[str, Any]:
    """The schema of the strict model, from the one the SDK already built: strictness adds no keyword but
    `additionalProperties: false`."""
    return compact_schema(tool.parameters | {"additionalProperties": False})


def compact_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """The input schema as clients read best: references inlined, `X | None` shown as X, no generated titles.

    Omitting an optional argument is how a caller says "none", so the null alternative only costs
    catalogue bytes; the strict model still accepts an explicit null.
    """
    definitions: dict[str, Any] = schema.get("$defs", {})
    return _compact_node({key: value for key, value in schema.items() if key != "$defs"}, definitions)


def _compact_node(node: Any, definitions: dict[str, Any]) -> Any:
    if isinstance(node, list):
        return [_compact_node(item, definitions) for item in node]  # pyright: ignore[reportUnknownVariableType]  # JSON schema
    if not isinstance(node, dict):
        return node
    node = cast(dict[str, Any], node)
    if "$ref" in node:
        return _compact_node(definitions[node["$ref"].rsplit("/", 1)[-1]], definitions)
    alternatives: list[Any] = node.get("anyOf", [])
    kept = [option for option in alternatives if option != {"type": "null"}]
    if alternatives and len(kept) == 1:
        # The field's own keys (its description above all) win over those of the type it wraps.
        merged = kept[0] | {key: value for key, value in node.items() if key != "anyOf"}
        return _compact_node(merged, definitions)
    return {
        key: _compact_node(value, definitions)
        for key, value in node.items()
        if not (key == "title" and isinstance(value, str)) and not (key == "default" and value is None)
    }


def validate(strict: type[BaseModel], raw: dict[str, Any]) -> dict[str, Any]:
    """The arguments as the tool function takes them; VALIDATION when the strict model refuses them."""
    try:
        model = strict.model_validate_json(json.dumps(raw))
    except ValidationError as exc:
        raise _validation_failure(exc) from None
    return {name: getattr(model, name) for name in type(model).model_fields}


def _validation_failure(exc: ValidationError) -> ToolFailure:
    # Messages only name fields and rules: input values may hold secrets (env_vars).
    problems: list[str] = []
    for error in exc.errors(include_url=False, include_input=False):
        where = ".".join(str(part) for part in error["loc"]) or "arguments"
        rule = "unknown argument" if error["type"] == "extra_forbidden" else error["msg"]
        problems.append(f"{where}: {rule}")
    return ToolFailure(failures.VALIDATION, "Invalid arguments, nothing was sent: " + "; ".join(problems))
