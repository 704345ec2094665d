"""`status`: one line for a status bar (`cursor: 3 running · 2 ended unread · 180¢ today · 7/25 new`), or `--json`.

`· 1 stuck` follows the running count when a running run is stale by the rule of `cursor_supervise`
(`core.liveness.count_stuck`: only runs older than the threshold are replayed, within STUCK_READ_SECONDS).

A fresh line is answered by `cli/launch.py` from the cache before this module is ever loaded; here the line
is read from Cursor and the cache written (`statuscache`), by one process at a time: whoever waited for the
lock finds the line the other just wrote. A refresh is a listing of the key's non-archived agents, every
page as the slot check reads them (running: those listed ACTIVE), the creation ledger's count, and the spend limit's own
reading of what the agents created through this machine in 24 hours were charged (`core.limits`). In
simulated mode nothing is cached: the simulated world is new in every process.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from contextlib import asynccontextmanager
from pathlib import Path

import anyio

from cursor_cloud_agents import statuscache
from cursor_cloud_agents.api import CursorError
from cursor_cloud_agents.core import (
    SLOT_PAGE,
    CoreState,
    Store,
    ToolFailure,
    TooManyAgents,
    acts_directory,
    count_stuck,
    queue,
    read_listing,
    seen,
    use_of,
)
from cursor_cloud_agents.core.timing import Clock
from cursor_cloud_agents.statuscache import Listed, Snapshot
from cursor_cloud_agents.terminal.exits import OK
from cursor_cloud_agents.terminal.term import Session, Term


async def read_snapshot(term: Term, session: Session, previous: Snapshot | None) -> Snapshot:
    """The line's figures read now: the agents running, the runs ended unread, the cents, the creations."""
    settings = session.settings_for(term.settings)
    core = CoreState(settings, term.redactor, Clock(now=session.now, sleep=session.sleep), client=session.api)
    now = session.now()
    try:
        agents = (await read_listing(session.api, now)).agents
    except TooManyAgents:  # a status line, not a limit: the newest agents tell enough
        agents = (await session.api.list_agents(limit=SLOT_PAGE, include_archived=False)).items
    listed = [Listed(agent.id, agent.status, agent.latest_run_id) for agent in agents]
    running, ended = statuscache.ended_unread(previous, listed, now)
    active = [agent for agent in agents if running.get(agent.id) == agent.latest_run_id]
    stuck = await count_stuck(session.api, core.activity, core.clock, active)
    queued = await _queue_once(core)
    not_shown = set(await seen.unread(core.store, ended, now))  # a tool answer or a command showed the others
    unread = {run_id: at for run_id, at in ended.items() if run_id in not_shown}
    try:
        spend = await core.limits.spend(session.api)
        cents, unknown = spend.cents, spend.unknown
    except ToolFailure:  # Cursor does not report usage to this key: the line says `?¢`
        cents, unknown = None, 0
    return Snapshot(
        at=now,
        key=statuscache.fingerprint(settings),
        running=len(running),
        stuck=stuck,
        ended_unread=len(unread),
        charged_cents=cents,
        cents_unknown=unknown,
        new_agents=use_of(await core.store.read(now), now)[0],
        new_agents_limit=settings.max_new_agents,
        queued=queued,
        active_runs=running,
        unread=unread,
    )


async def _queue_once(core: CoreState) -> int:
    """One pass over the follow-up queue (a follow-up whose run ended while none of our processes was alive is
    sent by this refresh), then how many still wait. A store or API failure leaves the line as it was."""
    try:
        await queue.send_due(core)
        return len(await queue.listed(core))
    except (ToolFailure, CursorError):
        return 0


async def _cached_or_read(term: Term, session: Session) -> Snapshot:
    state_dir = term.settings.state_dir
    if term.settings.simulated or state_dir is None:
        return await read_snapshot(term, session, None)
    key = statuscache.fingerprint(term.settings)
    kept = statuscache.read(state_dir)
    if kept is not None and kept.fresh(session.now(), key):
        return kept
    async with _refresh_lock(state_dir):
        kept = statuscache.read(state_dir)
        if kept is not None and kept.fresh(session.now(), key):
            return kept  # another process refreshed it while this one waited
        snapshot = await read_snapshot(term, session, kept if kept is not None and kept.key == key else None)
        statuscache.write(state_dir, snapshot)
        return snapshot


@asynccontextmanager
async def _refresh_lock(state_dir: Path) -> AsyncGenerator[None, None]:
    """`statuscache.locked`, taken in a worker thread: waiting for another process's refresh never blocks the
    event loop."""
    held = statuscache.locked(state_dir)
    await anyio.to_thread.run_sync(held.__enter__)
    try:
        yield
    finally:
        held.__exit__(None, None, None)


async def shown_ended(term: Term, run_ids: list[str], now: float) -> None:
    """These ended runs were shown to the person (at `now`, on the session's clock): the status line no longer
    counts them unread. The store first (the truth), then the cached line, in a worker thread: its lock may be
    held by a status refresh for seconds, and waiting for it must not block the event loop."""
    settings = term.settings
    state_dir = None if settings.simulated else settings.state_dir
    if state_dir is None or not run_ids:  # simulated runs are never counted against the real ones
        return
    await seen.mark_seen(Store(acts_directory(settings)), run_ids, now)
    await anyio.to_thread.run_sync(statuscache.mark_shown, state_dir, run_ids)


async def status(term: Term) -> int:
    """Print the status line (or its JSON), from the cache when it is fresh."""
    async with term.open_session() as session:
        snapshot = await _cached_or_read(term, session)
        now = session.now()
    if term.json:
        term.emit(snapshot.document(now))
    else:
        term.out.print(snapshot.line(), markup=False, highlight=False, soft_wrap=True)
    return OK
