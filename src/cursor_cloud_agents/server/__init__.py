"""The MCP face: the stdio server's tools, views, answers, questions, tasks and wire, over `core`.

Never imports httpx2 or the simulator; the terminal never imports it (`tests/test_layering.py`).
What the rest of the package uses is named in `__all__`, loaded on first use: the MCP SDK is imported
only by a process that serves (`cli.py` starts the server; a terminal command never loads it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cursor_cloud_agents import Front as _Front

# The typed imports below are the front's exports, each name written once: pyright reads them, `Front` reads
# them at run time (`__all__` and where each name loads from), so they are used though nothing here uses them.
# ruff: noqa: F401
# pyright: reportUnusedImport=false
if TYPE_CHECKING:
    from cursor_cloud_agents.server.app import build_server, build_toolkit, run_stdio, serve_toolkit
    from cursor_cloud_agents.server.pipeline.toolkit import Toolkit

_front = _Front(__name__, __file__, globals())
"""The names above, each loaded from its module when first asked for; `__all__` is derived from them."""


def __getattr__(name: str) -> Any:
    """A name of the front, imported from its module when first asked for (PEP 562)."""
    return _front.load(name)
