"""The account tool: who the key belongs to, and what this server is allowed to do."""

from __future__ import annotations

from cursor_cloud_agents.server.state import ServerState
from cursor_cloud_agents.server.toolkit import Toolkit
from cursor_cloud_agents.server.views.account import AccountView


def register(kit: Toolkit, state: ServerState) -> None:
    """Declare the account tool on `kit`."""

    @kit.tool(title="Get account")
    async def cursor_get_account() -> AccountView:
        """Show the Cursor API key's owner and this server's permissions (writes, delete, forwardable variables).

        Call it first to check the key works and what you may do.
        """
        return AccountView.of(await state.api.me(), state.settings)
