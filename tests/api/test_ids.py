"""Ids checked whole before they reach a path (`api/ids.py`): a trailing `/../x` or `?q` is never an id."""

from __future__ import annotations

import pytest

from cursor_cloud_agents.api import ids

AGENT = "bc-0f8fad5b-d9cb-469f-a165-70867728950e"


def test_an_agent_id_is_checked_whole_and_lowercased() -> None:
    assert ids.agent_id(AGENT.upper().replace("BC-", "bc-")) == AGENT
    assert ids.run_id("run-" + AGENT.removeprefix("bc-")) == "run-" + AGENT.removeprefix("bc-")


@pytest.mark.parametrize("value", [AGENT + "/../x", AGENT + "?q=1", " " + AGENT, "run-" + AGENT[3:] + "0", ""])
def test_an_id_with_anything_around_it_is_refused_by_name(value: str) -> None:
    with pytest.raises(ValueError, match="not a valid agent id"):
        ids.agent_id(value)


def test_a_minted_agent_id_is_a_valid_one_and_new_each_time() -> None:
    first, second = ids.mint_agent_id(), ids.mint_agent_id()
    assert ids.agent_id(first) == first and first != second


@pytest.mark.parametrize(
    ("value", "parsed"), [("1764841033080-7", (1764841033080, 7)), ("7", None), ("a-1", None), (None, None)]
)
def test_a_stream_event_id_splits_into_milliseconds_and_sequence_or_is_no_id(
    value: str | None, parsed: tuple[int, int] | None
) -> None:
    assert ids.parse_event_id(value) == parsed
