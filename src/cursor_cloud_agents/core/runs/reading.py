"""What a read of an agent's latest run gave: the run, or the failure's code (no MCP SDK: the terminal uses it)."""

from __future__ import annotations

from dataclasses import dataclass

from cursor_cloud_agents.api import ACTIVE_RUN_STATUSES, AgentSummary, Run


@dataclass
class AgentRead:
    """An agent as listed, and what the last read of its latest run gave: the run, or the failure's code.

    The fleet scan, the terminal's dashboard and its agent list each extend it with what they read more."""

    agent: AgentSummary
    run: Run | None = None
    read_error: str | None = None

    @property
    def active(self) -> bool:
        return self.run is not None and self.run.status in ACTIVE_RUN_STATUSES
