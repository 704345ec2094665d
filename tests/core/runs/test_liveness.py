"""A stuck run is called stuck (issue 25): `stale` on a quiet fleet, never on a replay that paused, never on a cut walk.

The simulator runs on its manual clock (its heartbeat comes 30 s after connecting, on that clock, so a
test that does not move it never sees one); the replay's short quiet and the listen past a pause are real
time, as the call's budget is, so most tests run them at a quarter of it (`FAST`): a listen lasts 0.375 s and
is reported and judged as 1.5 s. The tests of a pause inside a burst and of a budget that ends mid-listen keep
real time: their margins are the production figures'. A stuck run here did its work in its first minute,
three hours ago.
"""

from __future__ import annotations

import uuid
from typing import Any

import anyio
import pytest

from cursor_cloud_agents.api import LISTENING_STREAMS, AgentSummary, CursorClient, Run
from cursor_cloud_agents.api.deadline import Deadline
from cursor_cloud_agents.core.cache import Cache
from cursor_cloud_agents.core.runs.activity import ActivityCache, ActivitySummary, Replays, ToolState
from cursor_cloud_agents.core.runs.fleet import Fleet, Query, Row
from cursor_cloud_agents.core.runs.liveness import count_stuck, read_liveness
from cursor_cloud_agents.core.timing import (
    REPLAY_LISTEN_SECONDS,
    REPLAY_QUIET_SECONDS,
    STUCK_READ_GRACE_SECONDS,
    CallTime,
    Clock,
)
from cursor_cloud_agents.server.pipeline.answers import size
from cursor_cloud_agents.server.views.fleet import FleetView
from cursor_cloud_agents.simulator import Fault, Faults, ManualClock, Quirks, RunScript, ScriptedToolCall, World
from tests.clock import FAST_SILENCES as FAST
from tests.clock import while_time_passes
from tests.tool_harness import Harness, OpenHarness, Reply

pytestmark = pytest.mark.anyio

HOURS = 3600.0
LISTENED = f"silence {REPLAY_LISTEN_SECONDS:g}s"
QUIET = f"silence {REPLAY_QUIET_SECONDS:g}s"
CALLS = tuple(ScriptedToolCall("read_file", {"path": f"src/module_{index}.py"}) for index in range(20))
STUCK = RunScript(running_seconds=10 * HOURS, events_seconds=60.0, tool_calls=CALLS, summary=None)
"""Its events in the first minute of a ten-hour run: then nothing, as a stuck run."""
MOVING = RunScript(running_seconds=HOURS, tool_calls=CALLS * 20, thinking=None, summary=None)
"""An event about every 9 s over the hour it runs."""


def world_of(*fleet: tuple[str, RunScript, float]) -> World:
    """Agents named, scripted and created that many seconds ago, heartbeats 30 s after connecting."""
    world = World(ManualClock(), quirks=Quirks(heartbeat_first_seconds=30.0))
    for name, script, created_ago in fleet:
        world.add_agent(name, script=script, created_ago=created_ago)
    return world


def stuck(count: int) -> list[tuple[str, RunScript, float]]:
    return [(f"stuck {index}", STUCK, 3 * HOURS + 62.0) for index in range(count)]


def moving(count: int) -> list[tuple[str, RunScript, float]]:
    return [(f"moving {index}", MOVING, 600.0) for index in range(count)]


async def supervise(h: Harness, **arguments: Any) -> Reply:
    reply = await h.call("cursor_supervise", {"activity": True} | arguments)
    assert not reply.is_error, reply.data
    return reply


def by_name(data: dict[str, Any], key: str) -> list[str]:
    names = {row["agent_id"]: row["name"] for row in data["agents"]}
    return sorted(names[agent_id] for agent_id in data["summary"][key])


async def test_quiet_runs_idle_past_the_threshold_are_stale_by_a_silence_past_the_longest_pause(
    harness_factory: OpenHarness,
) -> None:
    """SL-23: RUNNING runs whose last event is three hours old and whose streams stay quiet (no heartbeat yet)
    are all `stale`, each row saying the silence that decided it; runs moving within the threshold are not,
    and no row is `incomplete` (it means a walk cut by the deadline or an error, never a quiet one)."""
    async with harness_factory(world_of(*stuck(3), *moving(3)), silence_scale=FAST) as h:
        data = (await supervise(h)).data
        in_flight = h.sim.max_in_flight
    rows = {row["name"]: row for row in data["agents"]}
    assert by_name(data, "stale") == ["stuck 0", "stuck 1", "stuck 2"]
    assert data["summary"]["incomplete"] == []
    assert {rows[f"stuck {index}"]["evidence"] for index in range(3)} == {LISTENED}
    assert {rows[f"moving {index}"]["evidence"] for index in range(3)} == {QUIET}
    assert all(rows[f"stuck {index}"]["idle_seconds"] > 2.9 * HOURS for index in range(3))
    assert all(rows[f"moving {index}"]["idle_seconds"] < 60 for index in range(3))
    assert in_flight <= 8


