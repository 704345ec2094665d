"""Every exception the API client raises, and the one map from an HTTP answer to its class.

```
CursorError                              base of everything this package raises
├── ConfigurationMissingError            no API key configured; nothing was sent
├── DeadlineTooShortError                too little time left to send a mutation; nothing was sent
├── APIConnectionError                   the request never reached the server (safe to retry)
│   └── APITimeoutError                  ... because connecting timed out
├── APIStatusError                       the server answered with an error status
│   ├── BadRequestError          400     (InvalidLastEventIdError: 400 invalid_last_event_id)
│   ├── CursorExpiredError       any     cursor_expired: a list cursor is too old; list again from the start
│   ├── AccountSetupError        any     key_not_supported, team_*: the key or team setting cannot do this
│   ├── AuthenticationError      401
│   ├── PermissionDeniedError    403
│   ├── NotFoundError            404
│   ├── ConflictError            409     (AgentBusyError, AgentArchivedError, AgentIdConflictError,
│   │                                     RunNotCancellableError)
│   ├── StreamExpiredError       410
│   ├── RateLimitError           429     .retry_after seconds when the server (or our limiter) said
│   │   └── UsageLimitExceededError      usage_limit_exceeded, or the observed 429 "used all included usage"
│   └── ServerError              ≥ 500   .retry_after seconds when the server said
│       └── StreamUnavailableError       stream_unavailable (any status): re-read the run, then reconnect
├── ReadFailedError                      a read failed after the request was sent (cut, timeout)
├── IncompatibleResponseError            HTML, non-JSON, oversized, redirected or mismatched body
│   └── ResponseTooLargeError            the body went past its size cap (.limit bytes)
├── MutationOutcomeUnknownError          a mutation may or may not have happened
├── StreamError                          the event stream broke or misbehaved mid-way
└── ArtifactURLRefusedError              a download URL failed the scheme/host policy
```

Messages never contain the API key, an Authorization header or a full query string; callers may
still mask them again (defence in depth).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cursor_cloud_agents.api import _wirejson


class CursorError(Exception):
    """Base class of every error raised by `cursor_cloud_agents.api`."""

    def __init__(self, message: str, *, request_id: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.request_id = request_id


class ConfigurationMissingError(CursorError):
    """No API key is configured, so no request was sent."""


class DeadlineTooShortError(CursorError):
    """The call's deadline leaves too little time to send a mutation and read its answer."""


class APIConnectionError(CursorError):
    """The request could not be delivered (connection refused, DNS, TLS): it never reached the server."""


class APITimeoutError(APIConnectionError):
    """Connecting timed out before the request was sent."""


class APIStatusError(CursorError):
    """The server answered with an error status and, usually, an error envelope."""

    def __init__(
        self,
        message: str,
        *,
        status_code: int,
        code: str | None = None,
        request_id: str | None = None,
        details: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message, request_id=request_id)
        self.status_code = status_code
        self.code = code
        self.details: dict[str, str] = dict(details or {})


class BadRequestError(APIStatusError):
    """400: the request was refused as invalid."""


class InvalidLastEventIdError(BadRequestError):
    """400 invalid_last_event_id: the resume id does not belong to this run."""


class CursorExpiredError(APIStatusError):
    """cursor_expired: a paging cursor is no longer valid; the listing restarts from its first page."""


class AccountSetupError(APIStatusError):
    """key_not_supported or team_* (team_admin_required...): the key or the team setting cannot do this.

    Not a mistake in the request: the user changes the key (`CURSOR_API_KEY`), the team
    (`CURSOR_TEAM_ID`) or their role, so `code` names the cause.
    """


class AuthenticationError(APIStatusError):
    """401: the API key is missing, wrong or revoked."""


class PermissionDeniedError(APIStatusError):
    """403: plan, role, feature or repository access refused."""


class NotFoundError(APIStatusError):
    """404: the agent, run or artifact does not exist (or is not visible to this key)."""


class ConflictError(APIStatusError):
    """409: the request conflicts with the resource's current state."""


class AgentBusyError(ConflictError):
    """409 agent_busy: another run of the agent is CREATING or RUNNING."""


class AgentArchivedError(ConflictError):
    """409 agent_archived: the agent is archived and refuses new runs."""


class AgentIdConflictError(ConflictError):
    """409 agent_id_conflict: an agent with this client-minted id already exists."""


class RunNotCancellableError(ConflictError):
    """409 run_not_cancellable: the run is terminal or was never active."""


class StreamExpiredError(APIStatusError):
    """410 stream_expired: the run's stream is past its retention and cannot be replayed."""


