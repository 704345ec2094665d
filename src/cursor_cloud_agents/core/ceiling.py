"""A time ceiling per run: a run that outlives it is cancelled (`run --max-minutes`).

The watchdog waits on the caller's clock for the ceiling measured from the run's creation, then reads the run: one
still going is cancelled (the cancel is asynchronous at Cursor: `api` quirk 12, the caller's reads see the end),
and the caller tells the person (an event, a notification). A run that ended first is left alone.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from cursor_cloud_agents.api import CursorClient, MutationOutcomeUnknownError, RunNotCancellableError
from cursor_cloud_agents.api.times import epoch


async def cancel_past_ceiling(
    api: CursorClient,
    agent_id: str,
    run_id: str,
    ceiling_seconds: float,
    now: Callable[[], float],
    sleep: Callable[[float], Awaitable[None]],
) -> bool:
    """Wait until the run is `ceiling_seconds` old; cancel it if it is still going. Whether it was cancelled."""
    run = await api.get_run(agent_id, run_id)
    started = epoch(run.created_at) or now()
    while not run.is_terminal:
        left = started + ceiling_seconds - now()
        if left <= 0:
            try:
                await api.cancel_run(agent_id, run_id)
            except (RunNotCancellableError, MutationOutcomeUnknownError):
                pass  # it ended meanwhile, or the cancel may have landed: the caller's reads decide
            return True
        await sleep(min(left, 30.0))
        run = await api.get_run(agent_id, run_id)
    return False
