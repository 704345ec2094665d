"""The SDK's errors (`sdk/_errors.py`): Cursor's class tree, the product's codes, the SDK's own words."""

from __future__ import annotations

import re

import pytest

from cursor_cloud_agents.api import errors as api
from cursor_cloud_agents.config import ConfigError
from cursor_cloud_agents.core import Code, ToolFailure, busy, from_api_error
from cursor_cloud_agents.core import failures as core_failures
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.sdk import (
    Agent,
    AgentBusyError,
    AgentNotFoundError,
    APITimeoutError,
    AuthenticationError,
    BadRequestError,
    ConfigurationError,
    Cursor,
    CursorAgentError,
    CursorSDKError,
    IntegrationNotConnectedError,
    InternalServerError,
    NetworkError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    SettingsError,
    UnsupportedRunOperationError,
)
from cursor_cloud_agents.sdk._errors import PHRASES, from_api, rendered

CURSOR_SDK_TREE: dict[type[Exception], type[Exception]] = {
    CursorSDKError: CursorAgentError,
    AuthenticationError: CursorSDKError,
    PermissionDeniedError: CursorSDKError,
    RateLimitError: CursorSDKError,
    ConfigurationError: CursorSDKError,
    AgentBusyError: CursorSDKError,
    BadRequestError: CursorSDKError,
    IntegrationNotConnectedError: ConfigurationError,
    NetworkError: CursorSDKError,
    APITimeoutError: NetworkError,
    InternalServerError: CursorSDKError,
    NotFoundError: CursorSDKError,
    AgentNotFoundError: NotFoundError,
    UnsupportedRunOperationError: ConfigurationError,
}
"""Each class of `cursor_sdk.errors` (1.1.0) and its direct base there, written down from its public names."""

OTHER_FACES = re.compile(r"cursor_[a-z_]+|\bMCP\b|replace_active|wait_seconds|model_id|restart the client")


def test_the_error_classes_have_cursor_sdks_names_and_bases_and_are_tool_failures_k_45() -> None:
    """K-45: every class of Cursor's error tree is here under its name, with its base there, and each is also the
    product's `ToolFailure` (a program catching either finds it)."""
    for kind, base in CURSOR_SDK_TREE.items():
        assert base in kind.__mro__[1:], kind
        assert issubclass(kind, ToolFailure)
    assert issubclass(CursorAgentError, Exception) and CursorAgentError.__bases__ == (ToolFailure,)


REDACTOR = Redactor([])


def _api_error(kind: type[api.APIStatusError], status: int, code: str) -> api.APIStatusError:
    return kind("refused", status_code=status, code=code)


@pytest.mark.parametrize(
    ("error", "expected", "code"),
    [
        (_api_error(api.AuthenticationError, 401, "unauthorized"), AuthenticationError, Code.AUTHENTICATION),
        (_api_error(api.PermissionDeniedError, 403, "forbidden"), PermissionDeniedError, Code.PERMISSION_DENIED),
        (_api_error(api.NotFoundError, 404, "not_found"), AgentNotFoundError, Code.NOT_FOUND),
        (_api_error(api.AgentBusyError, 409, "agent_busy"), AgentBusyError, Code.AGENT_BUSY),
        (_api_error(api.BadRequestError, 400, "invalid"), BadRequestError, Code.VALIDATION),
        (api.RateLimitError("slow down", code="rate_limited", retry_after=3.0), RateLimitError, Code.QUOTA),
        (api.ServerError("boom", status_code=503), InternalServerError, Code.UPSTREAM),
        (api.APIConnectionError("could not connect"), NetworkError, Code.NETWORK),
        (api.ConfigurationMissingError("no key"), ConfigurationError, Code.CONFIGURATION_MISSING),
        (
            api.MutationOutcomeUnknownError(
                "answer lost", context=api.MutationContext("POST", "/v1/agents", {"agent_id": "bc-x"})
            ),
            NetworkError,
            Code.MUTATION_OUTCOME_UNKNOWN,
        ),
    ],
)
def test_each_api_failure_is_its_cursor_sdk_class_with_the_products_code_k_46(
    error: api.CursorError, expected: type[CursorSDKError], code: str
) -> None:
    """K-46: a refusal of the API is raised as the class Cursor's SDK raises for it (a missing agent where an agent
    was asked for: `AgentNotFoundError`), keeping the product's code and context."""
    raised = from_api(error, REDACTOR, AgentNotFoundError)
    assert type(raised) is expected and raised.code == code
    assert not OTHER_FACES.search(raised.message), raised.message
    if isinstance(error, api.RateLimitError):
        assert raised.retry_after == "3" and raised.is_retryable and raised.status == 429


