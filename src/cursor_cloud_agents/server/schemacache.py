"""The precomputed `tools/list`: start-up answers it without importing a tool, a view or the API client.

Describing 19 tools costs the SDK an argument model and a JSON schema each, and importing the tools loads
their views, the core and the API client's models: together more than the rest of our start-up. The listing
changes only with the code, so `make snapshot` writes it to `schemas.json` beside this module (each tool as
`tools/list` shows it on the wire), stamped with a digest of the server's and the core's sources (a tool's
parameter types may come from either) and pydantic's version. At start-up a matching stamp serves it (and a
toolkit built later reads its input schemas from it); any other stamp (an edited checkout) means building
them as before, so a stale file can cost time, never correctness. A test fails while the file is stale.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pydantic

PACKAGE = Path(__file__).parent
SOURCES = (PACKAGE, PACKAGE.parent / "core")
CACHE = PACKAGE / "schemas.json"


def stamp() -> str:
    """A digest of everything a tool schema is made from: the server's and core's sources, pydantic's version."""
    digest = hashlib.sha256(pydantic.VERSION.encode())
    for folder in SOURCES:
        for path in sorted(folder.rglob("*.py")):
            digest.update(f"{folder.name}/{path.relative_to(folder).as_posix()}".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:20]


def listing() -> list[dict[str, Any]] | None:
    """Every tool in wire form, in catalogue order, or None when there is no cache or it belongs to other code."""
    try:
        cached = json.loads(CACHE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(cached, dict) or cached.get("stamp") != stamp():  # pyright: ignore[reportUnknownMemberType]
        return None
    tools = cached.get("tools")  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
    return tools if isinstance(tools, list) else None  # pyright: ignore[reportUnknownVariableType]


def load() -> dict[str, dict[str, Any]]:
    """The cached input schemas by tool name, or {} when there is no cache or it belongs to other code."""
    return {tool["name"]: tool["inputSchema"] for tool in listing() or []}


def write(tools: list[dict[str, Any]]) -> None:
    """Store the listing of the current code, each tool in wire form (run by `make snapshot`)."""
    CACHE.write_text(json.dumps({"stamp": stamp(), "tools": tools}, indent=1, sort_keys=True) + "\n")
