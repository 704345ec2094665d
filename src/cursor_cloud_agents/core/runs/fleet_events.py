"""Fleet events: one small record per change across the agents followed, for a background reader to wake on.

What is followed: agents named by id, a group (the agents whose name contains a text), or the key's active
fleet (every agent with a run going). What is told, each once:
- `started`: a run began (an agent's latest run is new, or the fleet shows a new running agent);
- `ended`: a run ended, with its status, how long it took (`core.elapsed`), its branches and PR; heard on
  the run's stream within a second of its `result` (`core.ends`), else seen by the next look;
- `stuck`: a running run went quiet for longer than the stuck threshold (`core.liveness`, the one rule);
- `pr_opened`: a PR appeared on a run's branches;
- `followup_sent` (and `followup_held`, `followup_expired`, `followup_refused`): a queued follow-up moved
  (`core.queue`, which the follower keeps while it runs);
- a PR watch's events (`fix_sent`, `escalated`, `merged`...: docs/pr-loop.md), read from the watch's record in
  the store, whichever process looked at the PR.

The state is in memory: after a dropped connection the next look compares with what was known before, so
an end that happened meanwhile is told once, late, never lost. Agent-written text (names, branches) is
cleaned and clipped; no result text is carried (read it with `wait` or cursor_get_run).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import anyio

from cursor_cloud_agents.api import AgentSummary, CursorClient, CursorError, Run
from cursor_cloud_agents.api.times import epoch, iso
from cursor_cloud_agents.core.failures import ToolFailure
from cursor_cloud_agents.core.pr.news import WatchNews
from cursor_cloud_agents.core.runs.activity import Replays
from cursor_cloud_agents.core.runs.elapsed import end_line, run_seconds
from cursor_cloud_agents.core.runs.ends import EndEars
from cursor_cloud_agents.core.runs.liveness import STALE_AFTER_MINUTES, read_liveness
from cursor_cloud_agents.core.runs.watch import each_in_flight
from cursor_cloud_agents.core.spend.queue import QueueNews, keep_going, send_due_after_an_end
from cursor_cloud_agents.core.state import CoreState
from cursor_cloud_agents.core.store import StoreUnusable
from cursor_cloud_agents.core.timing import EVENTS_LOOK_SECONDS, STUCK_LOOK_SECONDS, WATCH_RECONNECT_SECONDS, CallTime
from cursor_cloud_agents.core.untrusted import clean, clip

FLEET_PAGE = 100
"""The newest agents read when following the fleet or a group: running agents are recent (as `wait --active`)."""
TEXT_CHARS = 120
"""Agent-written text in an event (a name, a branch) is clipped to this many characters."""

Event = dict[str, Any]
T = TypeVar("T")
Emit = Callable[[Event], Awaitable[None]]


@dataclass
class Known:
    """What was last told of one agent's latest run."""

    run_id: str | None
    status: str | None
    prs: frozenset[str] = frozenset()
    stuck: bool = False


@dataclass
class Followed:
    """What to follow: agent ids, or a group by name, or (neither) the key's active fleet."""

    agent_ids: Sequence[str] = ()
    name: str | None = None


def _text(value: str | None) -> str | None:
    return None if value is None else clip(clean(value), TEXT_CHARS)[0]


def _prs(run: Run) -> frozenset[str]:
    return frozenset(branch.pr_url for branch in (run.git.branches if run.git else []) if branch.pr_url)


def run_fields(agent_id: str, run: Run) -> Event:
    """The run's part of an event: ids, status, and once it ended its elapsed time, branches and PRs."""
    fields: Event = {"agent_id": agent_id, "run_id": run.id, "status": run.status}
    if run.is_terminal:
        seconds = run_seconds(run, None)
        branches = run.git.branches if run.git else []
        fields |= {
            "message": end_line(run),
            "elapsed_seconds": None if seconds is None else round(seconds),
            "branches": [{"repo": branch.repo_url, "branch": _text(branch.branch)} for branch in branches] or None,
            "pr_url": next((branch.pr_url for branch in branches if branch.pr_url), None),
        }
    return {key: value for key, value in fields.items() if value is not None}


