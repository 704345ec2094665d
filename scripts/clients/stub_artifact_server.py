"""A stub MCP server (the `mcp` SDK) with one tool, `cursor_read_artifact`, answering a recorded result in a
chosen shape, to compare how a client hands each shape to its model.

    stub_artifact_server.py RESULT.json SHAPE

RESULT.json is a `tools/call` result of the real server (text, `structuredContent`, image). SHAPE:
- `full`: as recorded (text + structuredContent + image), the control;
- `no-structured`: the same text and image, no structuredContent;
- `image-first`: the image block before the text, no structuredContent.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult, ImageContent, TextContent, ToolAnnotations

SHAPES = ("full", "no-structured", "image-first")


def build(recorded: dict[str, Any], shape: str) -> MCPServer:
    server = MCPServer("cursor-stub", instructions="A stub of cursor-cloud-agents with one tool.")
    text = [TextContent(type="text", text=block["text"]) for block in recorded["content"] if block["type"] == "text"]
    images = [
        ImageContent(type="image", data=block["data"], mime_type=block["mimeType"])
        for block in recorded["content"]
        if block["type"] == "image"
    ]

    # The real tool's hints: read-only, so that Codex runs it without asking for approval.
    hints = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=True)

    @server.tool(
        name="cursor_read_artifact", description="Read a text artifact in pages, or see an image.", annotations=hints
    )
    def cursor_read_artifact(agent_id: str, path: str) -> CallToolResult:  # noqa: ARG001  # the recorded answer
        if shape == "full":
            return CallToolResult(content=[*text, *images], structured_content=recorded.get("structuredContent"))
        if shape == "no-structured":
            return CallToolResult(content=[*text, *images])
        return CallToolResult(content=[*images, *text])

    return server


def main() -> int:
    recorded = json.loads(Path(sys.argv[1]).read_text())
    shape = sys.argv[2]
    if shape not in SHAPES:
        sys.stderr.write(f"shape must be one of {SHAPES}\n")
        return 2
    build(recorded, shape).run()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
