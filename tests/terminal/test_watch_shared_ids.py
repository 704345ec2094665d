"""`watch` when an `interaction_update` and its simplified frame share one id (docs/api-contract.md §3.11, inferred)."""

from __future__ import annotations

from typing import Any

import pytest

from cursor_cloud_agents.simulator import Fault, Faults, ManualClock, RunScript, World
from cursor_cloud_agents.simulator.quirks import Quirks
from cursor_cloud_agents.simulator.records import RunRecord
from cursor_cloud_agents.simulator.timeline import encode_frame
from cursor_cloud_agents.terminal.exits import OK
from cursor_cloud_agents.terminal.watch import watch
from tests.terminal.conftest import RigFactory

pytestmark = pytest.mark.anyio

TEXT = "I will read the code first. Then I change the parser! Does it pass? It does."
SENTENCES = ["I will read the code first.", "Then I change the parser!", "Does it pass?", "It does."]
SHARED = Quirks(simplified_frames_share_ids=True)


def ended_run(script: RunScript) -> tuple[World, str, RunRecord]:
    world = World(ManualClock(), quirks=SHARED)
    agent = world.add_agent("Fix the parser", script=script, created_ago=3600.0)
    return world, agent.id, agent.runs[-1]


def bytes_through_update_before(run: RunRecord, text: str) -> int:
    """The body bytes (as sent, chunked) through the `interaction_update` whose `assistant` copy (same id) says
    `text`."""
    timeline = run.timeline
    index = next(
        i for i, chunk in enumerate(timeline.chunks) if b"event: assistant" in chunk and text.encode() in chunk
    )
    assert timeline.keys[index] == timeline.keys[index - 1] and b"interaction_update" in timeline.chunks[index - 1]
    leading = len(encode_frame("status", {"runId": run.id, "status": "FINISHED"}))
    replay = len(timeline.slice(0, len(timeline)))  # an ended run's replay goes out as one chunk
    chunked = len(f"{leading:x}\r\n") + leading + 2 + len(f"{replay:x}\r\n")  # the body is sent chunked
    return chunked + len(timeline.slice(0, index))


async def watched_documents(rig_factory: RigFactory, faults: Faults | None) -> tuple[list[Any], int]:
    """`watch --json` of a fresh copy of the ended run: its event lines that carry an id, and how often it resumed."""
    world, agent_id, run = ended_run(RunScript(text=TEXT, running_seconds=60.0))
    async with rig_factory(world, faults=faults, json_output=True) as rig:
        code = await rig.drive(watch(rig.term, agent_id=agent_id, run_id=run.id), step=2.0)
        documents = rig.documents()
    assert code == OK
    resumed = sum(document["type"] == "resumed" for document in documents)
    return [document for document in documents if document.get("id")], resumed


async def test_watch_cut_between_an_update_and_its_shared_id_frame_shows_every_event_once_contract_3_11(
    rig_factory: RigFactory,
) -> None:
    """docs/api-contract.md §3.11: the stream cut right after an `interaction_update` whose `assistant` copy shares its
    id; resuming after that id would lose the copy (the API sends only later ids), so `watch` resumes before it and
    shows the same events, each once, as a watch without the cut."""
    _, _, run = ended_run(RunScript(text=TEXT, running_seconds=60.0))
    faults = Faults()
    cut = bytes_through_update_before(run, "change ")
    faults.inject("GET", "/v1/agents/*/runs/*/stream", Fault.cut_mid_body(after_bytes=cut), times=1)
    whole, _ = await watched_documents(rig_factory, None)
    resumed, resumptions = await watched_documents(rig_factory, faults)
    assert resumptions == 1
    assert resumed == whole
    assert "".join(d["text"] for d in resumed if d["type"] == "assistant").startswith(TEXT)
