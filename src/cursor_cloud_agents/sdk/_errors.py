"""The SDK's errors: Cursor's Python SDK class tree, each also the product's `ToolFailure`, said in the SDK's words.

A program written for Cursor's `cursor-sdk` catches `AuthenticationError`, `AgentNotFoundError`, `AgentBusyError`,
`RateLimitError`... under `CursorAgentError`; one written for this SDK catches `ToolFailure` and reads its `code`.
Every error raised here is both: a class of Cursor's tree (the same names, the same bases) that is a `ToolFailure`
with the product's stable code (`Code`) and its context.

The messages are this face's own. The core's failures name what to do next for the MCP server's model (a tool
name, an argument of a tool) or a setting of the server's environment; a program has methods and arguments
instead. Everything a program reads passes through `rendered` here (the one module of the SDK that words
failures), which says the API's refusals in the SDK's words and replaces what is left of another face's words
(`PHRASES`). Secrets are masked in every message and context value.
"""

from __future__ import annotations

import re
from collections.abc import Generator, Mapping
from contextlib import contextmanager
from typing import Any

from cursor_cloud_agents.api import CursorError
from cursor_cloud_agents.api import errors as api
from cursor_cloud_agents.config import ConfigError
from cursor_cloud_agents.core import Code, ToolFailure, from_api_error
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.sdk._words import for_program


class CursorAgentError(ToolFailure):
    """The base of every error this SDK raises (Cursor's SDK names its base so); a `ToolFailure` with a `code`.

    Attributes:
        code: The product's stable code (`Code.AUTHENTICATION`, `Code.NOT_FOUND`...), as the MCP server and the
            terminal answer it.
        message: What happened and what to change, in the SDK's words.
        context: The ids and facts of the failure (`agent_id`, `http_status`, `retry_after_seconds`...).
    """

    default_code: str = Code.INTERNAL

    def __init__(self, message: str, *, code: str | None = None, **context: Any) -> None:
        super().__init__(code or self.default_code, message, **context)

    @property
    def status(self) -> int | None:
        """The HTTP status Cursor answered, when it answered one."""
        value = self.context.get("http_status")
        return value if isinstance(value, int) else None

    status_code = status

    @property
    def request_id(self) -> str | None:
        """Cursor's id of the request, for its support."""
        value = self.context.get("request_id")
        return value if isinstance(value, str) else None

    @property
    def retry_after(self) -> str | None:
        """Seconds to wait before asking again, when Cursor said (a string, as Cursor's SDK has it)."""
        value = self.context.get("retry_after_seconds")
        return None if value is None else f"{value:g}" if isinstance(value, float | int) else str(value)

    @property
    def is_retryable(self) -> bool:
        """Whether the same call may succeed later unchanged (a rate limit, Cursor failing, the network)."""
        return self.code in _RETRYABLE

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r}, code={str(self.code)!r}, status={self.status!r})"


class CursorSDKError(CursorAgentError):
    """The parent of every specific error (as in Cursor's SDK, where it keeps older programs working)."""


class AuthenticationError(CursorSDKError):
    """Cursor refused the API key."""

    default_code = Code.AUTHENTICATION


class PermissionDeniedError(CursorSDKError):
    """Cursor refused this for this key or plan (or an artifact URL off the allowed hosts)."""

    default_code = Code.PERMISSION_DENIED


class RateLimitError(CursorSDKError):
    """Cursor's rate or usage limit, the limits of this machine (new agents, spend), or too many agents at once."""

    default_code = Code.QUOTA


class ConfigurationError(CursorSDKError):
    """A setting or the account cannot do this: no usable key, a bad setting, a key or team Cursor refuses."""

    default_code = Code.CONFIGURATION


class IntegrationNotConnectedError(ConfigurationError):
    """An integration (GitHub...) is not connected to the account. Kept for code written for Cursor's SDK: the REST
    API says this as a refusal of the repository, raised here as `BadRequestError` or `PermissionDeniedError`."""

    def __init__(self, message: str, *, provider: str = "", help_url: str = "", **context: Any) -> None:
        super().__init__(message, **context)
        self.provider = provider
        self.help_url = help_url


class SettingsError(ConfigurationError, ConfigError):
    """A setting of a `Cursor` cannot be used (also the product's `ConfigError`); the message names it."""


class AgentBusyError(CursorSDKError):
    """A run of the agent is still active: wait for it (`run.wait()`) or cancel it (`run.cancel()`) first."""

    default_code = Code.AGENT_BUSY


class BadRequestError(CursorSDKError):
    """An argument was refused (by this SDK before anything was sent, or by Cursor); the message names it."""

    default_code = Code.VALIDATION


class NetworkError(CursorSDKError):
    """Cursor could not be reached, or its answer was lost (the outcome of a paid act then stays unknown)."""

    default_code = Code.UPSTREAM


class APITimeoutError(NetworkError):
    """A call did not finish within its time (`run.wait(timeout=...)`, a read's budget)."""

    default_code = Code.TIMEOUT