class _ComeBackLater(APIStatusError):
    """An answer that may say when to come back (`Retry-After`, RFC 9110 §10.2.3): a 429, a 503."""

    default_status = 0

    def __init__(
        self,
        message: str,
        *,
        status_code: int | None = None,
        code: str | None = None,
        request_id: str | None = None,
        details: Mapping[str, str] | None = None,
        retry_after: float | None = None,
    ) -> None:
        status = self.default_status if status_code is None else status_code
        super().__init__(message, status_code=status, code=code, request_id=request_id, details=details)
        self.retry_after = retry_after
        """Seconds from `Retry-After`, when the server said when to come back."""


class RateLimitError(_ComeBackLater):
    """429: rate limited, or (observed) included usage exhausted."""

    default_status = 429


class UsageLimitExceededError(RateLimitError):
    """429 usage_limit_exceeded, or the observed 429 "used all included usage": waiting will not help."""


class ConcurrencyLimitError(RateLimitError):
    """The plan's limit of agents at once (undocumented: a 403 or 429 with the code `concurrent_agents_limit`,
    as the simulator answers it, or a message naming both concurrency and agents)."""


class ServerError(_ComeBackLater):
    """5xx: the server failed (a 503 may say when to come back)."""

    default_status = 500


class StreamUnavailableError(ServerError):
    """stream_unavailable: the run's stream is temporarily unavailable (status undocumented)."""


class ReadFailedError(CursorError):
    """A read request failed after it was sent (cut, reset or timeout while waiting for the answer)."""


class IncompatibleResponseError(CursorError):
    """The answer was not what the contract describes: HTML, not JSON, too large, or the wrong shape."""

    def __init__(self, message: str, *, status_code: int | None = None, request_id: str | None = None) -> None:
        super().__init__(message, request_id=request_id)
        self.status_code = status_code


class ResponseTooLargeError(IncompatibleResponseError):
    """The body went past its size cap; reading stopped there, so memory stayed bounded."""

    def __init__(
        self, message: str, *, limit: int, status_code: int | None = None, request_id: str | None = None
    ) -> None:
        super().__init__(message, status_code=status_code, request_id=request_id)
        self.limit = limit


def _no_ids() -> Mapping[str, str]:
    return {}


@dataclass(frozen=True)
class MutationContext:
    """What is known about a mutation whose outcome is unknown, to resolve it by reading."""

    method: str
    path: str
    ids: Mapping[str, str] = field(default_factory=_no_ids)
    status_code: int | None = None
    request_id: str | None = None


class MutationOutcomeUnknownError(CursorError):
    """A mutation may have reached the server and its answer was lost: it must be resolved by reading, never resent."""

    def __init__(self, message: str, *, context: MutationContext) -> None:
        super().__init__(message, request_id=context.request_id)
        self.context = context


class StreamError(CursorError):
    """The event stream broke or sent something unusable; `last_event_id` is where to resume."""

    def __init__(self, message: str, *, last_event_id: str | None = None, request_id: str | None = None) -> None:
        super().__init__(message, request_id=request_id)
        self.last_event_id = last_event_id


class ArtifactURLRefusedError(CursorError):
    """A presigned artifact URL failed the download policy (scheme, host allowlist)."""


