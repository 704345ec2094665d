"""The API's times (`api/times.py`): ISO-8601 UTC on the wire, epoch seconds in code, unreadable as absent."""

from __future__ import annotations

import pytest

from cursor_cloud_agents.api.times import epoch, iso


def test_a_time_read_from_the_wire_and_written_back_is_the_same_text() -> None:
    text = "2026-12-01T09:37:13.080Z"
    assert iso(epoch(text) or 0.0, "milliseconds") == text
    assert iso(0.0) == "1970-01-01T00:00:00Z"


@pytest.mark.parametrize("text", [None, "", "yesterday", "2026-13-01T00:00:00Z"])
def test_a_missing_or_unreadable_time_is_none_not_an_error(text: str | None) -> None:
    assert epoch(text) is None
