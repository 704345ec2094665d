"""The stdio MCP server: tools over the Cursor Cloud Agents API. Never imports httpx2 or the simulator."""

from cursor_cloud_agents.server.app import ClientFactory, build_server, run_stdio

__all__ = ["ClientFactory", "build_server", "run_stdio"]
