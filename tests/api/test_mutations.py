"""Mutations are sent once; any failure after sending is "outcome unknown" with every id (docs/reliability.md §2.1)."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

import httpx2
import pytest

from cursor_cloud_agents.api import (
    AgentBusyError,
    AgentIdConflictError,
    APIConnectionError,
    CreateAgentRequest,
    CreateRunRequest,
    CursorClient,
    DeadlineTooShortError,
    MutationOutcomeUnknownError,
    Prompt,
    RateLimitError,
    deadline_after,
)
from tests.api.helpers import AGENT, RUN, Recorder, example, json_response, make_client

CREATED = example("docs/create-agent.response.201.json")
RUN_CREATED = example("docs/create-run.response.201.json")


def _create(client: CursorClient) -> Awaitable[Any]:
    return client.create_agent(CreateAgentRequest(prompt=Prompt(text="Add a README"), agent_id=AGENT))


def _follow_up(client: CursorClient) -> Awaitable[Any]:
    return client.create_run(AGENT, CreateRunRequest(prompt=Prompt(text="more")), previous_run_id=RUN)


def _cancel(client: CursorClient) -> Awaitable[Any]:
    return client.cancel_run(AGENT, RUN)


def _archive(client: CursorClient) -> Awaitable[Any]:
    return client.archive_agent(AGENT)


def _delete(client: CursorClient) -> Awaitable[Any]:
    return client.delete_agent(AGENT)


MUTATIONS: list[tuple[str, Callable[[CursorClient], Awaitable[Any]], dict[str, str]]] = [
    ("create_agent", _create, {"agent_id": AGENT}),
    ("create_run", _follow_up, {"agent_id": AGENT, "previous_run_id": RUN}),
    ("cancel_run", _cancel, {"agent_id": AGENT, "run_id": RUN}),
    ("archive", _archive, {"agent_id": AGENT}),
    ("delete", _delete, {"agent_id": AGENT}),
]
_REQ = httpx2.Request("POST", "https://api.cursor.com/v1/agents")
AFTER_SENDING: list[tuple[str, Exception | httpx2.Response]] = [
    ("F-01 closed after request", httpx2.RemoteProtocolError("Server disconnected", request=_REQ)),
    ("F-02 reset after request", httpx2.ReadError("Connection reset by peer", request=_REQ)),
    ("F-04 read timeout", httpx2.ReadTimeout("timed out", request=_REQ)),
    ("write broke mid-body", httpx2.WriteError("broken pipe", request=_REQ)),
    ("F-10 500", json_response(500, {"error": {"code": "internal_error", "message": "boom"}}, {"x-request-id": "r5"})),
    ("F-10 502 upstream_error", json_response(502, {"error": {"code": "upstream_error", "message": "m"}})),
    ("F-26 502 html", httpx2.Response(502, text="<html>Bad gateway</html>")),
    ("303 after processing", httpx2.Response(303, headers={"location": "/v1/agents/x"})),
    ("F-03 truncated 201", httpx2.Response(201, content=b'{"agent": {"id": "bc-0000')),
    ("F-26 201 not json", httpx2.Response(201, text="<html>ok</html>")),
    ("F-26 200 with an error envelope", json_response(200, {"error": {"code": "internal_error", "message": "m"}})),
]


@pytest.mark.anyio
@pytest.mark.parametrize(("name", "call", "ids"), MUTATIONS, ids=[m[0] for m in MUTATIONS])
@pytest.mark.parametrize(("fault", "answer"), AFTER_SENDING, ids=[f[0] for f in AFTER_SENDING])
async def test_failure_after_sending_is_outcome_unknown_with_every_id(
    name: str, call: Callable[[CursorClient], Awaitable[Any]], ids: dict[str, str], fault: str, answer: Any
) -> None:
    """docs/reliability.md F-01..F-04, F-10, F-26: one request, MutationOutcomeUnknownError carrying the ids."""
    recorder = Recorder(answer)
    async with make_client(recorder) as client:
        with pytest.raises(MutationOutcomeUnknownError) as caught:
            await call(client)
    assert len(recorder.requests) == 1
    context = caught.value.context
    assert dict(context.ids) == ids
    assert context.method == recorder.last.method
    assert context.path == recorder.last.url.path
    for value in ids.values():
        assert value in caught.value.message
    if isinstance(answer, httpx2.Response):
        assert context.status_code == answer.status_code
    if fault.startswith("F-10 500"):
        assert context.request_id == "r5"


@pytest.mark.anyio
@pytest.mark.parametrize(("name", "call", "ids"), MUTATIONS, ids=[m[0] for m in MUTATIONS])
async def test_connect_refused_is_a_connection_error_and_nothing_is_retried(
    name: str, call: Callable[[CursorClient], Awaitable[Any]], ids: dict[str, str]
) -> None:
    """docs/reliability.md §1.12: a failure that provably happened before sending means nothing happened."""
    recorder = Recorder(httpx2.ConnectError("refused", request=_REQ), json_response(201, CREATED))
    async with make_client(recorder) as client:
        with pytest.raises(APIConnectionError):
            await call(client)
    assert len(recorder.requests) == 1  # mutations are never retried automatically


@pytest.mark.anyio
@pytest.mark.parametrize(("name", "call", "ids"), MUTATIONS, ids=[m[0] for m in MUTATIONS])
async def test_mutation_with_less_than_five_seconds_left_sends_nothing(
    name: str, call: Callable[[CursorClient], Awaitable[Any]], ids: dict[str, str]
) -> None:
    """docs/architecture.md tool contract 3: a mutation is not sent when too little time is left to read its answer."""
    recorder = Recorder(json_response(201, CREATED))
    async with make_client(recorder) as client:
        with deadline_after(4.9), pytest.raises(DeadlineTooShortError):
            await call(client)
    assert recorder.requests == []


@pytest.mark.anyio
async def test_429_on_create_is_not_retried() -> None:
    """docs/reliability.md F-07/F-08: the client never replays a POST; the caller decides."""
    recorder = Recorder(
        json_response(429, {"error": {"code": "rate_limit_exceeded", "message": "m"}}, {"retry-after": "2"}),
        json_response(201, CREATED),
    )
    async with make_client(recorder) as client:
        with pytest.raises(RateLimitError) as caught:
            await _create(client)
    assert caught.value.retry_after == 2.0
    assert len(recorder.requests) == 1


@pytest.mark.anyio
async def test_agent_id_conflict_is_typed() -> None:
    """docs/api-contract.md §3.6: re-POST of an existing agentId → 409 agent_id_conflict (an earlier try succeeded)."""
    recorder = Recorder(json_response(409, {"error": {"code": "agent_id_conflict", "message": "exists"}}))
    async with make_client(recorder) as client:
        with pytest.raises(AgentIdConflictError):
            await _create(client)


@pytest.mark.anyio
async def test_agent_busy_on_follow_up_is_typed_and_not_retried() -> None:
    """docs/reliability.md F-11: 409 agent_busy, no retry loop."""
    recorder = Recorder(json_response(409, {"error": {"code": "agent_busy", "message": "busy"}}))
    async with make_client(recorder) as client:
        with pytest.raises(AgentBusyError):
            await _follow_up(client)
    assert len(recorder.requests) == 1


@pytest.mark.anyio
async def test_answer_naming_another_agent_is_outcome_unknown() -> None:
    """F-26 mismatched body: a 201 for another id is never trusted as our agent."""
    other = json.loads(json.dumps(CREATED).replace("000000000001", "0000000000ff"))
    recorder = Recorder(json_response(201, other))
    async with make_client(recorder) as client:
        with pytest.raises(MutationOutcomeUnknownError, match="other ids"):
            await _create(client)


@pytest.mark.anyio
async def test_oversized_mutation_answer_is_outcome_unknown() -> None:
    """docs/reliability.md F-27 on a mutation: the body cap stops the read; the outcome is unknown."""
    recorder = Recorder(httpx2.Response(201, content=b"x" * (8 * 1024 * 1024 + 1)))
    async with make_client(recorder) as client:
        with pytest.raises(MutationOutcomeUnknownError) as caught:
            await _create(client)
    assert caught.value.context.status_code == 201


@pytest.mark.anyio
async def test_successful_create_returns_agent_and_run() -> None:
    """docs/api-contract.md §3.6: 201 {agent, run}."""
    async with make_client(Recorder(json_response(201, CREATED))) as client:
        created = await _create(client)
    assert created.agent.id == AGENT
    assert created.run.status == "CREATING"


@pytest.mark.anyio
async def test_follow_up_returns_the_new_run() -> None:
    """docs/api-contract.md §3.7: 201 {run}."""
    async with make_client(Recorder(json_response(201, RUN_CREATED))) as client:
        run = await _follow_up(client)
    assert run.id == "run-00000000-0000-0000-0000-000000000002"


@pytest.mark.anyio
async def test_a_limiter_wait_never_eats_into_the_five_seconds_of_a_mutation() -> None:
    """The 5 s rule holds after the client-side limiter: a wait that would break it raises, nothing sent."""
    recorder = Recorder(json_response(200, example("docs/archive-agent.response.200.json")))
    async with make_client(recorder, requests_per_second=0.5, burst=1) as client:
        await client.archive_agent(AGENT)
        with deadline_after(6.5), pytest.raises(RateLimitError):
            await client.archive_agent(AGENT)
    assert len(recorder.requests) == 1
