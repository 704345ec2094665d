"""A time ceiling per run: a run that outlives it is cancelled (`run --max-minutes`; the server's
`CURSOR_MCP_MAX_RUN_MINUTES` for the agents this machine's processes created, `keep_ceilings`).

The watchdog waits on the caller's clock for the ceiling measured from the run's creation, then reads the run: one
still going is cancelled (the cancel is asynchronous at Cursor: `api` quirk 12, the caller's reads see the end),
and the caller tells the person (an event, a notification). A run that ended first is left alone.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import anyio

from cursor_cloud_agents.api import CursorClient, CursorError, MutationOutcomeUnknownError, RunNotCancellableError
from cursor_cloud_agents.api.times import epoch
from cursor_cloud_agents.core.failures import ToolFailure
from cursor_cloud_agents.core.spend.ledger import agents_of
from cursor_cloud_agents.core.state import CoreState
from cursor_cloud_agents.core.store import StoreUnusable

logger = logging.getLogger("cursor_cloud_agents.ceiling")

CEILING_LOOK_SECONDS = 60.0
"""The server looks for runs past `CURSOR_MCP_MAX_RUN_MINUTES` this often (real time)."""


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


async def sweep_ceilings(state: CoreState, ceiling_seconds: float) -> list[str]:
    """Cancel each running run, of the agents this machine's processes created in the last 24 hours, older than
    `ceiling_seconds`; the runs cancelled (each said on stderr)."""
    now = state.clock.now()
    cancelled: list[str] = []
    for agent_id in dict.fromkeys(agents_of(await state.store.read(now), now)):
        try:
            agent = await state.api.get_agent(agent_id)
            if agent.latest_run_id is None:
                continue
            run = await state.api.get_run(agent_id, agent.latest_run_id)
            started = epoch(run.created_at)
            if run.is_terminal or started is None or now - started < ceiling_seconds:
                continue
            await state.api.cancel_run(agent_id, run.id)
        except (RunNotCancellableError, MutationOutcomeUnknownError):
            pass  # it ended meanwhile, or the cancel may have landed
        except CursorError as failed:
            logger.warning("could not check %s against the run ceiling (%s)", agent_id, failed)
            continue
        else:
            cancelled.append(run.id)
            logger.warning(
                "run %s of %s outlived CURSOR_MCP_MAX_RUN_MINUTES (%g) and was cancelled",
                run.id,
                agent_id,
                ceiling_seconds / 60,
            )
    return cancelled


async def keep_ceilings(state: CoreState) -> None:
    """Hold the server's run ceiling for as long as the caller runs it (nothing when none is set)."""
    minutes = state.settings.max_run_minutes
    if minutes is None:
        return
    while True:
        try:
            await sweep_ceilings(state, minutes * 60)
        except (ToolFailure, StoreUnusable) as failed:
            logger.warning("the run ceiling could not be held (%s); trying again shortly", failed)
        await anyio.sleep(CEILING_LOOK_SECONDS)
