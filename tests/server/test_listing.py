"""The precomputed `tools/list` start-up serves (issue 35): current, identical to building it, and ignored
when it belongs to other code."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cursor_cloud_agents.server import listing
from devkit.catalogue import list_tools


@pytest.mark.anyio
async def test_the_listing_start_up_serves_is_current_and_is_exactly_what_building_gives() -> None:
    """Start-up serves it before importing a tool; a stale one costs time. Run `make snapshot` when this fails."""
    served = listing.listing()
    assert served is not None, "src/cursor_cloud_agents/server/listing.json is stale: run `make snapshot`"
    assert served == await list_tools(cached=False)


@pytest.mark.parametrize("content", ['{"stamp": "another", "tools": []}', "not json", "[]", None])
def test_a_listing_of_other_code_or_a_broken_one_is_ignored(
    content: str | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Falling back to building is always correct: a wrong stamp, a torn file or no file serves nothing."""
    path = tmp_path / "listing.json"
    if content is not None:
        path.write_text(content)
    monkeypatch.setattr(listing, "LISTING", path)
    assert listing.listing() is None


def test_the_listing_ships_inside_the_package() -> None:
    """The wheel carries it (hatchling packs every file of the package folder)."""
    data = json.loads(listing.LISTING.read_text())
    assert set(data) == {"stamp", "tools"} and "cursor_create_agent" in {tool["name"] for tool in data["tools"]}
