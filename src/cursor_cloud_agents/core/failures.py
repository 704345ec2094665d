"""The errors a tool reports to the calling model, and the one map from client exceptions to them.

A failure is a stable JSON object `{code, message, ...context}` returned as an `isError` result.
The codes are the reference server's, so a model or a user switching servers reads the same
vocabulary; messages say what to do next. Only a bug in our own code becomes a generic internal
error (its traceback goes to stderr, never to the model).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from cursor_cloud_agents.api import errors as api
from cursor_cloud_agents.core.advice import Advice, Step, advice


class Code(StrEnum):
    """Every failure code a tool answers with: the reference server's vocabulary, one line each."""

    READ_ONLY = "READ_ONLY"
    """A write was asked while CURSOR_MCP_ALLOW_WRITES is off; nothing was sent."""
    DELETE_DISABLED = "DELETE_DISABLED"
    """A deletion was asked while CURSOR_MCP_ALLOW_DELETE is off; nothing was sent."""
    CONFIRMATION_REQUIRED = "CONFIRMATION_REQUIRED"
    """A deletion without `confirm_agent_id` equal to `agent_id` (and no person to ask)."""
    VALIDATION = "VALIDATION"
    """An argument we or Cursor refused as invalid; the message names what to change."""
    TIMEOUT = "TIMEOUT"
    """A read did not finish within its budget, or too little time was left to send; nothing changed."""
    RESULT_TOO_LARGE = "RESULT_TOO_LARGE"
    """The answer would not fit under CURSOR_MCP_MAX_RESULT_BYTES; the message says how to ask for less."""
    CONFIGURATION_MISSING = "CONFIGURATION_MISSING"
    """CURSOR_API_KEY is not usable (unset, empty, a placeholder); the message names the problem."""
    MUTATION_OUTCOME_UNKNOWN = "MUTATION_OUTCOME_UNKNOWN"
    """A write may or may not have taken effect: read before sending it again."""
    CREATION_IN_FLIGHT = "CREATION_IN_FLIGHT"
    """A creation with this key is still being created by Cursor; it is not sent twice."""
    FOLLOWUP_IN_FLIGHT = "FOLLOWUP_IN_FLIGHT"
    """An identical follow-up whose answer was lost may still be landing; nothing new was sent."""
    LIMIT_REACHED = "LIMIT_REACHED"
    """CURSOR_MCP_MAX_NEW_AGENTS or CURSOR_MCP_MAX_SPEND_CENTS is reached; nothing paid was sent."""
    CURSOR_EXPIRED = "CURSOR_EXPIRED"
    """A list cursor expired: list again from the first page."""
    CONFIGURATION = "CONFIGURATION"
    """The key or team setting cannot do this (Cursor's account set-up refused it)."""
    CAPACITY = "CAPACITY"
    """Too many agents at once (Cursor's limit or CURSOR_MCP_MAX_ACTIVE_AGENTS); nothing was created."""
    DECLINED = "DECLINED"
    """The person declined, dismissed or did not answer the question; nothing was sent."""
    INTERNAL = "INTERNAL"
    """A bug in this server; its traceback is in the server log, never in the answer."""
    QUOTA = "QUOTA"
    """Cursor's rate or usage limit refused for now; retry after the time it gives."""
    AGENT_BUSY = "AGENT_BUSY"
    """A run of this agent is still active: wait for it, or replace it."""
    STREAM_EXPIRED = "STREAM_EXPIRED"
    """The run's stream is past its retention; the run itself can still be read."""
    AUTHENTICATION = "AUTHENTICATION"
    """Cursor refused the API key."""
    PERMISSION_DENIED = "PERMISSION_DENIED"
    """Cursor refused this for this key or plan."""
    NOT_FOUND = "NOT_FOUND"
    """No such agent, run or artifact."""
    CONFLICT = "CONFLICT"
    """The resource's state does not allow this now (or an agent with this id already exists)."""
    UPSTREAM = "UPSTREAM"
    """Cursor failed, or answered outside its contract."""
    NETWORK = "NETWORK"
    """This machine could not reach a host (Cursor's API, a git remote): not a permission; nothing was sent."""
    ARTIFACT_URL_REFUSED = "ARTIFACT_URL_REFUSED"
    """An artifact's download URL is not on an allowed host (CURSOR_MCP_ARTIFACT_HOSTS)."""
    CONTINUATION_REFUSED = "CONTINUATION_REFUSED"
    """The agent's record does not prove a follow-up is safe (archived, or in an unknown state)."""


# The short names call sites use (`failures.VALIDATION`): each is the member itself, not a second spelling.
READ_ONLY = Code.READ_ONLY
DELETE_DISABLED = Code.DELETE_DISABLED
CONFIRMATION_REQUIRED = Code.CONFIRMATION_REQUIRED
VALIDATION = Code.VALIDATION
TIMEOUT = Code.TIMEOUT
RESULT_TOO_LARGE = Code.RESULT_TOO_LARGE
CONFIGURATION_MISSING = Code.CONFIGURATION_MISSING
MUTATION_OUTCOME_UNKNOWN = Code.MUTATION_OUTCOME_UNKNOWN
CREATION_IN_FLIGHT = Code.CREATION_IN_FLIGHT
FOLLOWUP_IN_FLIGHT = Code.FOLLOWUP_IN_FLIGHT
LIMIT_REACHED = Code.LIMIT_REACHED
CURSOR_EXPIRED = Code.CURSOR_EXPIRED
CONFIGURATION = Code.CONFIGURATION
CAPACITY = Code.CAPACITY
DECLINED = Code.DECLINED
INTERNAL = Code.INTERNAL


