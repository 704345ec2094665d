"""Reading a run whose `interaction_update` frames share their id with the simplified frames they repeat.

docs/api-contract.md §3.11 infers (M) that the API sends each underlying event twice with one id; the simulator does so
with `Quirks(simplified_frames_share_ids=True)` and answers `Last-Event-ID` with the frames after that id only.
"""

from __future__ import annotations

from typing import Any

import pytest

from cursor_cloud_agents.server.tools import run_events as events_tool
from cursor_cloud_agents.simulator import (
    BackgroundTaskScript,
    Fault,
    Faults,
    ManualClock,
    RunScript,
    ScriptedToolCall,
    World,
)
from cursor_cloud_agents.simulator.quirks import Quirks
from cursor_cloud_agents.simulator.records import RunRecord
from cursor_cloud_agents.simulator.timeline import encode_frame
from tests.tool_harness import Harness, OpenHarness

pytestmark = pytest.mark.anyio

TOOL = "cursor_read_run_events"
TEXT = "I will read the code first. Then I change the parser! Does it pass? It does."
SCRIPT = RunScript(
    text=TEXT,
    tool_calls=(
        ScriptedToolCall("read_file", {"path": "src/parser.py"}, {"success": {"content": "x"}}),
        ScriptedToolCall("run_terminal_cmd", {"command": "pytest -q"}, {"error": {"message": "1 failed"}}),
        ScriptedToolCall("edit_file", {"path": "src/parser.py"}, {"success": {}}),
    ),
    background=BackgroundTaskScript(polls=2),
    running_seconds=120.0,
)
SHARED = Quirks(simplified_frames_share_ids=True)


def ended_run(quirks: Quirks = SHARED) -> tuple[World, str, RunRecord]:
    world = World(ManualClock(), quirks=quirks)
    agent = world.add_agent("Fix the parser", script=SCRIPT, created_ago=3600.0)
    return world, agent.id, agent.runs[-1]


def key(event_id: str) -> tuple[int, ...]:
    return tuple(int(part) for part in event_id.split("-"))


def shown(events: list[dict[str, Any]]) -> tuple[str, list[tuple[Any, ...]]]:
    """The assistant text joined, and every other event by what identifies it (merging depends on the paging)."""
    text = "".join(event["text"] for event in events if event["type"] == "assistant")
    others = [
        (event["type"], event.get("call_id"), event.get("status"))
        for event in events
        if event["type"] not in ("assistant", "thinking")
    ]
    return text, others


async def read_all(h: Harness, agent_id: str, run_id: str) -> list[dict[str, Any]]:
    """Every event of the run, paged with `after_event_id` until the run's end."""
    events: list[dict[str, Any]] = []
    after: str | None = None
    for _ in range(500):
        arguments = {"agent_id": agent_id, "run_id": run_id} | ({"after_event_id": after} if after else {})
        reply = await h.call(TOOL, arguments)
        assert not reply.is_error, reply.data
        events += reply.data["events"]
        after = reply.data["last_event_id"]
        if reply.data["finished"] and not reply.data.get("more"):
            return events
    raise AssertionError("the paging never reached the run's end")


def assert_simplified_frames_share_ids(run: RunRecord) -> None:
    timeline = run.timeline
    shared = [i for i in range(1, len(timeline)) if timeline.keys[i] == timeline.keys[i - 1]]
    assert len(shared) > 20  # every delta and tool call, not only `done`


