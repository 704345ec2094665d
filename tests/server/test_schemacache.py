"""The precomputed tool schemas: served only to the code that made them, identical to building them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cursor_cloud_agents.server import schemacache
from devkit.catalogue import list_tools


@pytest.mark.anyio
async def test_the_schema_cache_is_current_and_serves_exactly_what_building_gives() -> None:
    """Start-up reads the cache; a stale cache would cost time. Run `make snapshot` when this fails."""
    cached = schemacache.load()
    assert cached, "src/cursor_cloud_agents/server/schemas.json is stale: run `make snapshot`"
    built = await list_tools(cached=False)
    assert cached == {tool["name"]: tool["inputSchema"] for tool in built}
    assert schemacache.listing() == built  # what the server lists before any tool is imported
    assert await list_tools() == built


@pytest.mark.parametrize(
    ("edited", "old", "new"),
    [
        ("server/tools/account.py", "Get account", "Get the account"),
        ("core/models.py", "REASONING", "REASONING_"),
    ],
)
def test_the_stamp_changes_when_a_server_or_core_source_changes(
    edited: str, old: str, new: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Any edit of the server or the core (a tool's parameter types may come from either) makes the cache
    belong to other code."""
    copies = tuple(tmp_path / folder.name for folder in schemacache.SOURCES)
    for folder, copy in zip(schemacache.SOURCES, copies, strict=True):
        shutil.copytree(folder, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(schemacache, "SOURCES", copies)
    before = schemacache.stamp()
    source = tmp_path / edited
    assert old in source.read_text()
    source.write_text(source.read_text().replace(old, new))
    assert schemacache.stamp() != before


@pytest.mark.parametrize(
    "content", ['{"stamp": "another", "tools": [{"name": "cursor_x", "inputSchema": {}}]}', "not json", "[]", None]
)
def test_a_cache_of_other_code_or_a_broken_one_is_ignored(
    content: str | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Falling back to building is always correct: a wrong stamp, a torn file or no file serves nothing."""
    path = tmp_path / "schemas.json"
    if content is not None:
        path.write_text(content)
    monkeypatch.setattr(schemacache, "CACHE", path)
    assert schemacache.load() == {} and schemacache.listing() is None


def test_the_cache_ships_inside_the_package() -> None:
    """The wheel carries it (hatchling packs every file of the package folder)."""
    data = json.loads(schemacache.CACHE.read_text())
    assert set(data) == {"stamp", "tools"} and "cursor_create_agent" in {tool["name"] for tool in data["tools"]}