class ToolFailure(Exception):
    """An expected failure, reported to the model as `{code, message, ...context}` with isError set.

    `code` is a `Code`; typed `str` because the toolkit's log line also records how a call ended without
    a failure (`input_required`, `cancelled`), words the model never reads. `message` says what happened in
    neutral terms; `advice`, when there is a next step, names it, and each face says it in its own words
    (`core/advice.py`).
    """

    def __init__(self, code: str, message: str, *, advice: Advice | None = None, **context: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.advice = advice
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
    if isinstance(exc, api.ServerError) and exc.retry_after is not None:
        context["retry_after_seconds"] = round(exc.retry_after, 1)  # a 503 may say when to come back
    if isinstance(exc, api.ConcurrencyLimitError):
        return ToolFailure(
            CAPACITY,
            f"Cursor refused a new agent: too many agents at once ({detail}). Nothing was created.",
            advice=advice(Step.FREE_A_SLOT),
            **context,
        )
    if isinstance(exc, api.RateLimitError):
        wait = "" if exc.retry_after is None else f" Retry after {exc.retry_after:.0f} s."
        return ToolFailure(
            Code.QUOTA,
            f"Cursor refused for now (rate or usage limit): {detail}.{wait}",
            retry_after_seconds=None if exc.retry_after is None else round(exc.retry_after, 1),
            **context,
        )
    # What happened in neutral words, and the next step each face says in its own (core/advice.py).
    table: list[tuple[type[api.APIStatusError], str, str, Step | None]] = [
        (
            api.AgentBusyError,
            Code.AGENT_BUSY,
            "A run of this agent is still active. Nothing was sent.",
            Step.WAIT_OR_REPLACE,
        ),
        (api.StreamExpiredError, Code.STREAM_EXPIRED, "The run's stream is past its retention", Step.READ_RUN),
        (api.CursorExpiredError, CURSOR_EXPIRED, "The list cursor expired", Step.RESTART_LISTING),
        (
            api.AccountSetupError,
            CONFIGURATION,
            "The API key or team setting cannot do this (the code above names the cause)",
            Step.CHECK_ACCOUNT,
        ),
        (api.AuthenticationError, Code.AUTHENTICATION, "Cursor refused the API key", Step.CHECK_KEY),
        (api.PermissionDeniedError, Code.PERMISSION_DENIED, "Cursor refused this for this key or plan.", None),
        (api.NotFoundError, Code.NOT_FOUND, "Check the id", Step.LIST_IDS),
        (api.ConflictError, Code.CONFLICT, "The resource's state does not allow this now; read it again first.", None),
        (api.BadRequestError, VALIDATION, "Cursor refused the request as invalid; correct it before retrying.", None),
        (api.ServerError, Code.UPSTREAM, "Cursor failed; a read can be retried later.", None),
    ]
    for kind, code, said, step in table:
        if isinstance(exc, kind):
            return ToolFailure(code, f"{detail}. {said}", advice=None if step is None else advice(step), **context)
    return ToolFailure(Code.UPSTREAM, f"Cursor answered HTTP {exc.status_code}: {detail}.", **context)


def from_api_error(exc: api.CursorError) -> ToolFailure:
    """The tool failure for an exception raised by the API client."""
    if isinstance(exc, api.APIStatusError):
        return _status_failure(exc)
    if isinstance(exc, api.MutationOutcomeUnknownError):
        ctx = exc.context
        return ToolFailure(
            MUTATION_OUTCOME_UNKNOWN,
            f"{ctx.method} {ctx.path} may or may not have taken effect ({exc.message}). Do NOT send it again",
            advice=advice(Step.READ_BEFORE_RESENDING),
            **dict(ctx.ids),
            http_status=ctx.status_code,
            request_id=ctx.request_id,
        )
    simple: list[tuple[type[api.CursorError], str, str]] = [
        (api.ConfigurationMissingError, CONFIGURATION_MISSING, ""),
        (api.DeadlineTooShortError, TIMEOUT, " Nothing was sent; call again."),
        (
            api.APIConnectionError,
            Code.NETWORK,
            " Cursor could not be reached from this machine, a network failure (check the network or its proxy); "
            "nothing was sent, so retrying later is safe.",
        ),
        (api.ArtifactURLRefusedError, Code.ARTIFACT_URL_REFUSED, ""),
        (api.IncompatibleResponseError, Code.UPSTREAM, " The answer did not match the API contract."),
    ]
    for kind, code, after in simple:
        if isinstance(exc, kind):
            step = advice(Step.GIVE_KEY) if kind is api.ConfigurationMissingError else None
            return ToolFailure(code, exc.message + after, advice=step, **_upstream(exc))
    return ToolFailure(Code.UPSTREAM, exc.message, **_upstream(exc))


def store_unusable(why: str) -> ToolFailure:
    """The answer to a paid act when the store of paid acts cannot be used: refused, since neither "never paid
    twice" nor the limits could be kept (they fail closed); reads go on."""
    return ToolFailure(
        Code.CONFIGURATION,
        f"Nothing was sent: {why}. Paid acts (creations, follow-ups) are refused until it can be used, since "
        "the creation limit and the guard against paying twice live there; reading agents and results still "
        "works. The user can make CURSOR_MCP_STATE_DIR a writable folder of regular files, or set "
        "CURSOR_MCP_STATE_DIR=memory to count for this process only.",
        variable="CURSOR_MCP_STATE_DIR",
    )
