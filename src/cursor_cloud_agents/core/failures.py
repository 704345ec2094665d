"""The errors a tool reports to the calling model, and the one map from client exceptions to them.

A failure is a stable JSON object `{code, message, ...context}` returned as an `isError` result.
The codes are the reference server's, so a model or a user switching servers reads the same
vocabulary; messages say what to do next. Only a bug in our own code becomes a generic internal
error (its traceback goes to stderr, never to the model).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cursor_cloud_agents.api import errors as api

# Codes the toolkit itself produces (the others come from `from_api_error` or from tools).
READ_ONLY = "READ_ONLY"
DELETE_DISABLED = "DELETE_DISABLED"
CONFIRMATION_REQUIRED = "CONFIRMATION_REQUIRED"
VALIDATION = "VALIDATION"
TIMEOUT = "TIMEOUT"
RESULT_TOO_LARGE = "RESULT_TOO_LARGE"
CONFIGURATION_MISSING = "CONFIGURATION_MISSING"
MUTATION_OUTCOME_UNKNOWN = "MUTATION_OUTCOME_UNKNOWN"
CREATION_IN_FLIGHT = "CREATION_IN_FLIGHT"
FOLLOWUP_IN_FLIGHT = "FOLLOWUP_IN_FLIGHT"
LIMIT_REACHED = "LIMIT_REACHED"
CURSOR_EXPIRED = "CURSOR_EXPIRED"
CONFIGURATION = "CONFIGURATION"
CAPACITY = "CAPACITY"
DECLINED = "DECLINED"
INTERNAL = "INTERNAL"


class ToolFailure(Exception):
    """An expected failure, reported to the model as `{code, message, ...context}` with isError set."""

    def __init__(self, code: str, message: str, **context: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.context = {key: value for key, value in context.items() if value is not None}

    def with_ids(self, ids: Mapping[str, str]) -> ToolFailure:
        """This failure with the call's known ids added (its own context wins)."""
        self.context = {**ids, **self.context}
        return self

    def payload(self) -> dict[str, Any]:
        """The JSON object the model reads."""
        return {"code": self.code, "message": self.message, **self.context}


def _upstream(exc: api.CursorError) -> dict[str, Any]:
    context: dict[str, Any] = {"request_id": exc.request_id}
    if isinstance(exc, api.APIStatusError):
        context |= {"http_status": exc.status_code, "upstream_code": exc.code}
    return context


def _status_failure(exc: api.APIStatusError) -> ToolFailure:
    context = _upstream(exc)
    detail = exc.message
    if isinstance(exc, api.ConcurrencyLimitError):
        return ToolFailure(
            CAPACITY, f"Cursor refused a new agent: too many agents at once ({detail}). Nothing was created. "
            "Archive idle agents (cursor_archive_agent) or wait for a running one to end (cursor_wait).", **context,
        )  # fmt: skip
    if isinstance(exc, api.RateLimitError):
        wait = "" if exc.retry_after is None else f" Retry after {exc.retry_after:.0f} s."
        return ToolFailure(
            "QUOTA", f"Cursor refused for now (rate or usage limit): {detail}.{wait}",
            retry_after_seconds=None if exc.retry_after is None else round(exc.retry_after, 1), **context,
        )  # fmt: skip
    table: list[tuple[type[api.APIStatusError], str, str]] = [
        (
            api.AgentBusyError,
            "AGENT_BUSY",
            "A run of this agent is still active; wait for it, or follow up with "
            "replace_active=true to cancel it first.",
        ),
        (
            api.StreamExpiredError,
            "STREAM_EXPIRED",
            "The run's stream is past its retention; read the run with cursor_get_run instead.",
        ),
        (
            api.CursorExpiredError,
            CURSOR_EXPIRED,
            "The list cursor expired; call again without cursor to restart from the first page.",
        ),
        (
            api.AccountSetupError,
            CONFIGURATION,
            "The API key or team setting cannot do this (the code above names the cause): use a user API key "
            "(CURSOR_API_KEY), check CURSOR_TEAM_ID, or ask a team admin, then restart the client.",
        ),
        (
            api.AuthenticationError,
            "AUTHENTICATION",
            "Cursor refused the API key: check CURSOR_API_KEY in the MCP "
            "server's environment, then restart the client.",
        ),
        (api.PermissionDeniedError, "PERMISSION_DENIED", "Cursor refused this for this key or plan."),
        (api.NotFoundError, "NOT_FOUND", "Check the id; cursor_list_agents and cursor_list_runs list valid ids."),
        (api.ConflictError, "CONFLICT", "The resource's state does not allow this now; read it again first."),
        (api.BadRequestError, VALIDATION, "Cursor refused the request as invalid; correct it before retrying."),
        (api.ServerError, "UPSTREAM", "Cursor failed; a read can be retried later."),
    ]
    for kind, code, advice in table:
        if isinstance(exc, kind):
            return ToolFailure(code, f"{detail}. {advice}", **context)
    return ToolFailure("UPSTREAM", f"Cursor answered HTTP {exc.status_code}: {detail}.", **context)


def from_api_error(exc: api.CursorError) -> ToolFailure:
    """The tool failure for an exception raised by the API client."""
    if isinstance(exc, api.APIStatusError):
        return _status_failure(exc)
    if isinstance(exc, api.MutationOutcomeUnknownError):
        ctx = exc.context
        return ToolFailure(
            MUTATION_OUTCOME_UNKNOWN,
            f"{ctx.method} {ctx.path} may or may not have taken effect ({exc.message}). Do NOT send it again: read "
            "the agent with cursor_get_agent using the id below (or cursor_list_agents with its name) to find out.",
            **dict(ctx.ids), http_status=ctx.status_code, request_id=ctx.request_id,
        )  # fmt: skip
    simple: list[tuple[type[api.CursorError], str, str]] = [
        (api.ConfigurationMissingError, CONFIGURATION_MISSING, ""),
        (api.DeadlineTooShortError, TIMEOUT, " Nothing was sent; call again."),
        (api.APIConnectionError, "UPSTREAM", " Nothing was sent; retry later."),
        (api.ArtifactURLRefusedError, "ARTIFACT_URL_REFUSED", ""),
        (api.IncompatibleResponseError, "UPSTREAM", " The answer did not match the API contract."),
    ]
    for kind, code, advice in simple:
        if isinstance(exc, kind):
            return ToolFailure(code, exc.message + advice, **_upstream(exc))
    return ToolFailure("UPSTREAM", exc.message, **_upstream(exc))


def store_unusable(why: str) -> ToolFailure:
    """The answer to a paid act when the store of paid acts cannot be used: refused, since neither "never paid
    twice" nor the limits could be kept (they fail closed); reads go on."""
    return ToolFailure(
        CONFIGURATION,
        f"Nothing was sent: {why}. Paid acts (creations, follow-ups) are refused until it can be used, since "
        "the creation limit and the guard against paying twice live there; reading agents and results still "
        "works. The user can make CURSOR_MCP_STATE_DIR a writable folder of regular files, or set "
        "CURSOR_MCP_STATE_DIR=memory to count for this process only.",
        variable="CURSOR_MCP_STATE_DIR",
    )
