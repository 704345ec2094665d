"""The precomputed tool schemas: served only to the code that made them, identical to building them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Annotated

import pytest
from pydantic import BaseModel, ConfigDict, Field

from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.server import build_toolkit
from cursor_cloud_agents.server.pipeline import schemacache
from cursor_cloud_agents.server.pipeline.declaration import ToolSpec
from cursor_cloud_agents.server.pipeline.schemacache import signature_shape
from devkit.catalogue import list_tools


@pytest.mark.anyio
async def test_the_schema_cache_is_current_and_serves_exactly_what_building_gives() -> None:
    """Start-up reads the cache; a stale cache would cost time. Run `make snapshot` when this fails."""
    cached = schemacache.load(tool_specs())
    assert cached, "src/cursor_cloud_agents/server/schemas.json is stale: run `make snapshot`"
    built = await list_tools(cached=False)
    assert cached == {tool["name"]: tool["inputSchema"] for tool in built}
    assert await list_tools() == built


def tool_specs() -> list[ToolSpec]:
    return build_toolkit(Settings(), Redactor()).catalogue.specs


async def probe(count: Annotated[int, Field(ge=1, le=50)] = 20, name: str | None = None) -> None:
    """A tool's parameters."""


async def probe_with_another_body(count: Annotated[int, Field(ge=1, le=50)] = 20, name: str | None = None) -> None:
    """Another docstring; the parameters are the same."""
    # A comment, and a body that does something else.
    del count, name


async def probe_with_another_limit(count: Annotated[int, Field(ge=1, le=51)] = 20, name: str | None = None) -> None:
    """A limit changed."""


class Ref(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    agent_id: Annotated[str, Field(description="Agent id.")]


class RefDescribedOtherwise(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    agent_id: Annotated[str, Field(description="The agent's id.")]


async def probe_refs(refs: list[Ref]) -> None:
    """Nested models."""


async def probe_other_refs(refs: list[RefDescribedOtherwise]) -> None:
    """Nested models, one description changed."""


def test_the_stamp_is_made_of_signatures_not_of_bodies_or_comments() -> None:
    """A comment or a body change leaves the cache current; a changed limit, default or nested field stales it."""
    assert signature_shape(probe) == signature_shape(probe_with_another_body)
    assert signature_shape(probe) != signature_shape(probe_with_another_limit)
    assert signature_shape(probe_refs).replace("Ref", "X") != signature_shape(probe_other_refs).replace(
        "RefDescribedOtherwise", "X"
    )


def test_the_stamp_is_the_same_in_every_process() -> None:
    """No address or ordering of this process leaks into it: another process computes the same stamp."""
    code = (
        "from cursor_cloud_agents.config import Settings\n"
        "from cursor_cloud_agents.redact import Redactor\n"
        "from cursor_cloud_agents.server import build_toolkit\n"
        "from cursor_cloud_agents.server.pipeline import schemacache\n"
        "print(schemacache.stamp(build_toolkit(Settings(), Redactor()).catalogue.specs))\n"
    )
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert other.stdout.strip() == schemacache.stamp(tool_specs())


@pytest.mark.parametrize("content", ['{"stamp": "another", "schemas": {"cursor_x": {}}}', "not json", None])
def test_a_cache_of_other_code_or_a_broken_one_is_ignored(
    content: str | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Falling back to building is always correct: a wrong stamp, a torn file or no file serves nothing."""
    path = tmp_path / "schemas.json"
    if content is not None:
        path.write_text(content)
    monkeypatch.setattr(schemacache, "CACHE", path)
    assert schemacache.load(tool_specs()) == {}


def test_the_cache_ships_inside_the_package() -> None:
    """The wheel carries it (hatchling packs every file of the package folder)."""
    data = json.loads(schemacache.CACHE.read_text())
    assert set(data) == {"stamp", "schemas"} and "cursor_create_agent" in data["schemas"]
