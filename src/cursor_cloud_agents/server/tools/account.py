"""The account tool: who the key belongs to, what this server is allowed to do, and its limits' use."""

from __future__ import annotations

from cursor_cloud_agents.api.times import iso
from cursor_cloud_agents.core import StoreUnusable, ToolFailure
from cursor_cloud_agents.core.timing import CREATION_WINDOW_SECONDS as WINDOW_SECONDS
from cursor_cloud_agents.server.pipeline.declaration import Catalogue
from cursor_cloud_agents.server.pipeline.state import ServerState
from cursor_cloud_agents.server.views.account import AccountView, LimitView

WINDOW_HOURS = round(WINDOW_SECONDS / 3600)

catalogue = Catalogue()


async def creation_view(state: ServerState) -> LimitView:
    """The creations of the last 24 hours against their limit; a store that cannot be read is said, not zero."""
    try:
        used, frees_at = await state.limits.creations()
    except StoreUnusable as unusable:
        note = f"cannot be read: {unusable.why}; creations and follow-ups are refused until it can"
        return LimitView.unchecked("CURSOR_MCP_MAX_NEW_AGENTS", state.limits.max_new, note)
    return LimitView(
        variable="CURSOR_MCP_MAX_NEW_AGENTS",
        limit=state.limits.max_new,
        used=used,
        window_hours=WINDOW_HOURS,
        frees_at=None if frees_at is None else iso(frees_at),
        unknown=None,
        note=None,
    )


async def slots_view(state: ServerState) -> LimitView:
    """The agents running against their limit; the listing or the store not readable is said, not zero."""
    limit = state.limits.max_active
    try:
        slots = await state.limits.slots(state.api)
    except StoreUnusable as unusable:
        return LimitView.unchecked("CURSOR_MCP_MAX_ACTIVE_AGENTS", limit, f"cannot be counted: {unusable.why}")
    except ToolFailure as uncounted:
        return LimitView.unchecked("CURSOR_MCP_MAX_ACTIVE_AGENTS", limit, f"cannot be counted: {uncounted.message}")
    return LimitView.current("CURSOR_MCP_MAX_ACTIVE_AGENTS", slots.limit, used=slots.active)


async def limit_views(state: ServerState) -> list[LimitView]:
    """Each limit with its use: creations (the ledger), agents running (one read, cached) and spend (usage
    reads, only when a spend limit is set)."""
    views = [await creation_view(state), await slots_view(state)]
    spend_limit = state.limits.max_cents
    if spend_limit is None:
        return [*views, LimitView.unchecked("CURSOR_MCP_MAX_SPEND_CENTS", None, "not set: no spend limit")]
    try:
        spend = await state.limits.spend(state.api)
    except ToolFailure as unchecked:  # the account still answers: the limit is shown as not checkable
        note = f"cannot be checked: {unchecked.message}"
        return [*views, LimitView.unchecked("CURSOR_MCP_MAX_SPEND_CENTS", spend_limit, note)]
    spent = LimitView(
        variable="CURSOR_MCP_MAX_SPEND_CENTS",
        limit=spend_limit,
        used=round(spend.cents, 2),
        window_hours=WINDOW_HOURS,
        frees_at=None,
        unknown=spend.unknown,
        note=None,
    )
    return [*views, spent]


@catalogue.tool(title="Get account")
async def cursor_get_account(state: ServerState) -> AccountView:
    """Show the Cursor API key's owner, this server's permissions and its limits with their use.

    Call it first to check the key works and what you may do.
    """
    return AccountView.of(await state.api.me(), state.settings, await limit_views(state))
