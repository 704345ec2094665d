"""The precomputed `tools/list` start-up answers with, before a tool, a view or the API client is imported.

The schema cache (`schemacache.py`) is stamped from the tools' signatures, which takes importing them; the
listing start-up serves cannot be, so `make snapshot` writes it to `listing.json` beside this module (each
tool as `tools/list` shows it on the wire). Its stamp is the version of what renders the schemas (pydantic),
not a digest of our sources: a comment or a body edit must not stale it, and a changed signature is caught
by the test that holds the listing equal to building it (tests/server/test_listing.py), so no commit ships
a listing that differs from its tools. Another pydantic, or no file, means building the toolkit's listing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pydantic

PACKAGE = Path(__file__).parent
LISTING = PACKAGE / "listing.json"


def source_stamp() -> str:
    """What the listing's wire form depends on besides our signatures: the version of pydantic that renders it."""
    return f"pydantic {pydantic.VERSION}"


def listing() -> list[dict[str, Any]] | None:
    """Every tool in wire form, in catalogue order, or None when there is no listing or it belongs to other code."""
    try:
        cached = json.loads(LISTING.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(cached, dict) or cached.get("stamp") != source_stamp():  # pyright: ignore[reportUnknownMemberType]
        return None
    tools = cached.get("tools")  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
    return tools if isinstance(tools, list) else None  # pyright: ignore[reportUnknownVariableType]


def write(tools: list[dict[str, Any]]) -> None:
    """Store the listing of the current code, each tool in wire form (run by `make snapshot`)."""
    LISTING.write_text(json.dumps({"stamp": source_stamp(), "tools": tools}, indent=1, sort_keys=True) + "\n")
