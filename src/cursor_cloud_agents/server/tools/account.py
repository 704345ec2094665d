"""The account tool: who the key belongs to, and what this server is allowed to do."""

from __future__ import annotations

from typing import Any

from cursor_cloud_agents.server.state import ServerState
from cursor_cloud_agents.server.toolkit import Toolkit


def register(kit: Toolkit, state: ServerState) -> None:
    """Declare the account tool on `kit`."""

    @kit.tool(title="Get account")
    async def cursor_get_account() -> dict[str, Any]:
        """Show the Cursor API key's owner and this server's permissions (writes, delete, forwardable variables).

        Call it first to check the key works and what you may do.
        """
        me = await state.api.me()
        settings = state.settings
        return {
            "key": {
                "name": me.api_key_name,
                "created_at": me.created_at,
                "user_email": me.user_email,
                "user_name": " ".join(part for part in (me.user_first_name, me.user_last_name) if part) or None,
            },
            "server": {
                "writes": settings.allow_writes,
                "delete": settings.allow_delete,
                "forward_env": sorted(settings.forward_env),
                "simulated": settings.simulated or None,
            },
        }