class InternalServerError(CursorSDKError):
    """Cursor failed, or answered outside its contract."""

    default_code = Code.UPSTREAM


class NotFoundError(CursorSDKError):
    """No such run, artifact or group."""

    default_code = Code.NOT_FOUND


class AgentNotFoundError(NotFoundError):
    """No such agent (for this key)."""


class UnsupportedRunOperationError(ConfigurationError):
    """An operation this run or this SDK does not have (a local agent's, or one Cursor's REST API lacks)."""

    default_code = Code.VALIDATION

    def __init__(self, operation: str, message: str | None = None, **context: Any) -> None:
        super().__init__(message or f"Run operation {operation!r} is not supported.", **context)
        self.operation = operation


_RETRYABLE = frozenset({Code.QUOTA, Code.UPSTREAM, Code.TIMEOUT, Code.CAPACITY})

_CLASSES: Mapping[str, type[CursorSDKError]] = {
    Code.AUTHENTICATION: AuthenticationError,
    Code.PERMISSION_DENIED: PermissionDeniedError,
    Code.ARTIFACT_URL_REFUSED: PermissionDeniedError,
    Code.QUOTA: RateLimitError,
    Code.LIMIT_REACHED: RateLimitError,
    Code.CAPACITY: RateLimitError,
    Code.CONFIGURATION: ConfigurationError,
    Code.CONFIGURATION_MISSING: ConfigurationError,
    Code.AGENT_BUSY: AgentBusyError,
    Code.VALIDATION: BadRequestError,
    Code.CONFLICT: BadRequestError,
    Code.CONTINUATION_REFUSED: BadRequestError,
    Code.CURSOR_EXPIRED: BadRequestError,
    Code.TIMEOUT: APITimeoutError,
    Code.NETWORK: NetworkError,
    Code.MUTATION_OUTCOME_UNKNOWN: NetworkError,
    Code.CREATION_IN_FLIGHT: NetworkError,
    Code.FOLLOWUP_IN_FLIGHT: NetworkError,
    Code.STREAM_EXPIRED: NotFoundError,
    Code.NOT_FOUND: NotFoundError,
}
"""Each code's class in Cursor's tree; UPSTREAM is told apart below (no HTTP answer: the network)."""


def error_class(code: str, context: Mapping[str, Any], missing: type[NotFoundError]) -> type[CursorSDKError]:
    """The class of Cursor's tree for a failure `code`; `missing` is the class of NOT_FOUND in this call."""
    if code == Code.NOT_FOUND:
        return missing
    if code == Code.UPSTREAM:
        return InternalServerError if isinstance(context.get("http_status"), int) else NetworkError
    return _CLASSES.get(code, CursorSDKError)


# --- the SDK's words ------------------------------------------------------------------------------------------

_API_ADVICE: list[tuple[type[api.CursorError], str]] = [
    (api.AgentBusyError, "A run of this agent is still active: wait for it (run.wait()) or cancel it (run.cancel())."),
    (api.StreamExpiredError, "The run's stream is past its retention: run.wait() still reads its result."),
    (api.CursorExpiredError, "The list cursor expired: list again without cursor= to start from the first page."),
    (
        api.AccountSetupError,
        "The API key or team cannot do this: use a user API key (Cursor(api_key=...)) or check team_id=.",
    ),
    (api.AuthenticationError, "Cursor refused the API key: pass a valid one as Cursor(api_key=...)."),
    (api.PermissionDeniedError, "Cursor refused this for this key or plan."),
    (api.NotFoundError, "Check the id: Agent.list() and agent.list_runs() list the valid ones."),
    (api.ConflictError, "The agent's state does not allow this now: read it again (Agent.get(agent_id))."),
    (api.BadRequestError, "Cursor refused the request as invalid: correct it before calling again."),
    (api.ServerError, "Cursor failed: a read can be called again later."),
    (api.ConfigurationMissingError, "Pass Cursor(api_key=...) or set CURSOR_API_KEY, or try Cursor(simulated=True)."),
    (api.DeadlineTooShortError, "Nothing was sent: call again."),
    (api.APIConnectionError, "Nothing was sent: call again later."),
]

