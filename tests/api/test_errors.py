"""The one status/code → class map, over every code of docs/api-contract.md §4 and the three body shapes."""

from __future__ import annotations

import json

import pytest

from cursor_cloud_agents.api import (
    AgentArchivedError,
    AgentBusyError,
    AgentIdConflictError,
    APIStatusError,
    AuthenticationError,
    BadRequestError,
    ConcurrencyLimitError,
    ConflictError,
    CursorError,
    IncompatibleResponseError,
    InvalidLastEventIdError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    RunNotCancellableError,
    ServerError,
    StreamExpiredError,
    StreamUnavailableError,
    UsageLimitExceededError,
    error_from_response,
)
from tests.api.helpers import KEY, Recorder, example, json_response, make_client

# (code, status, class) for every row of docs/api-contract.md §4; inferred statuses as the contract infers them.
CATALOGUE: list[tuple[str, int, type[CursorError]]] = [
    ("unauthorized", 401, AuthenticationError),
    ("api_key_not_found", 401, AuthenticationError),
    ("plan_required", 403, PermissionDeniedError),
    ("role_forbidden", 403, PermissionDeniedError),
    ("feature_unavailable", 403, PermissionDeniedError),
    ("service_account_required", 403, PermissionDeniedError),
    ("repository_access", 400, BadRequestError),
    ("repository_access", 403, PermissionDeniedError),
    ("integration_not_connected", 400, BadRequestError),
    ("validation_error", 400, BadRequestError),
    ("missing_body", 400, BadRequestError),
    ("invalid_model", 400, BadRequestError),
    ("invalid_branch_name", 400, BadRequestError),
    ("repository_required", 400, BadRequestError),
    ("pr_resolution_failed", 400, BadRequestError),
    ("invalid_last_event_id", 400, InvalidLastEventIdError),
    ("agent_not_found", 404, NotFoundError),
    ("run_not_found", 404, NotFoundError),
    ("artifact_not_found", 404, NotFoundError),
    ("agent_busy", 409, AgentBusyError),
    ("agent_archived", 409, AgentArchivedError),
    ("agent_id_conflict", 409, AgentIdConflictError),
    ("run_not_cancellable", 409, RunNotCancellableError),
    ("stream_expired", 410, StreamExpiredError),
    ("stream_unavailable", 503, StreamUnavailableError),
    ("stream_unavailable", 404, StreamUnavailableError),
    ("rate_limit_exceeded", 429, RateLimitError),
    ("usage_limit_exceeded", 429, UsageLimitExceededError),
    ("client_cancelled", 499, APIStatusError),
    ("not_implemented", 501, ServerError),
    ("upstream_error", 502, ServerError),
    ("internal_error", 500, ServerError),
]


def _shapes(code: str, message: str) -> list[bytes]:
    return [
        json.dumps(
            {"error": {"code": code, "message": message, "helpUrl": "https://h", "provider": "github"}}
        ).encode(),
        json.dumps({"code": code, "message": message}).encode(),
    ]


@pytest.mark.parametrize(("code", "status", "cls"), CATALOGUE, ids=[f"{c}-{s}" for c, s, _ in CATALOGUE])
def test_every_catalogued_code_maps_to_its_class_in_both_object_shapes(
    code: str, status: int, cls: type[CursorError]
) -> None:
    """docs/api-contract.md §4: every code, nested envelope and flat `{code, message}`; request id carried."""
    for body in _shapes(code, "went wrong"):
        error = error_from_response(status, body, request_id="req-1")
        assert type(error) is cls
        assert isinstance(error, APIStatusError)
        assert error.code == code
        assert error.status_code == status
        assert error.request_id == "req-1"
        assert "went wrong" in error.message and "req-1" in error.message


def test_nested_envelope_keeps_help_url_and_provider() -> None:
    """docs/api-contract.md §1 error envelope: `helpUrl`/`provider` on integration_not_connected."""
    error = error_from_response(400, _shapes("integration_not_connected", "connect GitHub")[0])
    assert isinstance(error, APIStatusError)
    assert error.details == {"helpUrl": "https://h", "provider": "github"}


@pytest.mark.parametrize(
    ("status", "cls"),
    [
        (400, BadRequestError),
        (401, AuthenticationError),
        (403, PermissionDeniedError),
        (404, NotFoundError),
        (409, ConflictError),
        (410, StreamExpiredError),
        (429, RateLimitError),
        (500, ServerError),
        (503, ServerError),
        (422, APIStatusError),
    ],
)
def test_string_error_shape_maps_by_status(status: int, cls: type[CursorError]) -> None:
    """docs/api-contract.md §1: the third shape `{"error": "<string>", "message"?}` (other Cursor APIs, v0)."""
    error = error_from_response(status, b'{"error": "Too Many Requests", "message": "slow down"}')
    assert type(error) is cls
    assert isinstance(error, APIStatusError) and error.code is None
    assert "slow down" in error.message
    bare = error_from_response(status, b'{"error": "Not Found"}')
    assert "Not Found" in bare.message


