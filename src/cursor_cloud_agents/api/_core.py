"""The request engine: deadlines, the rate limiter, retries for reads, and outcome-unknown for mutations.

Reads (GET) may be retried on 429, 5xx and failures before sending, within the call's deadline and a
retry budget. Mutations (POST, DELETE) are sent once: any failure after the request may have reached
the server becomes `MutationOutcomeUnknownError` carrying every id we know, to be resolved by reading.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from cursor_cloud_agents.api import _retry, _wirejson
from cursor_cloud_agents.api._http import HttpAnswer, HttpSession, SendFailure
from cursor_cloud_agents.api._limits import TokenBucket
from cursor_cloud_agents.api.deadline import (
    MIN_MUTATION_SECONDS,
    MIN_READ_SECONDS,
    MUTATION_CAP_SECONDS,
    READ_CAP_SECONDS,
    REQUEST_MARGIN_SECONDS,
    SEND_MARGIN_SECONDS,
    current_deadline,
    time_left,
)
from cursor_cloud_agents.api.errors import (
    APIConnectionError,
    APITimeoutError,
    CursorError,
    DeadlineTooShortError,
    IncompatibleResponseError,
    MutationContext,
    MutationOutcomeUnknownError,
    RateLimitError,
    ReadFailedError,
    ServerError,
    UsageLimitExceededError,
    error_from_response,
)

M = TypeVar("M", bound=BaseModel)

JSON_CAP_BYTES = 8 * 1024 * 1024
MAX_RETRY_WAIT_WITHOUT_DEADLINE = 60.0
# Statuses after which a mutation may have been carried out: 3xx (a 303 follows a processed POST),
# 499 (the server saw the request, then the client vanished) and every 5xx.
_UNKNOWN_OUTCOME_STATUSES = frozenset(range(300, 400)) | {499}


def parse_json_model(answer: HttpAnswer, model: type[M]) -> M:
    """Parse a 2xx JSON answer into `model`.

    Raises:
        IncompatibleResponseError: the body is not JSON or does not fit the model.
    """
    try:
        data = _wirejson.loads(answer.body)
    except (ValueError, UnicodeDecodeError):
        raise IncompatibleResponseError(
            f"HTTP {answer.status} answer is not JSON", status_code=answer.status, request_id=answer.request_id
        ) from None
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "body"
        raise IncompatibleResponseError(
            f"HTTP {answer.status} answer does not match {model.__name__} (at {where}: {first['type']})",
            status_code=answer.status,
            request_id=answer.request_id,
        ) from None


class RequestEngine:
    """Sends requests for `CursorClient`; owns the limiter, the retry budget and the time rules."""

    def __init__(
        self,
        session: HttpSession,
        *,
        requests_per_second: float,
        burst: float | None = None,
        clock: Callable[[], float],
        wall_clock: Callable[[], float],
        sleep: Callable[[float], Awaitable[None]],
        secret: str | None,
    ) -> None:
        self._session = session
        self._clock = clock
        self._wall_clock = wall_clock
        self._sleep = sleep
        self._secret = secret
        self._bucket = TokenBucket(rate=requests_per_second, burst=burst, now=clock())
        self.budget = _retry.RetryBudget()

    @property
    def session(self) -> HttpSession:
        """The HTTP session (for the stream)."""
        return self._session

    async def throttle(self, *, keep: float = SEND_MARGIN_SECONDS) -> None:
        """Wait for the client-side rate limiter, or raise when the wait would leave less than `keep` seconds.

        Raises:
            RateLimitError: code `client_rate_limited`, with `retry_after`; nothing was sent.
        """
        now = self._clock()
        wait = self._bucket.wait_needed(now)
        left = time_left()
        if wait > 0 and left is not None and wait + keep >= left:
            raise RateLimitError(
                f"client-side rate limit: next request possible in {wait:.2f} s, after the deadline",
                code="client_rate_limited",
                retry_after=wait,
            )
        wait = self._bucket.reserve(now)
        if wait > 0:
            await self._sleep(wait)

    def total_seconds(self, cap: float) -> float:
        """The time this request may take: its cap, shortened to what the call's deadline has left.

        A small margin keeps our own deadline ahead of the caller's, so a cut exchange is reported
        as ours (e.g. outcome unknown) instead of being swallowed by the caller's cancellation.
        """
        deadline = current_deadline()
        return cap if deadline is None else deadline.cap(cap, REQUEST_MARGIN_SECONDS)

    async def read(
        self,
        path: str,
        model: type[M],
        *,
        params: Mapping[str, str] | None = None,
        cap: float = READ_CAP_SECONDS,
        max_attempts: int = _retry.MAX_ATTEMPTS,
    ) -> M:
        """GET `path` and parse it into `model`, retrying what a read may retry.

        Raises:
            CursorError: the mapped error of the last attempt.
        """
        answer = await self._read_answer(path, params=params, cap=cap, max_attempts=max_attempts)
        return parse_json_model(answer, model)

    async def _read_answer(
        self, path: str, *, params: Mapping[str, str] | None, cap: float, max_attempts: int
    ) -> HttpAnswer:
        self.budget.record_attempt()
        attempt = 0
        while True:
            attempt += 1
            error, delay = await self._read_once(path, params=params, cap=cap)
            if isinstance(error, HttpAnswer):
                return error
            if attempt >= max_attempts or delay is None or not self._fits(delay) or not self.budget.try_spend():
                raise self._scrub(error)
            await self._sleep(delay)

    async def _read_once(
        self, path: str, *, params: Mapping[str, str] | None, cap: float
    ) -> tuple[HttpAnswer | CursorError, float | None]:
        """One attempt: the answer, or the error with the delay before a retry (None: do not retry)."""
        total = self.total_seconds(cap)
        if total < MIN_READ_SECONDS:
            return DeadlineTooShortError("the call's deadline has passed; nothing was sent"), None
        await self.throttle()
        try:
            answer = await self._session.request(
                "GET", path, params=params, timeout=self.total_seconds(cap), max_bytes=JSON_CAP_BYTES
            )
        except SendFailure as failure:
            if failure.maybe_sent:
                # A GET changes nothing: an exchange broken after sending (reset, closed, body cut) is
                # simply asked again, within the deadline and the retry budget.
                return ReadFailedError(f"GET {path}: {failure}"), _retry.backoff_seconds(1)
            cls = APITimeoutError if failure.timed_out else APIConnectionError
            return cls(f"GET {path}: {failure}"), _retry.backoff_seconds(1)
        if 200 <= answer.status < 300:
            return answer, None
        said = self._retry_after(answer)
        error = self._status_error(answer, said)
        return error, self._retry_delay(error, said)

    @staticmethod
    def _retry_delay(error: CursorError, said: float | None) -> float | None:
        """How long to wait before retrying a read: what `Retry-After` said (seconds or a date, on a 429 or a
        5xx alike), else the jittered backoff; None when waiting cannot help."""
        if isinstance(error, UsageLimitExceededError):
            return None  # waiting does not bring usage back
        if isinstance(error, RateLimitError | ServerError):
            return said if said is not None else _retry.backoff_seconds(1)
        return None

    def _fits(self, delay: float) -> bool:
        left = time_left()
        if left is None:
            return delay <= MAX_RETRY_WAIT_WITHOUT_DEADLINE
        return delay + SEND_MARGIN_SECONDS < left

    def status_error(self, answer: HttpAnswer) -> CursorError:
        """The exception for a non-2xx answer (a redirect is refused, never followed)."""
        return self._status_error(answer, self._retry_after(answer))

    def _retry_after(self, answer: HttpAnswer) -> float | None:
        return _retry.parse_retry_after(answer.headers.get("retry-after"), now=self._wall_clock())

    @staticmethod
    def _status_error(answer: HttpAnswer, retry_after: float | None) -> CursorError:
        if 300 <= answer.status < 400:
            return IncompatibleResponseError(
                f"HTTP {answer.status} redirect refused", status_code=answer.status, request_id=answer.request_id
            )
        return error_from_response(answer.status, answer.body, request_id=answer.request_id, retry_after=retry_after)

    async def mutate(
        self,
        method: str,
        path: str,
        model: type[M],
        *,
        ids: Mapping[str, str],
        body: dict[str, Any] | None = None,
        cap: float = MUTATION_CAP_SECONDS,
        check: Callable[[M], bool] = lambda _: True,
    ) -> M:
        """Send a mutation exactly once and parse its answer.

        Args:
            method: POST or DELETE.
            path: The request path.
            model: The model of a 2xx answer.
            ids: Every id known before sending (agent id, previous run id...), for the unknown outcome.
            body: The JSON body.
            cap: The longest this request may take.
            check: Whether a parsed answer matches what was asked (e.g. the agent id); False is "unknown".

        Raises:
            DeadlineTooShortError: less than 5 s left; nothing was sent.
            APIConnectionError: the request provably never left; nothing happened.
            MutationOutcomeUnknownError: it may or may not have happened; read, never resend.
            APIStatusError: the server refused it (4xx): it did not happen.
        """
        left = time_left()
        if left is not None and left < MIN_MUTATION_SECONDS:
            raise DeadlineTooShortError(
                f"{method} {path} not sent: {left:.1f} s left, at least {MIN_MUTATION_SECONDS:.0f} s needed"
            )
        # After the limiter's wait, the 5 s rule must still hold.
        await self.throttle(keep=MIN_MUTATION_SECONDS)
        unknown = _UnknownOutcome(method, path, ids)
        try:
            answer = await self._session.request(
                method, path, json=body, timeout=self.total_seconds(cap), max_bytes=JSON_CAP_BYTES
            )
        except SendFailure as failure:
            if not failure.maybe_sent:
                cls = APITimeoutError if failure.timed_out else APIConnectionError
                raise cls(f"{method} {path} not sent: {failure}") from None
            raise unknown.error(str(failure)) from None
        except IncompatibleResponseError as exc:  # the body went past its cap
            raise unknown.error(exc.message, status=exc.status_code, request_id=exc.request_id) from None
        return self._mutation_answer(answer, model, unknown, check)

    def _mutation_answer(
        self, answer: HttpAnswer, model: type[M], unknown: _UnknownOutcome, check: Callable[[M], bool]
    ) -> M:
        if 200 <= answer.status < 300:
            try:
                parsed = parse_json_model(answer, model)
            except IncompatibleResponseError as exc:
                raise unknown.error(exc.message, status=answer.status, request_id=answer.request_id) from None
            if not check(parsed):
                raise unknown.error(
                    "the answer names other ids than the request", status=answer.status, request_id=answer.request_id
                )
            return parsed
        if answer.status >= 500 or answer.status in _UNKNOWN_OUTCOME_STATUSES:
            raise unknown.error(f"HTTP {answer.status}", status=answer.status, request_id=answer.request_id)
        raise self._scrub(self.status_error(answer))

    def _scrub(self, error: CursorError) -> CursorError:
        # Defence in depth: should a vendor message ever echo the key, it leaves here masked.
        if self._secret and self._secret in error.message:
            error.message = error.message.replace(self._secret, "***")
            error.args = (error.message,)
        return error


class _UnknownOutcome:
    """Builds the outcome-unknown error of one mutation."""

    def __init__(self, method: str, path: str, ids: Mapping[str, str]) -> None:
        self._method = method
        self._path = path
        self._ids = dict(ids)

    def error(
        self, reason: str, *, status: int | None = None, request_id: str | None = None
    ) -> MutationOutcomeUnknownError:
        context = MutationContext(
            method=self._method, path=self._path, ids=self._ids, status_code=status, request_id=request_id
        )
        known = ", ".join(f"{name}={value}" for name, value in self._ids.items()) or "no id"
        message = (
            f"{self._method} {self._path}: outcome unknown ({reason}); it may have happened. "
            f"Do not resend: read first ({known})"
        )
        if request_id:
            message += f" (request id {request_id})"
        return MutationOutcomeUnknownError(message, context=context)