# The status → class map. Codes refine it; an unknown code keeps the status class.
_STATUS_CLASSES: dict[int, type[APIStatusError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    410: StreamExpiredError,
    429: RateLimitError,
}
_CODE_CLASSES: dict[str, type[APIStatusError]] = {
    "invalid_last_event_id": InvalidLastEventIdError,
    "agent_busy": AgentBusyError,
    "agent_archived": AgentArchivedError,
    "agent_id_conflict": AgentIdConflictError,
    "run_not_cancellable": RunNotCancellableError,
    "usage_limit_exceeded": UsageLimitExceededError,
    "stream_unavailable": StreamUnavailableError,
    "cursor_expired": CursorExpiredError,
    "key_not_supported": AccountSetupError,
}
_TEAM_CODE_PREFIX = "team_"
"""Codes such as `team_admin_required`, `team_not_found`: a family named by its prefix, all AccountSetupError."""
# Statuses that gateways and proxies produce with HTML or text bodies: the status alone carries the meaning
# (a keyless GET /v1/me was observed answering 401 with plain text). Any other status with a non-JSON body
# means we are not talking to the API we know (a wrong base URL serving a web page, a captive portal).
_STATUS_MEANINGFUL_WITHOUT_JSON = frozenset({401, 429})
_INCLUDED_USAGE_EXHAUSTED = re.compile(r"used all included", re.IGNORECASE)
_CONCURRENT_AGENTS_CODE = "concurrent_agents_limit"
# Both words: a gateway's "too many concurrent requests" is a rate limit, not the plan's agent limit.
_CONCURRENT_AGENTS = re.compile(r"concurren.*agent|agent.*concurren", re.IGNORECASE | re.DOTALL)
_MAX_MESSAGE_CHARS = 500


@dataclass(frozen=True)
class ErrorBody:
    """The parts of an error body we understand, whichever of the three shapes it came in."""

    code: str | None
    message: str | None
    details: dict[str, str]


def parse_error_body(body: bytes) -> ErrorBody | None:
    """Read `{"error":{"code","message",...}}`, flat `{"code","message"}` or `{"error":"<text>","message"?}`.

    Returns:
        The parsed parts, or None when the body is not a JSON object.
    """
    try:
        data: object = _wirejson.loads(body)
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(data, dict):
        return None
    envelope: dict[str, Any] = data  # pyright: ignore[reportUnknownVariableType] -- json.loads gives Any
    inner = envelope.get("error")
    if isinstance(inner, dict):
        return _from_fields(inner)  # pyright: ignore[reportUnknownArgumentType] -- nested JSON object
    if isinstance(inner, str):
        message = envelope.get("message")
        return ErrorBody(code=None, message=message if isinstance(message, str) else inner, details={})
    return _from_fields(envelope)


def _from_fields(fields: Mapping[str, Any]) -> ErrorBody:
    code = fields.get("code")
    message = fields.get("message")
    details = {k: v for k, v in fields.items() if k not in ("code", "message") and isinstance(v, str)}
    return ErrorBody(
        code=code if isinstance(code, str) else None,
        message=message if isinstance(message, str) else None,
        details=details,
    )


def _clip(text: str) -> str:
    text = " ".join(text.split())
    if len(text) <= _MAX_MESSAGE_CHARS:
        return text
    # Cut at a space: a word cut in two could be the start of a secret the vendor echoed, which masking
    # (done later, by whoever knows the secrets) recognises only whole.
    return text[:_MAX_MESSAGE_CHARS].rpartition(" ")[0] + " …"


def _status_class(status_code: int, code: str | None, message: str | None) -> type[APIStatusError]:
    if code is not None and code in _CODE_CLASSES:
        return _CODE_CLASSES[code]
    if code is not None and code.startswith(_TEAM_CODE_PREFIX):
        return AccountSetupError
    if status_code == 429 and message is not None and _INCLUDED_USAGE_EXHAUSTED.search(message):
        return UsageLimitExceededError
    if status_code in (403, 429) and (
        code == _CONCURRENT_AGENTS_CODE or (message is not None and _CONCURRENT_AGENTS.search(message))
    ):
        return ConcurrencyLimitError
    if status_code >= 500:
        return ServerError
    return _STATUS_CLASSES.get(status_code, APIStatusError)


def error_from_response(
    status_code: int,
    body: bytes,
    *,
    request_id: str | None = None,
    retry_after: float | None = None,
) -> CursorError:
    """The one map from an error answer (status, body) to its exception.

    Args:
        status_code: The HTTP status, expected ≥ 400.
        body: The response body, already bounded by the caller.
        request_id: The request id header, carried by the error.
        retry_after: Seconds from `Retry-After`, kept on a RateLimitError or a ServerError.

    Returns:
        An APIStatusError subclass, or IncompatibleResponseError when the body is not JSON and the status
        alone does not say what happened.
    """
    parsed = parse_error_body(body)
    if parsed is None and status_code not in _STATUS_MEANINGFUL_WITHOUT_JSON and status_code < 500:
        return IncompatibleResponseError(
            f"HTTP {status_code} with a body that is not JSON: not the Cursor API answer we expect"
            + _request_suffix(request_id),
            status_code=status_code,
            request_id=request_id,
        )
    parsed = parsed or ErrorBody(code=None, message=None, details={})
    cls = _status_class(status_code, parsed.code, parsed.message)
    text = f"HTTP {status_code}" + (f" {parsed.code}" if parsed.code else "")
    if parsed.message:
        text += f": {_clip(parsed.message)}"
    text += _request_suffix(request_id)
    if issubclass(cls, _ComeBackLater):  # a 429 or a 5xx: it may have said when to come back
        return cls(
            text,
            status_code=status_code,
            code=parsed.code,
            request_id=request_id,
            details=parsed.details,
            retry_after=retry_after,
        )
    return cls(text, status_code=status_code, code=parsed.code, request_id=request_id, details=parsed.details)


def _request_suffix(request_id: str | None) -> str:
    return f" (request id {request_id})" if request_id else ""
