"""The activity fold over a replay: assistant text merged, last tool call, background tasks and their await state."""

from __future__ import annotations

import json

import pytest

from cursor_cloud_agents.api import ActivityFold, RawEvent
from cursor_cloud_agents.api._frames import FrameDecoder
from tests.api.helpers import EXAMPLES

BACKGROUND = (EXAMPLES / "observed/stream-background-shell.2026-10-06.sse").read_bytes()


def _fold_blocks(data: bytes) -> ActivityFold:
    fold = ActivityFold()
    batch = FrameDecoder(1 << 20).feed_blocks(data)
    assert batch is not None
    fold.take_blocks(batch.blocks)
    return fold


def test_background_shell_and_its_await_state_are_found() -> None:
    """docs/api-contract.md quirk 18 (observed 2026-10-06): `run_terminal_cmd` + `isBackground`, then `await`
    stillRunning."""
    fold = _fold_blocks(BACKGROUND)
    task = fold.background_tasks["931367"]
    assert task.command == "bash ~/monitor.sh"
    assert task.last_await == "stillRunning"
    assert fold.last_tool_call == {"callId": "c2", "name": "await", "status": "completed"}
    assert fold.last_assistant_text == "Job still running, ending my turn."


def test_assistant_fragments_merge_until_a_tool_call() -> None:
    """docs/api-contract.md §3.11: `assistant` frames are deltas; the text since the last tool call is merged."""
    fold = ActivityFold()
    for text in ("Launching ", "the job."):
        fold(RawEvent("assistant", f'{{"text":"{text}"}}', "1-0"))
    assert fold.last_assistant_text == "Launching the job."
    fold(RawEvent("tool_call", '{"callId":"c","name":"read_file","status":"running"}', "2-0"))
    fold(RawEvent("assistant", '{"text":"Next."}', "3-0"))
    assert fold.last_assistant_text == "Next."


def test_summaries_and_bad_payloads() -> None:
    """Summary updates are kept (last 3); unusable payloads are skipped."""
    data = b"".join(
        b'id: %d-0\nevent: interaction_update\ndata: {"type": "summary", "summary": "s%d"}\n\n' % (i, i)
        for i in range(5)
    )
    fold = _fold_blocks(data + b"id: 9-0\nevent: assistant\ndata: {oops\n\nid: 9-1\nevent: tool_call\ndata: []\n\n")
    assert list(fold.summaries) == ["s2", "s3", "s4"]
    assert fold.last_tool_call is None


@pytest.mark.anyio
async def test_fold_and_per_event_path_agree() -> None:
    """The block path decodes only what it uses and reaches the same state as the per-event path."""
    slow = ActivityFold()
    for event in FrameDecoder(1 << 20).feed(BACKGROUND):
        slow(event)
    fast = _fold_blocks(BACKGROUND)
    assert (fast.last_assistant_text, fast.last_tool_call, fast.background_tasks) == (
        slow.last_assistant_text,
        slow.last_tool_call,
        slow.background_tasks,
    )


def test_thinking_closes_a_message_and_the_next_fragments_start_a_new_one() -> None:
    """docs/api-contract.md §3.11: assistant deltas between other frames belong to separate messages."""
    fold = _fold_blocks(
        b'id: 1-0\nevent: assistant\ndata: {"text":"First."}\n\n'
        b'id: 2-0\nevent: thinking\ndata: {"text":"hmm"}\n\n'
        b'id: 3-0\nevent: assistant\ndata: {"text":"Second "}\n\n'
        b'id: 4-0\nevent: assistant\ndata: {"text":"message."}\n\n'
    )
    assert fold.last_assistant_text == "Second message."


def test_a_launch_is_starting_until_its_shell_id_arrives() -> None:
    """docs/api-contract.md quirk 18: the running frame of a background command has no shell id yet."""
    fold = ActivityFold()
    launch = {"callId": "c1", "name": "run_terminal_cmd", "args": {"command": "make", "isBackground": True}}
    running = json.dumps(launch | {"status": "running"})
    fold(RawEvent("tool_call", running, "1-0"))
    assert [task.state for task in fold.background_tasks.values()] == ["starting"]
    done = json.dumps(launch | {"status": "completed", "result": {"success": {"shellId": "77"}}})
    fold(RawEvent("tool_call", done, "2-0"))
    assert [(task.task_id, task.state) for task in fold.background_tasks.values()] == [("77", "running")]
    poll = json.dumps(
        {
            "callId": "c2",
            "name": "await",
            "status": "completed",
            "args": {"taskId": "77"},
            "result": {"success": {"complete": {}}},
        }
    )
    fold(RawEvent("tool_call", poll, "3-0"))
    assert fold.background_tasks["77"].state == "complete"


def test_errors_results_summaries_and_the_last_id_are_noted() -> None:
    """docs/api-contract.md §3.11: an `error` frame is kept (not an end); `result`/`done` end; heartbeats carry no
    liveness."""
    fold = _fold_blocks(
        b'id: 5-0\nevent: interaction_update\ndata: {"type":"summary-started"}\n\n'
        b'id: 6-0\nevent: error\ndata: {"code":"stream_unavailable","message":"try later"}\n\n'
        b'id: 7-0\nevent: result\ndata: {"status":"FINISHED"}\n\n'
        b"id: 8-0\nevent: heartbeat\ndata: {}\n\n"
    )
    assert fold.summarized and not fold.summaries
    assert fold.error == {"code": "stream_unavailable", "message": "try later"}
    assert fold.finished and fold.frames == 4
    assert fold.last_event_id == "7-0"
