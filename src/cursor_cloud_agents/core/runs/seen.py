"""Which ended runs the person (or their coding agent) has been shown: what "ended unread" subtracts.

A tool answer that shows an ended run (`cursor_get_run`, `cursor_wait`) and a terminal command that
reports one (`wait`, `checkout`) write it down in the store of paid acts, one `seen` act per run (its id
derived from the run's, so showing a run twice writes the same act). The `status` line, the dashboard and
`cursor_supervise` count as unread the ended runs not written down here. Seen acts are kept a week
(`timing.KEPT_SECONDS`). Writing one is a courtesy, never a reason to fail the answer that showed it.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from cursor_cloud_agents.core.acts import Act, Reading
from cursor_cloud_agents.core.store import Store, StoreUnusable

logger = logging.getLogger("cursor_cloud_agents.seen")


def _act_id(run_id: str) -> str:
    return f"seen-{run_id}"


async def mark_seen(store: Store, run_ids: Iterable[str], now: float) -> None:
    """These ended runs were shown; a store that cannot be written only loses the mark (said at DEBUG)."""
    acts = [Act(_act_id(run_id), "seen", now, "done", run_id=run_id) for run_id in dict.fromkeys(run_ids)]
    if not acts:
        return
    try:
        await store.change(lambda reading: [act for act in acts if act.id not in reading.acts], now)
    except StoreUnusable as unusable:
        logger.debug("shown runs not marked: %s", unusable.why)


def seen_runs(reading: Reading) -> set[str]:
    """The ids of the ended runs shown so far (within the week the store keeps them)."""
    return {act.run_id for act in reading.of("seen") if act.run_id is not None}


async def unread(store: Store, ended: Iterable[str], now: float) -> list[str]:
    """Of these ended runs, those not shown yet (all of them when the store cannot be read)."""
    try:
        shown: set[str] = seen_runs(await store.read(now))
    except StoreUnusable:
        shown: set[str] = set()
    return [run_id for run_id in ended if run_id not in shown]
