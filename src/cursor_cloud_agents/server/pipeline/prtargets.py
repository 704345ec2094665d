"""An agent named by its pull request in a tool's `agent_id` (the instructions say so once, not each schema).

The arguments are judged, and the gates passed, with a stand-in id in place of the PR, so that a refused call
sends nothing; the PR is then resolved inside the call's deadline by the core (`resolve_agent`: the API's
`prUrl` filter; two agents on one PR is a VALIDATION error listing both). A delete never takes a PR: it must name
the agent it deletes, twice.
"""

from __future__ import annotations

from typing import Any

from cursor_cloud_agents.core import names_a_pr, resolve_agent
from cursor_cloud_agents.server.pipeline.declaration import Access, ToolSpec
from cursor_cloud_agents.server.pipeline.state import ServerState

STAND_IN_ID = "bc-00000000-0000-4000-8000-000000000000"
"""What the arguments are judged with while the PR is not resolved yet (never sent)."""


def pr_named(spec: ToolSpec, raw: dict[str, Any]) -> str | None:
    """The PR a call names in place of its agent id, if any."""
    value = raw.get("agent_id")
    if spec.access is Access.DELETE or not isinstance(value, str) or not names_a_pr(value):
        return None
    return value


def judged_with_stand_in(raw: dict[str, Any]) -> dict[str, Any]:
    return raw | {"agent_id": STAND_IN_ID}


async def with_agent_of(state: ServerState, values: dict[str, Any], pr: str | None) -> dict[str, Any]:
    """`values` with the agent the PR names in place of the stand-in id (as they are when no PR was named)."""
    if pr is None:
        return values
    return values | {"agent_id": await resolve_agent(state.api, pr)}