@dataclass
class FleetFollower:
    """Follows a target and tells each change once, through `emit`."""

    state: CoreState
    target: Followed
    emit: Emit
    stale_after_seconds: float = STALE_AFTER_MINUTES * 60
    known: dict[str, Known] = field(default_factory=dict[str, Known])
    ended: set[str] = field(default_factory=set[str])
    """Runs whose end was told (`--until` counts them)."""
    listened: set[str] = field(default_factory=set[str])
    """Runs whose stream is being listened to for their end."""
    failures: int = 0
    """Looks failed in a row."""
    looked: bool = False
    """Whether a first look was made: an agent or run found after it is new (`started`)."""
    watch_news: WatchNews = field(default_factory=WatchNews)

    @property
    def api(self) -> CursorClient:
        return self.state.api

    async def agents(self) -> list[AgentSummary]:
        """The agents followed now (a fleet or group: the running ones, and those still known as running)."""
        if self.target.agent_ids:
            found: list[AgentSummary] = []

            async def read(agent_id: str) -> None:
                found.append(await self.api.get_agent(agent_id))

            await _each(list(self.target.agent_ids), read)
            return sorted(found, key=lambda agent: self.target.agent_ids.index(agent.id))
        page = (await self.api.list_agents(limit=FLEET_PAGE, include_archived=False)).items
        name = (self.target.name or "").casefold()
        wanted = [agent for agent in page if name in (agent.name or "").casefold()]
        going = {agent_id for agent_id, known in self.known.items() if known.status not in (None, *_ENDED)}
        return [agent for agent in wanted if agent.status == "ACTIVE" or agent.id in going]

    async def look(self, ears: EndEars, group: anyio.abc.TaskGroup) -> None:
        """Read the followed agents' latest runs and tell what changed; listen to the running ones' streams."""
        runs: dict[str, Run] = {}

        async def read(agent: AgentSummary) -> None:
            if agent.latest_run_id is not None:
                runs[agent.id] = await self.api.get_run(agent.id, agent.latest_run_id)

        agents = await self.agents()
        await _each(agents, read)
        for event in await self._watch_events():
            await self.emit(event)  # a PR watch's events (core/pr), whichever process looked at it
        for agent in agents:
            run = runs.get(agent.id)
            if run is not None:
                await self.compare(agent.id, run)
                if not run.is_terminal and run.id not in self.listened:
                    self.listened.add(run.id)
                    group.start_soon(self._listen, ears, agent.id, run.id)
        self.looked = True

    async def _watch_events(self) -> list[Event]:
        try:
            reading = await self.state.store.read(self.state.clock.now())
        except StoreUnusable:
            return []  # the store's trouble is said by what pays; following goes on
        return self.watch_news.fresh(reading, self.target.agent_ids)

    async def _listen(self, ears: EndEars, agent_id: str, run_id: str) -> None:
        """Listen to one run's stream; once that ends (told, broken, given up) the next look may listen again."""
        try:
            await ears.follow(agent_id, run_id)
        finally:
            self.listened.discard(run_id)

    async def look_again(self, ears: EndEars, group: anyio.abc.TaskGroup, say: Callable[[str], None]) -> float:
        """`look`, a failure said and counted; the pause before the next look."""
        try:
            await self.look(ears, group)
        except CursorError as failed:
            pause = WATCH_RECONNECT_SECONDS[min(self.failures, len(WATCH_RECONNECT_SECONDS) - 1)]
            self.failures += 1
            say(f"could not read the agents ({failed}); trying again in {pause:g} s")
            return pause
        if self.failures:
            say("reading the agents again: nothing was missed, what changed meanwhile follows")
        self.failures = 0
        return EVENTS_LOOK_SECONDS

    async def heard(self, runs: set[str]) -> None:
        """Read the runs whose stream told their end, and tell it."""
        for agent_id, known in list(self.known.items()):
            if known.run_id in runs:
                try:
                    await self.compare(agent_id, await self.api.get_run(agent_id, known.run_id or ""))
                except CursorError:
                    continue  # the next look reads it again

    async def compare(self, agent_id: str, run: Run) -> None:
        """Tell what `run` shows that was not told of the agent before. On the first look a run already going is
        not `started` (it was), and PRs already open are not new; a run already ended is told `ended` once."""
        before = self.known.get(agent_id)
        new_run = (before.run_id != run.id) if before is not None else self.looked
        stuck = before is not None and before.run_id == run.id and before.stuck
        self.known[agent_id] = Known(run.id, run.status, _prs(run), stuck)
        if new_run:
            await self.emit({"event": "started", "agent_id": agent_id, "run_id": run.id, "status": run.status})
        if run.is_terminal and run.id not in self.ended:
            self.ended.add(run.id)
            await self.emit({"event": "ended"} | run_fields(agent_id, run))
        elif before is not None:
            for pr in sorted(_prs(run) - (frozenset() if new_run else before.prs)):
                await self.emit({"event": "pr_opened", "agent_id": agent_id, "run_id": run.id, "pr_url": pr})

    def over(self, until: str | None) -> bool:
        """Whether `--until` is met: `any` once a run ended, `all` once every run followed ended."""
        if until == "any":
            return bool(self.ended)
        if until == "all":
            return bool(self.known) and all(known.run_id in self.ended for known in self.known.values())
        return False

    async def judge_stuck(self) -> None:
        """Tell each running run newly quiet for longer than the stuck threshold (`core.liveness`)."""
        running: list[tuple[str, Run]] = []
        now = self.state.clock.now()
        for agent_id, known in self.known.items():
            if known.run_id is not None and known.status not in _ENDED and not known.stuck:
                try:
                    run = await self.api.get_run(agent_id, known.run_id)
                except CursorError:
                    continue
                started = epoch(run.created_at)
                if started is None or now - started > self.stale_after_seconds:  # a younger run cannot be stuck
                    running.append((agent_id, run))
        try:
            replays = Replays(self.api, self.state.activity, self.state.clock)
            judged = await read_liveness(replays, running, stale_after_seconds=self.stale_after_seconds)
        except CursorError:
            return  # judged on the next round
        for entry in judged:
            if entry.stale:
                self.known[entry.agent_id].stuck = True
                idle = entry.activity.idle_seconds
                await self.emit(
                    {"event": "stuck", "agent_id": entry.agent_id, "run_id": entry.run.id, "idle_seconds": idle}
                )

    async def queue_news(self, news: QueueNews) -> None:
        """Tell what became of a queued follow-up."""
        event: Event = {"event": f"followup_{news.outcome}", "queue_id": news.act.id, "agent_id": news.act.agent_id}
        if news.run is not None:
            event["run_id"] = news.run.id
        await self.emit(event | {"note": news.note})


