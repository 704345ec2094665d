"""The store's watches kept by a long-lived process (the MCP server), as it keeps the follow-up queue.

A watch started with `cursor_watch_pr` (or left by a `babysit` that stopped) lives in the store of paid acts.
Any of our processes that keeps the watches looks at each one every `interval` seconds. A process holds a watch
while it looks (`holder`, `held_until`: two processes never look at one PR at once, and a `babysit` in the
foreground keeps its own), taken under the store's lock; a hold left by a process that died runs out. The
GitHub token comes from `GH_TOKEN` or `GITHUB_TOKEN` (a server has no terminal for `gh`); without one, the
watches wait and it is said once on stderr.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from dataclasses import replace

import anyio

from cursor_cloud_agents.api import CursorError
from cursor_cloud_agents.core.acts import Act, Reading
from cursor_cloud_agents.core.failures import ToolFailure
from cursor_cloud_agents.core.pr.record import WatchRecord, act_id, of_act, save_watch, watches, with_told
from cursor_cloud_agents.core.pr.watching import HOLD_SECONDS, PrWatch, lasting
from cursor_cloud_agents.core.spend.paid import store_failures
from cursor_cloud_agents.core.state import CoreState
from cursor_cloud_agents.core.store import StoreUnusable
from cursor_cloud_agents.github import GitHubError, GitHubRateLimited, GitHubReader, pull_ref

logger = logging.getLogger("cursor_cloud_agents.pr")

WATCH_STORE_SECONDS = 5.0
"""A keeper reads the store this often (real time: the store is a local file) for watches that are due."""


def due(record: WatchRecord, now: float, holder: str) -> bool:
    """Whether `holder` may look at `record` now: its interval passed, and no other process holds it."""
    free = record.holder in (None, holder) or record.held_until <= now
    return free and now - record.looked_at >= record.interval


async def take(state: CoreState, agent_id: str, holder: str) -> WatchRecord | None:
    """Hold the watch of `agent_id` for a look, under the store's lock; None when it is not due or held."""
    now = state.clock.now()

    def held(reading: Reading) -> list[Act]:
        act = reading.acts.get(act_id(agent_id))
        record = of_act(act) if act is not None and act.state == "queued" else None
        if act is None or record is None or not due(record, now, holder):
            return []
        until = now + record.interval + HOLD_SECONDS
        taken = replace(record, holder=holder, held_until=until, looked_at=now)
        return [replace(act, detail=taken.to_detail())]

    with store_failures():
        written = await state.store.change(held, now)
    return of_act(written[0]) if written else None


async def look_once(state: CoreState, github: GitHubReader, record: WatchRecord, trusted: frozenset[str]) -> None:
    """One look at a held watch; what cannot go on ends it (`stopped`, with its reason in the log)."""
    ref = pull_ref(record.pr_url)
    if ref is None:
        return
    watch = PrWatch(state, github, ref, record, trusted, holder=record.holder)
    try:
        await watch.tick()
    except GitHubRateLimited as limited:
        later = replace(watch.record, looked_at=state.clock.now() + limited.wait_seconds - watch.record.interval)
        await save_watch(state.store, later, state.clock.now())
    except (GitHubError, CursorError) as failed:
        if not lasting(failed):
            logger.warning("could not look at %s (%s); looking again later", record.pr, failed)
            return
        stopped = {
            "event": "stopped",
            "agent_id": record.agent_id,
            "pr": record.pr,
            "commit": "",
            "reason": str(failed),
        }
        await save_watch(state.store, with_told(replace(watch.record, ended="stopped"), [stopped]), state.clock.now())


def reader_of(state: CoreState) -> GitHubReader | None:
    token = state.settings.gh_token or state.settings.github_token
    return None if token is None else GitHubReader(state.settings.github_api_url, token, now=state.clock.now)


async def keep_watches(state: CoreState, open_github: Callable[[CoreState], GitHubReader | None] = reader_of) -> None:
    """Keep the store's watches for as long as the caller runs it (cancel to stop); never ends by a failure."""
    holder = f"keeper-{uuid.uuid4().hex[:12]}"
    github: GitHubReader | None = None
    said = False
    try:
        while True:
            try:
                pending = watches(await state.store.read(state.clock.now()))
                if pending and github is None:
                    github = open_github(state)
                    if github is None and not said:
                        said = True
                        logger.warning("PR watches wait: set GH_TOKEN (or GITHUB_TOKEN) in the server's environment")
                for record in pending:
                    taken = None if github is None else await take(state, record.agent_id, holder)
                    if github is not None and taken is not None:
                        await look_once(state, github, taken, state.settings.trusted_reviewers)
            except (ToolFailure, StoreUnusable, CursorError, GitHubError) as failed:
                logger.warning("the PR watches could not be kept (%s); trying again shortly", failed)
            await anyio.sleep(WATCH_STORE_SECONDS)
    finally:
        if github is not None:
            await github.aclose()
