"""`sdk/_messages.py`: stream events as Cursor's SDK types them."""

from __future__ import annotations

from cursor_cloud_agents.api import RawEvent, parse_event
from cursor_cloud_agents.sdk._messages import (
    AssistantMessage,
    MessageReader,
    StatusMessage,
    SummaryMessage,
    ToolCallMessage,
)


def read(reader: MessageReader, event: str, data: str, event_id: str | None = None) -> object:
    parsed = parse_event(RawEvent(event, data, event_id))
    assert parsed is not None
    return reader.read(parsed)


def test_a_status_is_said_once_until_it_changes_as_each_reconnection_repeats_it() -> None:
    reader = MessageReader("bc-a", "run-a")
    said = [read(reader, "status", f'{{"status": "{status}"}}') for status in ("RUNNING", "RUNNING", "FINISHED")]
    assert said == [StatusMessage("bc-a", "run-a", "RUNNING"), None, StatusMessage("bc-a", "run-a", "FINISHED")]
    assert read(reader, "result", '{"status": "FINISHED", "text": "done"}', "1-0") is None


def test_a_summary_is_running_then_completed_with_its_text() -> None:
    reader = MessageReader("bc-a", "run-a")
    started = read(reader, "interaction_update", '{"type": "summary-started"}', "1-0")
    text = read(reader, "interaction_update", '{"type": "summary", "summary": "Did the work."}', "1-1")
    done = read(reader, "interaction_update", '{"type": "summary-completed"}', "1-2")
    assert started == SummaryMessage("bc-a", "run-a", "running")
    assert text is None and done == SummaryMessage("bc-a", "run-a", "completed", "Did the work.")
    assert read(reader, "interaction_update", '{"type": "text-delta", "text": "twin"}', "1-3") is None


def test_tool_calls_say_when_cursor_left_a_part_out_and_text_pieces_keep_their_spaces() -> None:
    reader = MessageReader("bc-a", "run-a")
    call = read(
        reader, "tool_call", '{"callId": "c1", "name": "shell", "status": "completed", "truncated": {"result": true}}'
    )
    assert call == ToolCallMessage("bc-a", "run-a", "c1", "shell", "completed", None, None, True)
    assert read(reader, "assistant", '{"text": " and more"}') == AssistantMessage("bc-a", "run-a", " and more")
    assert read(reader, "heartbeat", "{}") is None