async def _each(items: Sequence[T], work: Callable[[T], Awaitable[None]]) -> None:
    """`each_in_flight`, the first failure raised alone (not in an exception group) once all are done."""
    failed: list[CursorError] = []

    async def one(item: T) -> None:
        try:
            await work(item)
        except CursorError as exc:
            failed.append(exc)

    await each_in_flight(items, one)
    if failed:
        raise failed[0]


_ENDED = ("FINISHED", "ERROR", "CANCELLED", "EXPIRED")


def stamped(event: Event, now: float) -> Event:
    """The event with its time first."""
    return {"at": iso(now)} | event


async def follow_events(
    state: CoreState,
    target: Followed,
    emit: Emit,
    time: CallTime,
    *,
    until: str | None = None,
    keep_queue: bool = True,
    say: Callable[[str], None] = lambda _line: None,
) -> FleetFollower:
    """Follow `target`, telling each change through `emit`, until `until` is met (or forever: cancel it).

    Looks at the agents every EVENTS_LOOK_SECONDS (an end is told sooner, from the run's stream), judges
    the running runs stuck or not every STUCK_LOOK_SECONDS, and keeps the follow-up queue. A look that
    fails (the connection dropped, Cursor down) is said through `say` and tried again after the pauses of
    WATCH_RECONNECT_SECONDS, the last one repeated: a follower never gives up."""
    follower = FleetFollower(state, target, emit)
    ears = EndEars(state.api)
    async with anyio.create_task_group() as group:
        if keep_queue:
            group.start_soon(keep_going, state, time, follower.queue_news)
        next_look = next_stuck = time.now()
        while not follower.over(until):
            if time.now() >= next_look:
                next_look = time.now() + await follower.look_again(ears, group, say)
                if follower.over(until):
                    break
            if time.now() >= next_stuck:
                await follower.judge_stuck()
                next_stuck = time.now() + STUCK_LOOK_SECONDS
            await ears.pause(time.pause, max(0.0, next_look - time.now()))
            await follower.heard(ears.take())
        group.cancel_scope.cancel()
    if keep_queue and until is not None:
        # The run that met `until` is the run a queued follow-up may wait for: the keeper cancelled above may not
        # have looked yet, so one last pass sends what that end made due before the follower ends.
        try:
            for news in await send_due_after_an_end(state):
                await follower.queue_news(news)
        except (ToolFailure, CursorError, StoreUnusable) as failed:  # `until` was met: said, never the follower's end
            say(f"the follow-up queue could not be kept: {failed}")
    return follower
