"""The MCP face: the stdio server's tools, views, answers, questions, tasks and wire, over `core`.

Never imports httpx2 or the simulator; the terminal never imports it (`tests/test_layering.py`).
What the rest of the package uses is named in `__all__`, loaded on first use: the MCP SDK is imported
only by a process that serves (`cli.py` starts the server; a terminal command never loads it).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cursor_cloud_agents.server.app import build_server, build_toolkit, run_stdio, serve_toolkit
    from cursor_cloud_agents.server.pipeline.toolkit import Toolkit

__all__ = ["Toolkit", "build_server", "build_toolkit", "run_stdio", "serve_toolkit"]

_HOMES = {
    "Toolkit": "cursor_cloud_agents.server.pipeline.toolkit",
    "build_server": "cursor_cloud_agents.server.app",
    "build_toolkit": "cursor_cloud_agents.server.app",
    "run_stdio": "cursor_cloud_agents.server.app",
    "serve_toolkit": "cursor_cloud_agents.server.app",
}


def __getattr__(name: str) -> Any:
    """A name of the front, imported from its module when first asked for (PEP 562)."""
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(_HOMES[name]), name)
