"""Delegate work to Cursor Cloud Agents: API client, simulator and stdio MCP server."""

__version__ = "0.1.0"