def _core_failures() -> list[ToolFailure]:
    """Failures the core words for the MCP server's model, one of each kind the SDK meets."""
    made = [from_api_error(kind("refused", status_code=status)) for kind, status in _STATUS_CLASSES]
    made += [
        busy("run-1", "A run of this agent is still active."),
        ToolFailure(Code.VALIDATION, "Unknown model 'x': cursor_list_models lists the ids and aliases."),
        ToolFailure(Code.VALIDATION, "reasoning_level and model_params need model_id."),
        ToolFailure(Code.CAPACITY, "Too many agents; nothing was sent. Wait for a running agent to end (cursor_wait)."),
        ToolFailure(Code.CONTINUATION_REFUSED, "unarchive it first (cursor_archive_agent with unarchive=true)"),
        ToolFailure(Code.CONFIGURATION_MISSING, "CURSOR_API_KEY is not set in the MCP server's environment"),
        core_failures.store_unusable("the folder is read-only"),
    ]
    return made


_STATUS_CLASSES: list[tuple[type[api.APIStatusError], int]] = [
    (api.AuthenticationError, 401),
    (api.PermissionDeniedError, 403),
    (api.NotFoundError, 404),
    (api.AgentBusyError, 409),
    (api.ConflictError, 409),
    (api.StreamExpiredError, 410),
    (api.CursorExpiredError, 400),
    (api.AccountSetupError, 400),
    (api.BadRequestError, 400),
]


@pytest.mark.parametrize("failure", _core_failures(), ids=lambda failure: f"{failure.code}")
def test_no_failure_reaches_a_program_in_another_faces_words_k_47(failure: ToolFailure) -> None:
    """K-47: every core failure a program meets is said in the SDK's words: no MCP tool name, tool argument or
    advice about the server's environment (those of the MCP face) is left in the message."""
    said = rendered(failure, REDACTOR)
    assert isinstance(said, CursorSDKError) and said.code == failure.code
    assert not OTHER_FACES.search(said.message), said.message


def test_the_busy_refusal_names_the_sdks_calls_k_47() -> None:
    said = rendered(busy("run-1", "A run of this agent is still active."), REDACTOR).message
    assert "run.wait()" in said and "run.cancel()" in said
    assert all(re.compile(pattern) for pattern, _ in PHRASES)


def test_a_limit_is_named_by_its_argument_beside_its_variable_k_47() -> None:
    with Cursor(simulated=True, max_new_agents=0) as cursor:
        with pytest.raises(RateLimitError) as refused:
            Agent.create(client=cursor).send("Anything")
    assert "max_new_agents=0 (CURSOR_MCP_MAX_NEW_AGENTS)" in refused.value.message


def test_a_missing_or_unusable_key_names_the_argument_not_the_servers_environment_k_48(
    monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    """K-48: a connection without a usable key says to pass `Cursor(api_key=...)` (or set the variable), in the
    SDK's words, as a `ConfigurationError` raised when it opens, before any request."""
    for name in ("CURSOR_API_KEY", "CURSOR_API_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    for key in (None, "", "${CURSOR_API_KEY}", "Bearer key_x"):
        with pytest.raises(ConfigurationError) as refused:
            Cursor(api_key=key, base_url="http://127.0.0.1:9", state_dir="memory")
        message = refused.value.message
        assert "Cursor(api_key=...)" in message and not OTHER_FACES.search(message), message


def test_a_bad_setting_is_a_configuration_error_and_the_products_config_error_k_59() -> None:
    """K-59: a setting that cannot be used raises `SettingsError`: Cursor's `ConfigurationError` and the product's
    `ConfigError` at once, naming the variable and its argument."""
    with pytest.raises(SettingsError) as refused:
        Cursor(simulated=True, max_new_agents=-3)
    assert isinstance(refused.value, ConfigurationError) and isinstance(refused.value, ConfigError)
    assert "CURSOR_MCP_MAX_NEW_AGENTS" in str(refused.value)
