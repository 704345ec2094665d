"""Tool arguments: the strict model that judges them, the compact schema that advertises them, and clamping.

A tool's parameters (typed with `Annotated[..., Field(...)]`) become a pydantic model that is strict:
unknown names refused, JSON types exact. Every call is judged by it, so even a malformed call answers
our `VALIDATION` error and nothing is sent. The advertised input schema is that model's, made compact
for the catalogue. A parameter marked `Clamped` (a wait) is brought down to its maximum instead of
refused: waiting less than asked is harmless, and some clients strip maxima from the schema the model
sees (Codex), so a refusal would cost a round trip for nothing.
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast, get_type_hints

from annotated_types import Le
from pydantic import BaseModel, ConfigDict, ValidationError, create_model
from pydantic.fields import FieldInfo

from cursor_cloud_agents.core import ToolFailure, failures

_STRICT = ConfigDict(extra="forbid", strict=True, arbitrary_types_allowed=True)
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True)
class Clamped:
    """Marks an integer parameter whose values above its maximum are brought down to it, not refused."""


@dataclass(frozen=True)
class Judged:
    """Arguments as the tool function takes them, and the values that were clamped (name: value used)."""

    values: dict[str, Any]
    clamped: dict[str, int]


class StrictArguments:
    """The strict argument model of a tool function, built on first use (not at start-up).

    A parameter typed with one of the `provided` types is not an argument: the toolkit hands it in, and it
    stays out of the model and the schema."""

    def __init__(self, fn: Callable[..., Any], provided: tuple[type, ...] = ()) -> None:
        self._fn = fn
        self._provided = provided
        self._model: type[BaseModel] | None = None
        self._maxima: dict[str, int] | None = None
        self._injected: dict[str, type] | None = None

    def injected(self) -> dict[str, type]:
        """The parameters the toolkit hands in, with the provided type each asks for."""
        if self._injected is None:
            self._injected = {}
            for name, hint in get_type_hints(self._fn).items():
                wanted = next(
                    (kind for kind in self._provided if isinstance(hint, type) and issubclass(hint, kind)), None
                )
                if wanted is not None:
                    self._injected[name] = wanted
        return self._injected

    def model(self) -> type[BaseModel]:
        """The model: one field per parameter the model passes, with its annotation and default."""
        if self._model is None:
            hints = get_type_hints(self._fn, include_extras=True)
            injected = self.injected()
            fields: dict[str, Any] = {}
            for name, parameter in inspect.signature(self._fn).parameters.items():
                if name in injected:
                    continue
                default = ... if parameter.default is inspect.Parameter.empty else parameter.default
                fields[name] = (hints[name], default)
            self._model = create_model(f"{self._fn.__name__}Arguments", __config__=_STRICT, **fields)
        return self._model

    def maxima(self) -> dict[str, int]:
        """The maximum of each clamped parameter."""
        if self._maxima is None:
            self._maxima = {name: _maximum(info) for name, info in self.model().model_fields.items() if _clamped(info)}
        return self._maxima

    def schema(self) -> dict[str, Any]:
        """The input schema clients list, compact."""
        return compact_schema(self.model().model_json_schema())

    def judge(self, raw: dict[str, Any]) -> Judged:
        """The arguments as the tool takes them; VALIDATION when the strict model refuses them."""
        clamped = {
            name: limit
            for name, limit in self.maxima().items()
            if type(raw.get(name)) is int and raw[name] > limit  # bool is not an int here: strictness refuses it
        }
        model = self.model()
        try:
            validated = model.model_validate_json(json.dumps(raw | clamped))
        except ValidationError as exc:
            raise _validation_failure(exc, raw) from None
        return Judged({name: getattr(validated, name) for name in model.model_fields}, clamped)


def _clamped(info: FieldInfo) -> bool:
    return any(isinstance(item, Clamped) for item in info.metadata)


def _maximum(info: FieldInfo) -> int:
    return next(int(cast(Any, item.le)) for item in info.metadata if isinstance(item, Le))


_GUARD_KEYWORDS = ("minLength", "maxLength")
"""Length bounds guard the server against abuse (a cursor of 2,048 characters, an empty prompt); a model never
comes near them, and the strict model refuses the rest with a message naming the field. A bound a model should
know (a name's 100 characters) is said in its description, which every client shows."""


def compact_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """The input schema as clients read best: references inlined, `X | None` shown as X, no generated titles,
    no default a caller gets by omitting the argument anyway (false, 0), no length guards, no
    `additionalProperties: false` (the strict model refuses an unknown name with a message naming it; no client
    checks arguments against the schema before sending, docs/clients.md).

    Omitting an optional argument is how a caller says "none", so the null alternative only costs
    catalogue bytes; the strict model still accepts an explicit null. Every model pays for each byte on
    every turn (docs/clients.md, the catalogue budget).
    """
    return _inlined(schema, _noise)


def enforced_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema with references inlined and `X | None` shown as X, but every rule the strict model checks
    kept (bounds, lengths, unknown names): what the server enforces, whatever the catalogue shows."""
    return _inlined(schema, lambda key, value: key == "title" and isinstance(value, str))


def _noise(key: str, value: Any) -> bool:
    """A schema keyword (with its value) the catalogue leaves out; a property's own schema is a dict, never
    matched here, so a parameter named `title` or `default` stays."""
    if key == "title" and isinstance(value, str):
        return True
    if key == "default":  # what omitting the argument gives anyway: none, false, zero (a flag off, the first offset)
        return value is None or value is False or (type(value) is int and value == 0)
    if key in _GUARD_KEYWORDS:
        return type(value) is int
    return key == "additionalProperties" and value is False


def _inlined(schema: dict[str, Any], dropped: Callable[[str, Any], bool]) -> dict[str, Any]:
    definitions: dict[str, Any] = schema.get("$defs", {})
    return _compact_node({key: value for key, value in schema.items() if key != "$defs"}, definitions, dropped)


def _compact_node(node: Any, definitions: dict[str, Any], dropped: Callable[[str, Any], bool]) -> Any:
    if isinstance(node, list):
        return [_compact_node(item, definitions, dropped) for item in node]  # pyright: ignore[reportUnknownVariableType]  # JSON schema
    if not isinstance(node, dict):
        return node
    node = cast(dict[str, Any], node)
    if "$ref" in node:
        return _compact_node(definitions[node["$ref"].rsplit("/", 1)[-1]], definitions, dropped)
    alternatives: list[Any] = node.get("anyOf", [])
    kept = [option for option in alternatives if option != {"type": "null"}]
    if alternatives and len(kept) == 1:
        # The field's own keys (its description above all) win over those of the type it wraps.
        merged = kept[0] | {key: value for key, value in node.items() if key != "anyOf"}
        return _compact_node(merged, definitions, dropped)
    return {key: _compact_node(value, definitions, dropped) for key, value in node.items() if not dropped(key, value)}


def _holding_a_lone_surrogate(raw: dict[str, Any]) -> str | None:
    """The first argument with a lone surrogate anywhere in it (walked without recursion: any depth is safe)."""
    for name, value in raw.items():
        pending: list[Any] = [name, value]
        while pending:
            item = pending.pop()
            if isinstance(item, str):
                if _LONE_SURROGATE.search(item):
                    return name
            elif isinstance(item, dict):
                pending.extend(cast(dict[Any, Any], item).items())
            elif isinstance(item, list | tuple):
                pending.extend(cast(list[Any], item))
    return None


def _validation_failure(exc: ValidationError, raw: dict[str, Any]) -> ToolFailure:
    # Messages only name fields and rules: input values may hold secrets (env_vars).
    # JSON cannot carry a lone surrogate to the strict model, which then names no field: name it here.
    where = _holding_a_lone_surrogate(raw) if any(error["type"] == "json_invalid" for error in exc.errors()) else None
    if where is not None:
        return ToolFailure(
            failures.VALIDATION,
            f"Invalid arguments, nothing was sent: {where}: holds a lone surrogate (half of a UTF-16 pair); "
            "send whole characters",
        )
    problems: list[str] = []
    for error in exc.errors(include_url=False, include_input=False):
        where = ".".join(str(part) for part in error["loc"]) or "arguments"
        rule = "unknown argument" if error["type"] == "extra_forbidden" else error["msg"]
        problems.append(f"{where}: {rule}")
    return ToolFailure(failures.VALIDATION, "Invalid arguments, nothing was sent: " + "; ".join(problems))
