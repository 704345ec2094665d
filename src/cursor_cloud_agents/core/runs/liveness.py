"""Whether a run is stuck: the one rule behind `stale` in `cursor_supervise`, `cursor_get_run` with activity,
the terminal's fleet and its status line.

A RUNNING run's `updatedAt` never moves (docs/api-contract.md §2a), so the only liveness clock is the ids of
its stream's events, read from the replay (`activity.fold_activity`). The replay has no end marker: its end
is proved by the run's `result`, a live event or the first heartbeat (30-36 s after connecting), or inferred
from a silence after its burst. A short silence (`REPLAY_QUIET_SECONDS`) is enough to show what a moving
run last did, not to call a run stuck: a burst can pause inside for up to 1.3 s. So a replay that goes quiet
on an event older than the threshold is listened to until its silence lasts `REPLAY_LISTEN_SECONDS`; only
then, or on a proof, is the run stale. A walk the deadline or an error cut short proves nothing either way:
such a run is `incomplete`, never stale.

No MCP SDK here: the terminal calls `read_liveness` and `is_stale` as the server does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import anyio

from cursor_cloud_agents.api import AgentSummary, CursorClient, CursorError, Run, deadline_after
from cursor_cloud_agents.api.times import epoch
from cursor_cloud_agents.core.failures import Code
from cursor_cloud_agents.core.runs.activity import ActivityCache, ActivitySummary, Replays, fold_activity
from cursor_cloud_agents.core.runs.watch import REPLAYS_AT_ONCE, each_in_flight
from cursor_cloud_agents.core.timing import REPLAY_LISTEN_SECONDS, STUCK_READ_GRACE_SECONDS, STUCK_READ_SECONDS, Clock

STALE_AFTER_MINUTES = 30
"""The idle minutes that make an active run stale, unless the caller names another threshold."""


def settles_idle(activity: ActivitySummary) -> bool:
    """Whether the replay's end was decided firmly enough to call a run stuck on its idle time: proved (the
    heartbeat, a live event), or a silence that outlasted the longest pause inside a replay."""
    if activity.evidence in ("heartbeat", "live"):
        return True
    return activity.evidence == "silence" and (activity.silence_seconds or 0.0) >= REPLAY_LISTEN_SECONDS


def is_stale(
    activity: ActivitySummary | None, *, active: bool, after_seconds: float, idle_seconds: int | None = None
) -> bool:
    """The rule: an active run whose decided replay shows no event for more than `after_seconds`.

    `idle_seconds` replaces the summary's own idle time when the caller aged it since (the dashboard)."""
    if not active or activity is None or not settles_idle(activity):
        return False
    idle = activity.idle_seconds if idle_seconds is None else idle_seconds
    return idle is not None and idle > after_seconds


def undecided(activity: ActivitySummary | None) -> bool:
    """Whether nothing decided the end of the replay (`incomplete`): the walk was cut by the deadline or by
    an error, or never ran; a stream past the API's retention never can be read and says so instead."""
    if activity is None:
        return True
    return activity.evidence is None and activity.activity_error != Code.STREAM_EXPIRED


@dataclass(frozen=True)
class RunLiveness:
    """One run's activity summary (its `stale` set) as `read_liveness` read it."""

    agent_id: str
    run: Run
    activity: ActivitySummary

    @property
    def stale(self) -> bool:
        return bool(self.activity.stale)

    @property
    def incomplete(self) -> bool:
        return undecided(self.activity)


async def fold_liveness(
    replays: Replays,
    agent_id: str,
    run_id: str,
    *,
    terminal: bool,
    stale_after_seconds: float = STALE_AFTER_MINUTES * 60,
    max_seconds: float | None = None,
) -> ActivitySummary:
    """One run's activity summary with `stale` judged by the rule, listening past a pause when it must (an
    ended run is never stale, and its replay ends on its result)."""
    activity = await fold_activity(
        replays,
        agent_id,
        run_id,
        terminal=terminal,
        max_seconds=max_seconds,
        stale_after_seconds=None if terminal else stale_after_seconds,
    )
    stale = is_stale(activity, active=not terminal, after_seconds=stale_after_seconds)
    return activity.model_copy(update={"stale": True if stale else None})


async def read_liveness(
    replays: Replays,
    runs: Sequence[tuple[str, Run]],
    *,
    stale_after_seconds: float = STALE_AFTER_MINUTES * 60,
    max_seconds: float | None = None,
) -> list[RunLiveness]:
    """Each `(agent_id, run)`'s activity and whether it is stale, in order, the replays walked (and the stale
    candidates listened to) all at once, at most `REPLAYS_AT_ONCE` at a time; each walk stops after `max_seconds`
    (a cut walk is `incomplete`, never stale). For a status line: `sum(r.stale for r in ...)` runs stuck."""
    found: dict[int, ActivitySummary] = {}

    async def one(index: int) -> None:
        agent_id, run = runs[index]
        found[index] = await fold_liveness(
            replays,
            agent_id,
            run.id,
            terminal=run.is_terminal,
            stale_after_seconds=stale_after_seconds,
            max_seconds=max_seconds,
        )

    await each_in_flight(range(len(runs)), one, at_once=REPLAYS_AT_ONCE)
    return [RunLiveness(agent_id, run, found[index]) for index, (agent_id, run) in enumerate(runs)]


async def count_stuck(
    api: CursorClient,
    cache: ActivityCache,
    clock: Clock,
    running: Sequence[AgentSummary],
    *,
    stale_after_seconds: float = STALE_AFTER_MINUTES * 60,
    max_seconds: float = STUCK_READ_SECONDS,
) -> int:
    """How many of the running agents' latest runs are stale by the rule, judged within `max_seconds`.

    For a status line: a run that started less than `stale_after_seconds` ago cannot be stale (its last
    event is no older than its start), so neither it nor the run of an agent that young is read or replayed;
    nor is a run counted whose read fails or whose walk the time cut (undecided is never stuck)."""
    now = clock.now()
    candidates: list[tuple[str, Run]] = []

    def old_enough(moment: str | None) -> bool:
        started = epoch(moment)
        return started is None or now - started > stale_after_seconds

    async def read(agent: AgentSummary) -> None:
        if agent.latest_run_id is None or not old_enough(agent.created_at):
            return
        try:
            run = await api.get_run(agent.id, agent.latest_run_id)
        except CursorError:
            return
        if not run.is_terminal and old_enough(run.created_at):
            candidates.append((agent.id, run))

    # A deadline, not a cancel scope: a walk it cuts ends `incomplete` and the runs judged before it still count.
    with deadline_after(max_seconds), anyio.move_on_after(max_seconds + STUCK_READ_GRACE_SECONDS):
        await each_in_flight(running, read)
        replays = Replays(api, cache, clock)
        judged = await read_liveness(replays, candidates, stale_after_seconds=stale_after_seconds)
        return sum(entry.stale for entry in judged)
    return 0  # the backstop: no walk said it was cut in time
