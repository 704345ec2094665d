"""The account tool: who the key belongs to, and what this server is allowed to do."""

from __future__ import annotations

from cursor_cloud_agents.server.domain.paid import iso
from cursor_cloud_agents.server.ledger import WINDOW_SECONDS
from cursor_cloud_agents.server.state import ServerState
from cursor_cloud_agents.server.toolkit import Toolkit
from cursor_cloud_agents.server.views.account import AccountView, LimitView


def register(kit: Toolkit, state: ServerState) -> None:
    """Declare the account tool on `kit`."""

    @kit.tool(title="Get account")
    async def cursor_get_account() -> AccountView:
        """Show the Cursor API key's owner, this server's permissions and its limits with their use.

        Call it first to check the key works and what you may do.
        """
        used, frees_at = state.ledger.use(state.clock.now())
        new_agents = LimitView(
            variable="CURSOR_MCP_MAX_NEW_AGENTS", limit=state.ledger.limit, used=used,
            window_hours=round(WINDOW_SECONDS / 3600), frees_at=None if frees_at is None else iso(frees_at),
        )  # fmt: skip
        return AccountView.of(await state.api.me(), state.settings, new_agents)
