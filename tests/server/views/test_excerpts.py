"""The cursor a `tail` hands back never skips a frame that may still come (docs/api-contract.md §3.11, inferred: an
`interaction_update` and the simplified frame repeating it share one id, and a resume gets only later ids)."""

from __future__ import annotations

from cursor_cloud_agents.api import RawEvent
from cursor_cloud_agents.server.views.excerpts import Tail


def walked(*frames: RawEvent) -> Tail:
    tail = Tail(20)
    for frame in frames:
        tail(frame)
    return tail


def test_a_walk_that_stopped_after_an_update_whose_copy_has_not_come_resumes_before_its_id() -> None:
    tail = walked(
        RawEvent("assistant", '{"text":"Reading."}', "100-0"),
        RawEvent("interaction_update", '{"type":"text-delta","text":" Then"}', "101-0"),
    )
    assert tail.last_event_id == "101-0" and tail.resume_id() == "100-0"


def test_a_walk_that_saw_the_copy_or_another_update_resumes_after_the_last_id() -> None:
    copied = walked(
        RawEvent("interaction_update", '{"type":"text-delta","text":" Then"}', "101-0"),
        RawEvent("assistant", '{"text":" Then"}', "101-0"),
    )
    summary = walked(
        RawEvent("assistant", '{"text":"Reading."}', "100-0"),
        RawEvent("interaction_update", '{"type":"summary","summary":"..."}', "101-0"),
    )
    assert copied.resume_id() == "101-0" and summary.resume_id() == "101-0"
