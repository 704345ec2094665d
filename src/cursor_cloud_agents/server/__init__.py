"""The stdio MCP server: tools over the Cursor Cloud Agents API. Never imports httpx2 or the simulator.

The package's names are loaded on first use, so that the terminal commands can use the server's
journal, ledger and text cleaning without paying for the MCP SDK's import.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cursor_cloud_agents.server.app import ClientFactory, build_server, run_stdio

__all__ = ["ClientFactory", "build_server", "run_stdio"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from cursor_cloud_agents.server import app

        return getattr(app, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
