"""Whether a call may change anything at Cursor, and what a call cut by its hard stop answers.

The person's settings decide: writes off refuses every tool that changes something (`READ_ONLY`), deletion
off refuses the permanent ones (`DELETE_DISABLED`), and a deletion needs the agent's id typed twice unless
the client can ask its user. A call stopped at its budget is TIMEOUT when it changes nothing, and
MUTATION_OUTCOME_UNKNOWN otherwise: a write stopped mid-way may have reached Cursor.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.core import ToolFailure, failures
from cursor_cloud_agents.server.pipeline.declaration import CHANGES_NOTHING_AT_CURSOR, Access, ToolSpec
from cursor_cloud_agents.server.protocol.asking import Peer


def gate(settings: Settings, spec: ToolSpec, arguments: Mapping[str, Any], peer: Peer) -> None:
    """Refuse a call the person's settings do not allow (raises ToolFailure)."""
    if spec.access in CHANGES_NOTHING_AT_CURSOR:
        return
    if not settings.allow_writes:
        raise ToolFailure(
            failures.READ_ONLY,
            f"{spec.name} changes state and writes are off. The user must set "
            "CURSOR_MCP_ALLOW_WRITES=1 in this MCP server's environment and restart the client.",
        )
    if spec.access is Access.DELETE:
        _gate_delete(settings, spec, arguments, peer)


def _gate_delete(settings: Settings, spec: ToolSpec, arguments: Mapping[str, Any], peer: Peer) -> None:
    if not settings.allow_delete:
        raise ToolFailure(
            failures.DELETE_DISABLED,
            f"{spec.name} is permanent and deletion is off. The user must set "
            "CURSOR_MCP_ALLOW_DELETE=1 (with CURSOR_MCP_ALLOW_WRITES=1) and restart the client; "
            "cursor_archive_agent is the reversible alternative.",
        )
    confirmation = arguments.get("confirm_agent_id")
    if peer.can_ask and "delete" in settings.ask and confirmation is None:
        return  # the tool asks the user, which is worth more than an id typed by the model
    if confirmation != arguments.get("agent_id"):
        raise ToolFailure(
            failures.CONFIRMATION_REQUIRED, "Deletion is permanent: pass confirm_agent_id equal to agent_id."
        )


def hard_stop(spec: ToolSpec, budget: float) -> ToolFailure:
    """What a call cut at its budget answers."""
    if spec.access in CHANGES_NOTHING_AT_CURSOR:
        return ToolFailure(
            failures.TIMEOUT,
            f"{spec.name} did not finish within its {budget:.0f} s budget; nothing changed. "
            "Call it again (runs go on server-side).",
        )
    # A write stopped mid-way may have reached Cursor: never report it as not done.
    return ToolFailure(
        failures.MUTATION_OUTCOME_UNKNOWN,
        f"{spec.name} was stopped at its {budget:.0f} s budget and may or "
        "may not have taken effect. Do NOT send it again: read the agent (cursor_get_agent) to find out.",
    )
