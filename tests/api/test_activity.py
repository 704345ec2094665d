"""The activity fold over a replay: assistant text merged, last tool call, background tasks and their await state."""

from __future__ import annotations

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
    """CONTRACT.md quirk 18 (observed 2026-10-06): `run_terminal_cmd` + `isBackground`, then `await` stillRunning."""
    fold = _fold_blocks(BACKGROUND)
    task = fold.background_tasks["931367"]
    assert task.command == "bash ~/monitor.sh"
    assert task.last_await == "stillRunning"
    assert fold.last_tool_call == {"callId": "c2", "name": "await", "status": "completed"}
    assert fold.last_assistant_text == "Job still running, ending my turn."


def test_assistant_fragments_merge_until_a_tool_call() -> None:
    """CONTRACT.md §3.11: `assistant` frames are deltas; the text since the last tool call is merged."""
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
