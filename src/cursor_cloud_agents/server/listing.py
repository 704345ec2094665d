"""The precomputed `tools/list` start-up answers with, before a tool, a view or the API client is imported.

The schema cache (`schemacache.py`) is stamped from the tools' signatures, which takes importing them; the
listing start-up serves cannot be, so `make snapshot` writes it to `listing.json` beside this module (each
tool as `tools/list` shows it on the wire) stamped with a digest of the server's and the core's sources and
pydantic's version, files read without importing them. A matching stamp serves it; any other (an edited
checkout) means building the toolkit's listing as before, so a stale file costs time, never correctness.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pydantic

PACKAGE = Path(__file__).parent
SOURCES = (PACKAGE, PACKAGE.parent / "core")
LISTING = PACKAGE / "listing.json"


def source_stamp() -> str:
    """A digest of the server's and the core's sources and pydantic's version (all a listing is made from)."""
    digest = hashlib.sha256(pydantic.VERSION.encode())
    for folder in SOURCES:
        for path in sorted(folder.rglob("*.py")):
            digest.update(f"{folder.name}/{path.relative_to(folder).as_posix()}".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:20]


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
