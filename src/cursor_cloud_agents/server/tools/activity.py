"""The activity summary of a run, read from its stream replay (issue 6; being written).

`cursor_get_run` calls `summarize` when asked (`activity=true`) or, automatically, for a terminal
run with no result. The signature is the contract between the two modules.
"""

from __future__ import annotations

from typing import Any

from cursor_cloud_agents.server.toolkit import Toolkit


async def summarize(kit: Toolkit, agent_id: str, run_id: str, *, terminal: bool) -> dict[str, Any]:
    """The activity summary of one run, as the JSON object placed under `activity` in get_run's answer.

    Never raises for an unreadable stream: it answers `{"activity_error": CODE, ...}` instead.
    """
    del kit, agent_id, run_id, terminal
    return {"complete": False, "activity_error": "NOT_AVAILABLE"}
