"""Rewrite the committed `tools/list` snapshot after a deliberate change of the catalogue."""

from __future__ import annotations

import json
from pathlib import Path

import anyio

from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.server import build_toolkit, listing
from cursor_cloud_agents.server.pipeline import schemacache
from devkit.catalogue import list_tools

SNAPSHOT = Path(__file__).resolve().parent.parent / "tests" / "snapshots" / "tools_list.json"


async def main() -> None:
    tools = await list_tools(cached=False)
    SNAPSHOT.write_text(json.dumps(tools, indent=1, ensure_ascii=False) + "\n")
    specs = build_toolkit(Settings(), Redactor()).catalogue.specs
    schemacache.write(specs, {tool["name"]: tool["inputSchema"] for tool in tools})
    listing.write(tools)  # what start-up serves before importing a tool


if __name__ == "__main__":
    anyio.run(main)
