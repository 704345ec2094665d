"""The terminal's exit statuses (`terminal/exits.py`): 2 for what the person changes, 1 for what Cursor refused."""

from __future__ import annotations

from cursor_cloud_agents.api import NotFoundError
from cursor_cloud_agents.core import ToolFailure, failures
from cursor_cloud_agents.terminal.exits import REFUSED, USAGE, exit_code, failure_of


def test_a_failure_the_person_fixes_exits_2_and_one_from_cursor_exits_1() -> None:
    assert exit_code(ToolFailure(failures.VALIDATION, "bad")) == USAGE
    assert exit_code(ToolFailure(failures.LIMIT_REACHED, "full")) == USAGE
    assert exit_code(ToolFailure(failures.MUTATION_OUTCOME_UNKNOWN, "lost")) == REFUSED


def test_an_api_error_becomes_the_servers_failure_and_a_failure_stays_itself() -> None:
    own = ToolFailure(failures.VALIDATION, "bad")
    assert failure_of(own) is own
    assert failure_of(NotFoundError("no such agent", status_code=404)).code == "NOT_FOUND"
