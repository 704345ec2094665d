"""The failures a model reads (`core/failures.py`): each API error named with what to do, nothing left as a trace."""

from __future__ import annotations

from cursor_cloud_agents.api import APIConnectionError, ConfigurationMissingError, NotFoundError
from cursor_cloud_agents.core.failures import CONFIGURATION_MISSING, Code, ToolFailure, from_api_error, store_unusable


def test_a_failure_keeps_only_the_context_that_has_a_value() -> None:
    failure = ToolFailure(Code.VALIDATION, "bad name", field="name", hint=None)
    assert (failure.code, failure.message, failure.context) == (Code.VALIDATION, "bad name", {"field": "name"})


def test_a_network_failure_says_nothing_was_sent_so_retrying_is_safe() -> None:
    failure = from_api_error(APIConnectionError("connection refused"))
    assert failure.code == Code.NETWORK and "nothing was sent" in failure.message


def test_a_missing_key_and_a_missing_agent_keep_their_own_codes() -> None:
    assert from_api_error(ConfigurationMissingError("no key")).code == CONFIGURATION_MISSING
    assert from_api_error(NotFoundError("gone", status_code=404)).code == "NOT_FOUND"


def test_an_unusable_store_refuses_paid_acts_and_names_the_variable_to_change() -> None:
    failure = store_unusable("the folder is read-only")
    assert failure.message.startswith("Nothing was sent: the folder is read-only.")
    assert failure.context == {"variable": "CURSOR_MCP_STATE_DIR"}