async def test_stuck_runs_are_listened_to_beyond_the_request_slots_all_at_once(harness_factory: OpenHarness) -> None:
    """F-45: sixteen stuck runs. Each quiet stream moves to a listener slot once its replay has been quiet for
    the short silence, so the next replay starts at once: more than 8 streams are open together (8 at most
    before), never more than 8 + LISTENING_STREAMS, and all sixteen are stale by the long silence."""
    async with harness_factory(world_of(*stuck(16)), silence_scale=FAST) as h:
        data = (await supervise(h)).data
        in_flight = h.sim.max_in_flight
    assert len(data["summary"]["stale"]) == 16 and data["summary"]["incomplete"] == []
    assert {row["evidence"] for row in data["agents"]} == {LISTENED}
    assert 8 < in_flight <= 8 + LISTENING_STREAMS


async def test_a_quiet_stream_whose_heartbeat_comes_is_stale_by_the_heartbeat(harness_factory: OpenHarness) -> None:
    """SL-23: the first heartbeat (30 s after connecting, here on the world clock) proves the replay over: the
    same runs are stale, decided by the heartbeat."""
    async with harness_factory(world_of(*stuck(2))) as h:
        data = (await while_time_passes(h.clock, supervise(h))).data
    assert by_name(data, "stale") == ["stuck 0", "stuck 1"]
    assert {row["evidence"] for row in data["agents"]} == {"heartbeat"}


async def test_a_replay_that_pauses_inside_its_burst_is_never_stale_and_its_idle_time_is_from_its_newest_event(
    harness_factory: OpenHarness,
) -> None:
    """SL-24: the replay stops 1.2 s halfway through its burst, on events 1.5 hours old, then sends the rest,
    seconds old. The run is listened to past the short quiet, so the newer events arrive: not stale, not
    incomplete, its idle time from its newest event."""
    steady = RunScript(running_seconds=6 * HOURS, tool_calls=CALLS * 20, thinking=None, summary=None)
    world = world_of(("paused replay", steady, 3 * HOURS))
    (agent,) = world.agents.values()
    faults = Faults()
    faults.inject("GET", f"/v1/agents/{agent.id}/runs/{agent.runs[-1].id}/stream", Fault.replay_pause(1.2))
    async with harness_factory(world, faults=faults) as h:
        data = (await supervise(h)).data
    (row,) = data["agents"]
    assert data["summary"]["stale"] == [] and data["summary"]["incomplete"] == []
    assert row["idle_seconds"] < 60 and row["evidence"] == QUIET


async def test_a_call_whose_budget_ends_mid_listen_marks_those_rows_incomplete_never_stale(
    harness_factory: OpenHarness,
) -> None:
    """SL-22: the budget (here 1.5 s) ends while the stuck runs are listened to: every one is `incomplete`
    (its walk was cut by the deadline), none is stale, and the rows carry no evidence."""
    async with harness_factory(world_of(*stuck(3)), max_call_seconds=1.5) as h:
        data = (await supervise(h)).data
    assert data["summary"]["stale"] == []
    assert by_name(data, "incomplete") == ["stuck 0", "stuck 1", "stuck 2"]
    assert all("evidence" not in row for row in data["agents"])


async def test_get_run_with_activity_says_a_stuck_run_is_stale_and_a_moving_one_is_not(
    harness_factory: OpenHarness,
) -> None:
    """SL-25: the same rule in `cursor_get_run` with activity (the default threshold, 30 minutes)."""
    async with harness_factory(world_of(*stuck(1), *moving(1)), silence_scale=FAST) as h:
        found: dict[str, dict[str, Any]] = {}
        for agent in h.world.agents.values():
            reply = await h.call(
                "cursor_get_run", {"agent_id": agent.id, "run_id": agent.runs[-1].id, "activity": True}
            )
            assert not reply.is_error, reply.data
            found[agent.name or ""] = reply.data["activity"]
    assert found["stuck 0"]["stale"] is True and found["stuck 0"]["evidence"] == "silence"
    assert found["stuck 0"]["silence_seconds"] == REPLAY_LISTEN_SECONDS
    assert "stale" not in found["moving 0"] and found["moving 0"]["silence_seconds"] == REPLAY_QUIET_SECONDS


