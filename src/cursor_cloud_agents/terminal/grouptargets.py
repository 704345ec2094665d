"""`wait grp-…`: a group of attempts named where runs are, waited on as `cursor_wait(group_id=…)` waits: the
latest run of each attempt Cursor made, read from the store of paid acts that remembers the group."""

from __future__ import annotations

from collections.abc import Sequence

from cursor_cloud_agents.core import GROUP_PATTERN, CoreState, find_group, store_failures
from cursor_cloud_agents.terminal.exits import UsageError

Pair = tuple[str, str | None]
"""An agent id and a run id (None: its latest run)."""


def is_group(value: str) -> bool:
    return GROUP_PATTERN.fullmatch(value.strip().lower()) is not None


async def expanded(state: CoreState, targets: Sequence[Pair]) -> list[Pair]:
    """`targets` with each group replaced by its attempts (their latest runs), in order, each agent once."""
    found: list[Pair] = []
    for agent_id, run_id in targets:
        if not is_group(agent_id):
            found.append((agent_id, run_id))
            continue
        with store_failures():
            group = await find_group(state.store, agent_id.strip().lower(), state.clock.now())
        if not group.agent_ids:
            raise UsageError(f"no attempt of group {group.id} was made, so there is no run to wait for")
        found.extend((attempt, None) for attempt in group.agent_ids)
    return list(dict.fromkeys(found))
