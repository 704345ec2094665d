"""Precomputed tool schemas: start-up reads them instead of building a pydantic model per tool.

Describing 22 tools costs the SDK an argument model and a JSON schema each, about a third of our
start-up. The schemas change only with what they are made of, so `make snapshot` writes them to
`schemas.json` beside the server's modules, stamped with a digest of exactly that: each tool's name and
its model's parameters (name, default and annotated type, walked into the models, constraints and
literals the type names), the code that builds a schema from them (`arguments.py`) and pydantic's
version. A comment or a changed body stales nothing; a changed signature, type or limit does.
At start-up a matching stamp serves them; any other stamp means building them as before, so a stale
file can cost time, never correctness. A test fails while the file is stale.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import re
from collections.abc import Callable, Iterable
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any, get_args, get_origin, get_type_hints

import pydantic
from pydantic import BaseModel

if TYPE_CHECKING:
    from cursor_cloud_agents.server.pipeline.declaration import ToolSpec

SERVER = Path(__file__).parents[1]
BUILDER = SERVER / "pipeline" / "arguments.py"
"""The code that turns a signature into a schema: a change of it may change every schema."""
CACHE = SERVER / "schemas.json"
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def stamp(specs: Iterable[ToolSpec]) -> str:
    """A digest of everything the tools' input schemas are made of (see the module's docstring)."""
    digest = hashlib.sha256(pydantic.VERSION.encode())
    digest.update(BUILDER.read_bytes())
    for spec in specs:
        digest.update(f"\n{spec.name}({signature_shape(spec.fn, set(spec.arguments.injected()))})".encode())
    return digest.hexdigest()[:20]


def signature_shape(fn: Callable[..., Any], injected: set[str] | None = None) -> str:
    """The parameters the model passes to `fn` as text: name, default and the shape of the annotated type."""
    hints = get_type_hints(fn, include_extras=True)
    parameters = inspect.signature(fn).parameters.items()
    return "; ".join(
        f"{name}: {type_shape(hints[name])} = {_plain(repr(parameter.default))}"
        for name, parameter in parameters
        if name not in (injected or set())
    )


def type_shape(hint: object, seen: frozenset[type] = frozenset()) -> str:
    """A type as text, stable across processes: models by their fields and docstring, enums by their values,
    generic and annotated types by their arguments (constraints, descriptions), functions by name only."""
    plain = _plain(repr(hint))  # taken before `hint` is narrowed to a class below
    if isinstance(hint, type) and issubclass(hint, BaseModel):
        if hint in seen:
            return hint.__qualname__
        inner = seen | {hint}
        fields = ", ".join(
            f"{name}: {type_shape(info.annotation, inner)} {_plain(repr(info))}"
            for name, info in hint.model_fields.items()
        )
        return f"{hint.__qualname__}{{{hint.__doc__ or ''} {_plain(repr(hint.model_config))} {fields}}}"
    if isinstance(hint, type) and issubclass(hint, Enum):
        return f"{hint.__qualname__}({', '.join(repr(member.value) for member in hint)})"
    arguments = get_args(hint)
    origin: object = get_origin(hint)
    if arguments:
        return f"{_plain(repr(origin))}[{', '.join(type_shape(item, seen) for item in arguments)}]"
    return plain


def _plain(text: str) -> str:
    # A function's repr carries its address, which differs per process: the name is what matters.
    return _ADDRESS.sub("", text)


def load(specs: Iterable[ToolSpec]) -> dict[str, dict[str, Any]]:
    """The cached input schemas by tool name, or {} when there is no cache or it belongs to other tools."""
    try:
        cached = json.loads(CACHE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return cached.get("schemas", {}) if cached.get("stamp") == stamp(specs) else {}


def write(specs: Iterable[ToolSpec], schemas: dict[str, dict[str, Any]]) -> None:
    """Store the schemas of the current tools (run by `make snapshot`)."""
    CACHE.write_text(json.dumps({"stamp": stamp(specs), "schemas": schemas}, indent=1, sort_keys=True) + "\n")
