"""Precomputed tool schemas: start-up reads them instead of building a pydantic model per tool.

Describing 22 tools costs the SDK an argument model and a JSON schema each, about a third of our
start-up. The schemas change only with the code, so `make snapshot` writes them to `schemas.json`
beside this module, stamped with a digest of the server's and the core's sources (a tool's parameter types may come
from either) and pydantic's version.
At start-up a matching stamp serves them; any other stamp (an edited checkout) means building them
as before, so a stale file can cost time, never correctness. A test fails while the file is stale.
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


def load() -> dict[str, dict[str, Any]]:
    """The cached input schemas by tool name, or {} when there is no cache or it belongs to other code."""
    try:
        cached = json.loads(CACHE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return cached.get("schemas", {}) if cached.get("stamp") == stamp() else {}


def write(schemas: dict[str, dict[str, Any]]) -> None:
    """Store the schemas of the current code (run by `make snapshot`)."""
    CACHE.write_text(json.dumps({"stamp": stamp(), "schemas": schemas}, indent=1, sort_keys=True) + "\n")
