"""The one way a run's end is said (issue 32): `FINISHED after 3h 2m` in tools, commands and events."""

from __future__ import annotations

import pytest

from cursor_cloud_agents.api import Run
from cursor_cloud_agents.core.runs.elapsed import duration, end_line


@pytest.mark.parametrize(
    ("seconds", "said"),
    [
        (0, "0s"),
        (42.9, "42s"),
        (60, "1m"),
        (303, "5m 3s"),
        (3 * 3600 + 2 * 60 + 9, "3h 2m"),
        (4 * 86_400 + 3600, "4d 1h"),
    ],
)
def test_a_duration_is_said_in_its_two_largest_units(seconds: float, said: str) -> None:
    """Issue 32: the second unit is left out when zero; seconds are never rounded up."""
    assert duration(seconds) == said


def test_an_ended_run_says_its_status_and_how_long_it_took() -> None:
    """Issue 32: from the run's own duration, else from its creation to its last update; the status alone when
    neither is known."""
    timed = Run.model_validate({"id": "run-1", "status": "FINISHED", "durationMs": 10_920_000})
    dated = Run.model_validate(
        {"id": "run-2", "status": "ERROR", "createdAt": "2026-12-03T08:00:00Z", "updatedAt": "2026-12-03T08:05:03Z"}
    )
    bare = Run.model_validate({"id": "run-3", "status": "CANCELLED"})
    assert [end_line(run) for run in (timed, dated, bare)] == ["FINISHED after 3h 2m", "ERROR after 5m 3s", "CANCELLED"]
