"""Attempts of one task side by side (`cursor_compare`), and the best one kept (`cursor_keep`).

The set itself is created by `cursor_create_agent` with `attempts` (one paid act, core/attempts/attempts.py); the
group is read back from the store of paid acts, so any process of this machine finds it.
"""

from __future__ import annotations

from cursor_cloud_agents.core import compare_attempts, find_group, keep, store_failures
from cursor_cloud_agents.server.pipeline.declaration import Access, Catalogue
from cursor_cloud_agents.server.pipeline.params import AgentId, GroupId
from cursor_cloud_agents.server.pipeline.state import ServerState
from cursor_cloud_agents.server.pipeline.toolcall import ToolCall
from cursor_cloud_agents.server.views.attempts import CompareView, KeptView

catalogue = Catalogue()


@catalogue.tool(title="Compare attempts")
async def cursor_compare(state: ServerState, call: ToolCall, group_id: GroupId) -> CompareView:
    """The attempts of a group side by side: status, duration, cost, change size, check verdict, result start;
    which still run, which was kept."""
    with store_failures():
        group = await find_group(state.store, group_id, state.clock.now())
    roots = await call.roots() or []
    comparison = await compare_attempts(state.api, group, state.clock.now(), state.git_places, roots)
    return CompareView.of(comparison, lambda agent_id, commit: state.verdicts.get((agent_id, commit)))


@catalogue.tool(title="Keep one attempt", access=Access.DESTRUCTIVE, idempotent=True)
async def cursor_keep(state: ServerState, group_id: GroupId, agent_id: AgentId) -> KeptView:
    """Keep one attempt of a group and archive the others (reversible); says what was archived."""
    with store_failures():
        group = await find_group(state.store, group_id, state.clock.now())
    return KeptView.of(group.id, await keep(state.api, group, agent_id))