@pytest.mark.parametrize("max_events", [1, 2, 3, 5])
async def test_paging_small_excerpts_with_after_event_id_returns_every_event_once_in_order_contract_3_11(
    harness_factory: OpenHarness, monkeypatch: pytest.MonkeyPatch, max_events: int
) -> None:
    """docs/api-contract.md §3.11: excerpts of a few events stop between an `interaction_update` and its simplified
    frame sharing one id; the cursor must sit before that id, or the next excerpt (frames after it only) loses it."""
    world, agent_id, run = ended_run()
    assert_simplified_frames_share_ids(run)
    async with harness_factory(ended_run(Quirks())[0]) as plain:
        expected = shown(await read_all(plain, *_ids(plain.world)))
    monkeypatch.setattr(events_tool, "MAX_EVENTS", max_events)
    async with harness_factory(world) as h:
        events = await read_all(h, agent_id, run.id)
    assert shown(events) == expected
    assert expected[0] == TEXT + "Done: the change is committed on the agent's branch."
    ids = [key(event["id"]) for event in events]
    assert ids == sorted(ids)


def _ids(world: World) -> tuple[str, str]:
    agent = next(iter(world.agents.values()))
    return agent.id, agent.runs[-1].id


async def test_an_excerpt_cut_right_after_an_update_resumes_before_its_shared_id_contract_3_11(
    harness_factory: OpenHarness,
) -> None:
    """docs/api-contract.md §3.11: a connection cut just after an `interaction_update` whose `assistant` copy shares its
    id; the interrupted excerpt's cursor must let the next read get that copy."""
    world, agent_id, run = ended_run()
    timeline = run.timeline
    index = next(i for i, c in enumerate(timeline.chunks) if b"event: assistant" in c and b'"change "' in c)
    assert timeline.keys[index] == timeline.keys[index - 1]
    leading = len(encode_frame("status", {"runId": run.id, "status": "FINISHED"}))
    replay = len(timeline.slice(0, len(timeline)))  # an ended run's replay goes out as one chunk
    cut = len(f"{leading:x}\r\n") + leading + 2 + len(f"{replay:x}\r\n") + len(timeline.slice(0, index))
    faults = Faults()
    faults.inject("GET", "/v1/agents/*/runs/*/stream", Fault.cut_mid_body(after_bytes=cut), times=1)
    async with harness_factory(world, faults=faults) as h:
        first = (await h.call(TOOL, {"agent_id": agent_id, "run_id": run.id})).data
        second = await h.call(TOOL, {"agent_id": agent_id, "run_id": run.id, "after_event_id": first["last_event_id"]})
    assert first["interrupted"] is True
    text = "".join(e["text"] for e in first["events"] + second.data["events"] if e["type"] == "assistant")
    assert text.startswith(TEXT)


async def test_tail_of_a_replay_with_shared_ids_shows_the_same_events_as_without_contract_3_11(
    harness_factory: OpenHarness,
) -> None:
    """docs/api-contract.md §3.11: the tail walks the whole replay; shared ids change nothing in what it shows."""
    answers: list[dict[str, Any]] = []
    for quirks in (Quirks(), SHARED):
        world, agent_id, run = ended_run(quirks)
        async with harness_factory(world) as h:
            reply = await h.call(TOOL, {"agent_id": agent_id, "run_id": run.id, "tail": 30})
        assert not reply.is_error and reply.data["finished"] is True and reply.data["complete"] is True
        answers.append(reply.data)
    plain, shared = answers
    assert shown(shared["events"]) == shown(plain["events"])
    assert shared["events"][-1]["type"] == "result" and shared["last_event_id"] == plain["last_event_id"]


async def test_the_activity_summary_is_the_same_with_shared_ids_contract_3_11(harness_factory: OpenHarness) -> None:
    """docs/api-contract.md §3.11: `cursor_get_run` with activity folds the replay; shared ids change none of its
    fields."""
    summaries: list[dict[str, Any]] = []
    for quirks in (Quirks(), SHARED):
        world, agent_id, run = ended_run(quirks)
        async with harness_factory(world) as h:
            reply = await h.call("cursor_get_run", {"agent_id": agent_id, "run_id": run.id, "activity": True})
        assert not reply.is_error, reply.data
        summaries.append(reply.data["activity"])
    plain, shared = summaries
    assert shared == plain
    assert plain["complete"] is True