def test_observed_included_usage_exhaustion_is_a_usage_limit() -> None:
    """docs/api-contract.md quirk 11: exhausted usage arrived as 429 rate_limit_exceeded; waiting will not help."""
    body = json.dumps(example("observed/error-429-included-usage-exhausted.json")).encode()
    error = error_from_response(429, body, retry_after=3.0)
    assert isinstance(error, UsageLimitExceededError)
    assert error.retry_after == 3.0


def _error(code: str | None, message: str) -> bytes:
    return json.dumps({"error": {"code": code, "message": message}}).encode()


@pytest.mark.parametrize(
    ("status", "body"),
    [
        (429, _error("rate_limit_exceeded", "Too many concurrent requests")),
        (403, _error(None, "Concurrent connections limit reached")),
        (429, _error("concurrency", "Slow down")),
    ],
)
def test_a_gateways_concurrent_requests_limit_is_a_rate_limit_not_the_plans_agent_limit(
    status: int, body: bytes
) -> None:
    """Review: any 403/429 naming "concurren" became the plan's agent limit (CAPACITY); a request limit is not."""
    error = error_from_response(status, body)
    assert not isinstance(error, ConcurrencyLimitError)


@pytest.mark.parametrize(
    ("status", "body"),
    [
        (429, _error("concurrent_agents_limit", "limit reached")),
        (403, _error(None, "You have reached the limit of 2 concurrent Cloud Agents for your plan")),
        (429, _error("rate_limit_exceeded", "Too many agents running concurrently")),
    ],
)
def test_the_plans_concurrent_agents_limit_is_recognised_by_its_code_or_a_message_naming_agents(
    status: int, body: bytes
) -> None:
    """The simulator's code, or a message naming both concurrency and agents, is the plan's agent limit."""
    assert isinstance(error_from_response(status, body), ConcurrencyLimitError)


@pytest.mark.parametrize("status", [200, 400, 404, 409])
def test_html_or_text_body_is_an_incompatible_response(status: int) -> None:
    """docs/reliability.md F-26: an HTML page (e.g. a wrong base URL) is a typed incompatible answer."""
    error = error_from_response(status, b"<html><body>Not here</body></html>", request_id="r")
    assert isinstance(error, IncompatibleResponseError)
    assert error.status_code == status
    assert "<html>" not in error.message


@pytest.mark.parametrize(("status", "cls"), [(401, AuthenticationError), (429, RateLimitError), (502, ServerError)])
def test_gateway_statuses_keep_their_meaning_with_a_text_body(status: int, cls: type[CursorError]) -> None:
    """docs/api-contract.md §1 auth: a keyless /v1/me answered 401 with text; proxies send HTML 429/5xx."""
    error = error_from_response(status, b"Invalid User API Key")
    assert type(error) is cls


def test_long_vendor_messages_are_clipped() -> None:
    """docs/reliability.md F-26: no raw body over 2 KiB echoed."""
    error = error_from_response(400, json.dumps({"error": {"code": "x", "message": "y" * 10_000}}).encode())
    assert len(error.message) < 700


@pytest.mark.anyio
async def test_request_id_is_read_from_each_documented_header() -> None:
    """docs/api-contract.md §1 headers: x-request-id, request-id, x-cursor-request-id."""
    for header in ("x-request-id", "request-id", "x-cursor-request-id"):
        answer = json_response(404, {"error": {"code": "agent_not_found", "message": "no"}}, {header: "rid-9"})
        async with make_client(Recorder(answer)) as client:
            with pytest.raises(NotFoundError) as caught:
                await client.me()
        assert caught.value.request_id == "rid-9"


@pytest.mark.anyio
async def test_a_vendor_message_echoing_the_key_is_masked() -> None:
    """docs/architecture.md tool contract 8: the key never leaves in an error (defence in depth)."""
    answer = json_response(401, {"error": {"code": "unauthorized", "message": f"bad key {KEY}"}})
    async with make_client(Recorder(answer)) as client:
        with pytest.raises(AuthenticationError) as caught:
            await client.me()
    assert KEY not in str(caught.value)
    assert KEY not in caught.value.message


@pytest.mark.anyio
async def test_a_redirect_is_refused_not_followed() -> None:
    """docs/api-contract.md §1: no redirects expected; a 3xx is an error and the Location is never requested."""
    import httpx2

    recorder = Recorder(httpx2.Response(302, headers={"location": "https://evil.example/steal"}))
    async with make_client(recorder) as client:
        with pytest.raises(IncompatibleResponseError, match="redirect"):
            await client.me()
    assert len(recorder.requests) == 1


def test_a_long_vendor_message_is_cut_between_words_never_inside_one() -> None:
    """SL-02/SL-05: a secret the vendor echoed is masked later, and only whole, so the cut never halves a word."""
    secret = "sk-echoed-0123456789abcdefghijklmnopqrstuvwxyz"
    message = "word " * 98 + secret + " and more after it"  # the 500-character cut falls inside the secret
    body = json.dumps({"error": {"code": "validation_error", "message": message}}).encode()
    error = error_from_response(400, body, request_id="req-1")
    assert secret[:8] not in error.message
    assert "word word …" in error.message
