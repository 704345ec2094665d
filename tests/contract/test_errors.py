"""Contract: the error map (docs/api-contract.md §1 Error envelope, §4), each code from the simulator to its client
class."""

from __future__ import annotations

import pytest

from cursor_cloud_agents.api import (
    AgentArchivedError,
    AgentBusyError,
    AgentIdConflictError,
    APIStatusError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    CursorClient,
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
)
from cursor_cloud_agents.simulator import SIMULATED_API_KEY, Fault, Faults, RunningSimulator

pytestmark = pytest.mark.anyio

# Every code of docs/api-contract.md §4 with its status (documented or inferred there) and the client's class.
CODES: list[tuple[int, str, type[APIStatusError]]] = [
    (401, "unauthorized", AuthenticationError),
    (401, "api_key_not_found", AuthenticationError),
    (403, "plan_required", PermissionDeniedError),
    (403, "role_forbidden", PermissionDeniedError),
    (403, "feature_unavailable", PermissionDeniedError),
    (403, "service_account_required", PermissionDeniedError),
    (403, "repository_access", PermissionDeniedError),
    (400, "repository_access", BadRequestError),
    (400, "integration_not_connected", BadRequestError),
    (400, "validation_error", BadRequestError),
    (400, "missing_body", BadRequestError),
    (400, "invalid_model", BadRequestError),
    (400, "invalid_branch_name", BadRequestError),
    (400, "repository_required", BadRequestError),
    (400, "pr_resolution_failed", BadRequestError),
    (400, "invalid_last_event_id", InvalidLastEventIdError),
    (404, "agent_not_found", NotFoundError),
    (404, "run_not_found", NotFoundError),
    (404, "artifact_not_found", NotFoundError),
    (409, "agent_busy", AgentBusyError),
    (409, "agent_archived", AgentArchivedError),
    (409, "agent_id_conflict", AgentIdConflictError),
    (409, "run_not_cancellable", RunNotCancellableError),
    (410, "stream_expired", StreamExpiredError),
    (503, "stream_unavailable", StreamUnavailableError),
    (429, "rate_limit_exceeded", RateLimitError),
    (429, "usage_limit_exceeded", UsageLimitExceededError),
    (499, "client_cancelled", APIStatusError),
    (501, "not_implemented", ServerError),
    (502, "upstream_error", ServerError),
    (500, "internal_error", ServerError),
]


@pytest.mark.parametrize(("status", "code", "cls"), CODES, ids=[f"{s}-{c}" for s, c, _ in CODES])
async def test_each_error_code_reaches_the_client_as_its_class_with_code_status_and_request_id(
    client: CursorClient, sim: RunningSimulator, faults: Faults, status: int, code: str, cls: type[APIStatusError]
) -> None:
    """docs/api-contract.md §4: the documented envelope `{error: {code, message}}` maps to one class; the request id is
    kept."""
    faults.inject("GET", "/v1/me", Fault.error(status, code, f"simulated {code}"), times=None)
    with pytest.raises(APIStatusError) as caught:
        await client.me()
    error = caught.value
    assert type(error) is cls and (error.status_code, error.code) == (status, code)
    assert error.request_id is not None and error.request_id == sim.requests[-1].request_id
    assert f"simulated {code}" in error.message and len(sim.requests) <= 4


async def test_a_flat_error_body_is_understood(client: CursorClient, faults: Faults) -> None:
    """docs/api-contract.md §1 Error envelope: the SDK also accepts a flat `{code, message}`."""
    faults.inject("GET", "/v1/me", Fault.raw(409, '{"code":"agent_busy","message":"busy"}'))
    with pytest.raises(AgentBusyError, match="busy"):
        await client.me()


async def test_a_string_error_body_is_understood(client: CursorClient, faults: Faults) -> None:
    """docs/api-contract.md §1 Error envelope: `{error: "Too Many Requests", message}` (other Cursor APIs)."""
    faults.inject("GET", "/v1/me", Fault.raw(403, '{"error":"Forbidden","message":"not for you"}'))
    with pytest.raises(PermissionDeniedError, match="not for you") as caught:
        await client.me()
    assert caught.value.code is None


async def test_a_plain_text_401_is_still_an_authentication_error(client: CursorClient, faults: Faults) -> None:
    """docs/api-contract.md §1 Auth: a keyless /v1/me answered text "Invalid User API Key"; the status alone is
    enough."""
    faults.inject("GET", "/v1/me", Fault.raw(401, "Invalid User API Key", "text/plain"))
    with pytest.raises(AuthenticationError):
        await client.me()


async def test_an_html_error_page_is_a_server_error_and_a_4xx_one_is_incompatible(
    client: CursorClient, faults: Faults
) -> None:
    """docs/reliability.md F-26: a proxy's HTML page is typed, never parsed as an answer."""
    faults.inject("GET", "/v1/me", Fault.html(502), times=None)
    with pytest.raises(ServerError):
        await client.me()
    faults.clear()
    faults.inject("GET", "/v1/me", Fault.raw(404, "<html>Not here</html>", "text/html"))
    with pytest.raises(IncompatibleResponseError):
        await client.me()


@pytest.mark.parametrize("fault", [Fault.malformed_json(), Fault.truncated_json()], ids=["malformed", "truncated"])
async def test_a_2xx_body_that_is_not_json_is_incompatible(client: CursorClient, faults: Faults, fault: Fault) -> None:
    """docs/reliability.md F-26: non-JSON or truncated JSON on a 200 → IncompatibleResponseError."""
    faults.inject("GET", "/v1/agents", fault)
    with pytest.raises(IncompatibleResponseError):
        await client.list_agents()


async def test_an_oversized_body_is_cut_at_the_cap(client: CursorClient, faults: Faults) -> None:
    """docs/reliability.md F-27: a body over the 8 MiB JSON cap is refused, not read whole."""
    faults.inject("GET", "/v1/agents", Fault.oversized(9 * 1024 * 1024))
    with pytest.raises(IncompatibleResponseError, match="cap"):
        await client.list_agents()


async def test_an_error_echoing_the_authorization_header_never_shows_the_key(
    client: CursorClient, faults: Faults
) -> None:
    """docs/reliability.md SL-02: an upstream that echoes Authorization; the client masks the key."""
    faults.inject("GET", "/v1/me", Fault.echo_auth(400))
    with pytest.raises(CursorError) as caught:
        await client.me()
    assert SIMULATED_API_KEY not in str(caught.value) and SIMULATED_API_KEY not in caught.value.message


async def test_a_conflict_code_the_client_does_not_know_stays_a_conflict(client: CursorClient, faults: Faults) -> None:
    """docs/api-contract.md §4: codes refine the status class; an unknown 409 code keeps ConflictError."""
    faults.inject("GET", "/v1/me", Fault.error(409, "brand_new_conflict"))
    with pytest.raises(ConflictError) as caught:
        await client.me()
    assert type(caught.value) is ConflictError and caught.value.code == "brand_new_conflict"
