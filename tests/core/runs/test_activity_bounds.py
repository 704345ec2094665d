"""An activity summary stays bounded, and readable, whatever the agent's stream puts in a tool call.

Tool contract 6 (every answer under the cap) and 7 (agent text is untrusted): a fleet row and a run's
activity carry the last tool's name and status and the background tasks' ids, all taken from the stream.
"""

from __future__ import annotations

import json

from cursor_cloud_agents.api import ActivityFold, RawEvent
from cursor_cloud_agents.core.runs.activity import NAME_CHARS, summary_of


def folded(*frames: tuple[str, object]) -> ActivityFold:
    fold = ActivityFold()
    for number, (kind, data) in enumerate(frames, start=1):
        fold(RawEvent(kind, json.dumps(data), f"{number}-0"))
    return fold


def test_a_tool_name_of_any_length_is_clipped_in_the_summary() -> None:
    fold = folded(("tool_call", {"callId": "c", "name": "n" * 100_000, "status": "s" * 100_000}))
    tool = summary_of(fold, complete=True).last_tool
    assert tool is not None and tool.name is not None and tool.status is not None
    assert len(tool.name) <= NAME_CHARS + 1 and len(tool.status) <= NAME_CHARS + 1


def test_a_tool_name_that_is_not_text_is_left_out_not_an_error() -> None:
    fold = folded(("tool_call", {"callId": "c", "name": 123, "status": {"x": 1}}))
    tool = summary_of(fold, complete=True).last_tool
    assert tool is not None and tool.name is None and tool.status is None


def test_a_background_task_id_of_any_length_is_clipped() -> None:
    launch = {
        "callId": "c1",
        "name": "run_terminal_cmd",
        "status": "completed",
        "args": {"command": "npm run dev", "isBackground": True},
        "result": {"success": {"shellId": "i" * 50_000}},
    }
    tasks = summary_of(folded(("tool_call", launch)), complete=True).background_tasks
    assert tasks is not None and tasks[0].task_id is not None and len(tasks[0].task_id) <= NAME_CHARS + 1


def test_a_stream_error_whose_code_is_not_short_text_is_bounded_or_left_out() -> None:
    for code, expected in ((404, None), ("c" * 10_000, "c" * NAME_CHARS + "…")):
        problem = summary_of(folded(("error", {"code": code, "message": "gone"})), complete=False).stream_error
        assert problem is not None and problem.code == expected
