"""The precomputed tool schemas: served only to the code that made them, identical to building them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cursor_cloud_agents.catalogue import list_tools
from cursor_cloud_agents.server import schemacache


@pytest.mark.anyio
async def test_the_schema_cache_is_current_and_serves_exactly_what_building_gives() -> None:
    """Start-up reads the cache; a stale cache would cost time. Run `make snapshot` when this fails."""
    cached = schemacache.load()
    assert cached, "src/cursor_cloud_agents/server/schemas.json is stale: run `make snapshot`"
    built = await list_tools(cached=False)
    assert cached == {tool["name"]: tool["inputSchema"] for tool in built}
    assert await list_tools() == built


def test_the_stamp_changes_when_a_server_source_changes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Any edit of the server package makes the cache belong to other code."""
    copy = tmp_path / "server"
    shutil.copytree(schemacache.PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(schemacache, "PACKAGE", copy)
    before = schemacache.stamp()
    tool = copy / "tools" / "account.py"
    tool.write_text(tool.read_text().replace("Get account", "Get the account"))
    assert schemacache.stamp() != before


@pytest.mark.parametrize("content", ['{"stamp": "another", "schemas": {"cursor_x": {}}}', "not json", None])
def test_a_cache_of_other_code_or_a_broken_one_is_ignored(
    content: str | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Falling back to building is always correct: a wrong stamp, a torn file or no file serves nothing."""
    path = tmp_path / "schemas.json"
    if content is not None:
        path.write_text(content)
    monkeypatch.setattr(schemacache, "CACHE", path)
    assert schemacache.load() == {}


def test_the_cache_ships_inside_the_package() -> None:
    """The wheel carries it (hatchling packs every file of the package folder)."""
    data = json.loads(schemacache.CACHE.read_text())
    assert set(data) == {"stamp", "schemas"} and "cursor_create_agent" in data["schemas"]