async def test_a_hundred_stale_rows_fit_in_thirty_thousand_bytes() -> None:
    """SL-27: 100 stuck rows, each as a listened walk leaves it (idle time, last tool, the evidence), and the
    summary naming all 100: the answer stays under 30,000 bytes (it was 37 KB, issue 25)."""
    time = CallTime(Deadline(anyio.current_time() + 60))
    fleet = Fleet(
        CursorClient("http://127.0.0.1:9", None), Cache(Clock(), 10), time, Query("active", None, None, False)
    )
    idle = ActivitySummary(
        last_event_at="2026-10-06T09:00:01.123Z",
        last_text="Reading the module before changing it.",
        last_text_clipped=None,
        last_tool=ToolState(name="read_file", status="completed"),
        background_tasks=None,
        unfinished_background_tasks=0,
        summarized=False,
        stream_error=None,
        complete=False,
        scanned_events=81,
    )
    listened = idle.model_copy(
        update={
            "replay_complete": False,
            "as_of": "2026-10-06T12:00:01.123Z",
            "evidence": "silence",
            "silence_seconds": REPLAY_LISTEN_SECONDS,
            "idle_seconds": 10_800,
        }
    )
    for index in range(100):
        agent = AgentSummary(
            id=f"bc-{uuid.UUID(int=index)}",
            name=f"stuck {index:03d}",
            status="ACTIVE",
            latest_run_id=f"run-{uuid.UUID(int=index)}",
        )
        fleet.rows.append(Row(agent, run=Run(id=f"run-{uuid.UUID(int=index)}", status="RUNNING"), activity=listened))
    view = FleetView.of(fleet, None, activity=True, usage=False, stale_seconds=1800, shown=100)
    assert len(view.summary.stale or []) == 100
    assert size(view) < 30_000


async def test_read_liveness_judges_many_runs_by_the_same_rule_all_at_once(harness_factory: OpenHarness) -> None:
    """SL-28: the core function a status line calls (`liveness.read_liveness`, no MCP): each run's activity and
    whether it is stale, the stuck ones listened to together (well under the sum of their listens), and a walk
    cut by its time `incomplete`, never stale."""
    async with harness_factory(world_of(*stuck(4), *moving(2)), silence_scale=FAST) as h:
        runs = [(agent.id, await h.api.get_run(agent.id, agent.runs[-1].id)) for agent in h.world.agents.values()]
        cache: ActivityCache = Cache(Clock(h.clock.now), 10)
        started = anyio.current_time()
        found = await read_liveness(Replays(h.api, cache, Clock(h.clock.now)), runs)
        took = anyio.current_time() - started
        mid_listen = REPLAY_LISTEN_SECONDS * FAST / 3
        cut = await read_liveness(Replays(h.api, cache, Clock(h.clock.now)), runs[:1], max_seconds=mid_listen)
    assert [entry.stale for entry in found] == [True] * 4 + [False] * 2
    assert not any(entry.incomplete for entry in found)
    assert took < 3 * REPLAY_LISTEN_SECONDS * FAST  # four listens at once, not one after the other
    assert cut[0].incomplete and not cut[0].stale


async def test_count_stuck_whose_time_ends_mid_listen_counts_no_undecided_run(harness_factory: OpenHarness) -> None:
    """SL-29, SL-22: the status line's count under a time shorter than the listen: the walks end cut
    (`incomplete`), so no run is counted stuck, and the count comes back by its deadline, not after the
    listens."""
    async with harness_factory(world_of(*stuck(3)), silence_scale=FAST) as h:
        agents = list((await h.api.list_agents()).items)
        cache: ActivityCache = Cache(Clock(h.clock.now), 10)
        cut_at = REPLAY_LISTEN_SECONDS * FAST * 2 / 3
        with anyio.fail_after(cut_at + STUCK_READ_GRACE_SECONDS):  # never the full listen per row
            cut = await count_stuck(h.api, cache, Clock(h.clock.now), agents, max_seconds=cut_at)
        judged = await count_stuck(h.api, cache, Clock(h.clock.now), agents)
    assert (cut, judged) == (0, 3)
