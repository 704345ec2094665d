"""`cursor_watch_pr`: start, stop or read the watch of an agent's pull request (docs/pr-loop.md).

The watch lives in the store; this server (and any of our processes that keeps the store's watches) looks at
it. Starting is the consent to up to `max_fixes` paid follow-ups within the limits, so it is a write.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field

from cursor_cloud_agents.core import read_watch, start_watch, stop_watch
from cursor_cloud_agents.server.pipeline.declaration import Access, Catalogue
from cursor_cloud_agents.server.pipeline.params import visible_ascii
from cursor_cloud_agents.server.pipeline.state import ServerState
from cursor_cloud_agents.server.views.prwatch import WatchView

catalogue = Catalogue()


def _bounded(value: str) -> str:
    if len(value) > MAX_CHARS:
        raise ValueError(f"at most {MAX_CHARS} characters: an agent id (bc-<uuid>) or a PR URL")
    return visible_ascii(value) or value


MAX_CHARS = 500
AgentOrPr = Annotated[str, Field(description="Agent id or PR URL."), AfterValidator(_bounded)]


@catalogue.tool(title="Watch a PR", access=Access.WRITE, idempotent=True)
async def cursor_watch_pr(
    state: ServerState,
    agent_id: AgentOrPr,
    action: Literal["start", "stop", "read"] = "read",
    max_fixes: Annotated[int, Field(ge=0, le=10)] = 3,
) -> WatchView:
    """Watch an agent's PR to merge, sending at most max_fixes paid fixes (CI, reviewers)."""
    if action == "start":
        return WatchView.of(await start_watch(state, agent_id, max_fixes))
    if action == "stop":
        return WatchView.of(await stop_watch(state, agent_id))
    return WatchView.of(await read_watch(state, agent_id))