PHRASES: list[tuple[str, str]] = [
    (r"cursor_get_run with wait_seconds", "run.wait()"),
    (r"cursor_get_run", "Agent.get_run(run_id, agent_id=...)"),
    (r"cursor_wait(?: with agent_id and run_id)?", "run.wait()"),
    (r"cursor_get_agent", "Agent.get(agent_id)"),
    (r"cursor_list_agents\(name=[^)]*\)", "Agent.list()"),
    (r"cursor_list_agents with its name", "Agent.list()"),
    (r"cursor_list_agents", "Agent.list()"),
    (r"cursor_list_runs", "agent.list_runs()"),
    (r"cursor_list_models", "Cursor.models.list()"),
    (r"cursor_list_repositories", "Cursor.repositories.list()"),
    (r"cursor_archive_agent with unarchive=true", "Agent.unarchive(agent_id)"),
    (r"cursor_archive_agent", "Agent.archive(agent_id)"),
    (r"cursor_compare", "group.compare()"),
    (r"cursor_keep", "group.keep(agent_id)"),
    (r"follow up with replace_active=true to cancel it first", "cancel it first (run.cancel())"),
    (r"or follow up with replace_active=true[^.;)]*", "or cancel it first (run.cancel())"),
    (r"replace_active=true", "run.cancel() first"),
    (r"CURSOR_API_KEY is not set in the MCP server's environment", "no API key was given"),
    (r"in the MCP server's environment", "as Cursor(api_key=...)"),
    (r",? ?then restart the client", ""),
    (r"omit agent_id and model_id", "pass no agent_id and no model"),
    (r"reasoning_level and model_params need model_id", "model_params needs model"),
    (r"attempts takes (\d+) to (\d+) model choices", r"models takes \1 to \2 models"),
    (r"attempts\[(\d+)\]:", r"attempt \1 (models, counted from 1):"),
    (r"CURSOR_MCP_MAX_NEW_AGENTS=([0-9.]+)", r"max_new_agents=\1 (CURSOR_MCP_MAX_NEW_AGENTS)"),
    (r"CURSOR_MCP_MAX_SPEND_CENTS=([0-9.]+)", r"max_spend_cents=\1 (CURSOR_MCP_MAX_SPEND_CENTS)"),
    (r"CURSOR_MCP_MAX_ACTIVE_AGENTS=([0-9.]+)", r"max_active_agents=\1 (CURSOR_MCP_MAX_ACTIVE_AGENTS)"),
    (r"cursor_[a-z_]+", "the matching SDK call"),
    (r"\bMCP server\b", "program"),
]
"""Another face's words still in a core failure, and the SDK's for them (the last two catch what the table lacks)."""

_COMPILED = [(re.compile(pattern), words) for pattern, words in PHRASES]


def in_sdk_words(message: str) -> str:
    """`message` with every tool name and server setting advice replaced by the SDK's call or argument."""
    for pattern, words in _COMPILED:
        message = pattern.sub(words, message)
    return message


def _api_message(error: CursorError) -> str:
    if isinstance(error, api.MutationOutcomeUnknownError):
        ctx = error.context
        return (
            f"{ctx.method} {ctx.path} may or may not have taken effect ({error.message}). Read the agent before "
            "sending again: Agent.get(agent_id) with the id in this error's context (calling the same send again "
            "is safe: it is never paid twice)."
        )
    for kind, advice in _API_ADVICE:
        if isinstance(error, kind):
            if isinstance(error, api.RateLimitError | api.ConcurrencyLimitError):
                break
            return f"{error.message.rstrip('.')}. {advice}"
    return ""


def rendered(failure: ToolFailure, redactor: Redactor, missing: type[NotFoundError] = NotFoundError) -> CursorSDKError:
    """`failure` as the class of Cursor's tree for its code, in the SDK's words, secrets masked."""
    if isinstance(failure, CursorSDKError) and failure.message == in_sdk_words(failure.message):
        return masked(failure, redactor)
    kind = error_class(failure.code, failure.context, missing)
    made = kind(in_sdk_words(for_program(failure)), code=failure.code, **failure.context)
    return masked(made, redactor)


def masked(failure: CursorSDKError, redactor: Redactor) -> CursorSDKError:
    """`failure` with every secret masked in its message and context (the same class and code)."""
    context = {key: redactor.mask(value) if isinstance(value, str) else value for key, value in failure.context.items()}
    message = redactor.mask(failure.message)
    if isinstance(failure, UnsupportedRunOperationError):
        return UnsupportedRunOperationError(failure.operation, message, code=failure.code, **context)
    return type(failure)(message, code=failure.code, **context)


def from_api(error: CursorError, redactor: Redactor, missing: type[NotFoundError] = NotFoundError) -> CursorSDKError:
    """The SDK's error for an exception of the API client: the core's code and context, the SDK's words."""
    failure = from_api_error(error)
    own = _api_message(error)
    if own:
        failure = ToolFailure(failure.code, own, advice=failure.advice, **failure.context)
    return rendered(failure, redactor, missing)


def refused(message: str) -> BadRequestError:
    """An argument refused by the SDK before anything was sent."""
    return BadRequestError(message.rstrip() + " Nothing was sent.")


@contextmanager
def translated(redactor: Redactor, missing: type[NotFoundError] = NotFoundError) -> Generator[None]:
    """Raise what the block raised as the SDK's error (Cursor's class tree, the product's code), secrets masked.

    `missing` is the class a NOT_FOUND takes in this call (`AgentNotFoundError` where an agent was asked for)."""
    try:
        yield
    except ToolFailure as failure:
        raise rendered(failure, redactor, missing) from None
    except CursorError as error:
        raise from_api(error, redactor, missing) from None
    except ValueError as error:  # the client's checks of ids and paths, before anything is built or sent
        if isinstance(error, ConfigError):
            raise
        raise BadRequestError(redactor.mask(f"{error}. Nothing was sent.")) from error
