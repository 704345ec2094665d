"""Every endpoint sends the exact request of docs/api-contract.md §3 and parses the documented answer."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import httpx2
import pytest

from cursor_cloud_agents.api import (
    CreateAgentRequest,
    CreateRunRequest,
    CursorClient,
    Prompt,
)
from tests.api.helpers import (
    AGENT,
    RUN,
    RUN2,
    Recorder,
    assert_key_only_in_authorization,
    example,
    json_response,
    make_client,
)

ENV_ID = "00000000-0000-0000-0000-0000000000aa"


@dataclass(frozen=True)
class Case:
    name: str
    call: Callable[[CursorClient], Awaitable[Any]]
    method: str
    path: str
    query: dict[str, str]
    body: dict[str, Any] | None
    answer: Any
    status: int = 200


def _create_body() -> CreateAgentRequest:
    return CreateAgentRequest.model_validate({**example("docs/create-agent.request.json"), "agentId": AGENT})


CASES = [
    Case("me", lambda c: c.me(), "GET", "/v1/me", {}, None, example("docs/me.user-key.response.200.json")),
    Case("models", lambda c: c.list_models(), "GET", "/v1/models", {}, None, example("docs/models.response.200.json")),
    Case(
        "repositories",
        lambda c: c.list_repositories(),
        "GET",
        "/v1/repositories",
        {},
        None,
        example("docs/repositories.response.200.json"),
    ),
    Case(
        "list_agents",
        lambda c: c.list_agents(limit=5, cursor="abc", pr_url="https://github.com/o/r/pull/1", include_archived=False),
        "GET",
        "/v1/agents",
        {"limit": "5", "cursor": "abc", "prUrl": "https://github.com/o/r/pull/1", "includeArchived": "false"},
        None,
        example("docs/list-agents.response.200.json"),
    ),
    Case(
        "get_agent",
        lambda c: c.get_agent(AGENT),
        "GET",
        f"/v1/agents/{AGENT}",
        {},
        None,
        example("docs/get-agent.response.200.json"),
    ),
    Case(
        "create_agent",
        lambda c: c.create_agent(_create_body()),
        "POST",
        "/v1/agents",
        {},
        {**example("docs/create-agent.request.json"), "agentId": AGENT},
        example("docs/create-agent.response.201.json"),
        201,
    ),
    Case(
        "archive",
        lambda c: c.archive_agent(AGENT),
        "POST",
        f"/v1/agents/{AGENT}/archive",
        {},
        None,
        example("docs/archive-agent.response.200.json"),
    ),
    Case(
        "unarchive",
        lambda c: c.unarchive_agent(AGENT),
        "POST",
        f"/v1/agents/{AGENT}/unarchive",
        {},
        None,
        example("docs/unarchive-agent.response.200.json"),
    ),
    Case(
        "delete",
        lambda c: c.delete_agent(AGENT),
        "DELETE",
        f"/v1/agents/{AGENT}",
        {},
        None,
        example("docs/delete-agent.response.200.json"),
    ),
    Case(
        "create_run",
        lambda c: c.create_run(
            AGENT, CreateRunRequest.model_validate(example("docs/create-run.request.json")), previous_run_id=RUN
        ),
        "POST",
        f"/v1/agents/{AGENT}/runs",
        {},
        example("docs/create-run.request.json"),
        example("docs/create-run.response.201.json"),
        201,
    ),
    Case(
        "list_runs",
        lambda c: c.list_runs(AGENT, limit=2),
        "GET",
        f"/v1/agents/{AGENT}/runs",
        {"limit": "2"},
        None,
        example("docs/list-runs.response.200.json"),
    ),
    Case(
        "get_run",
        lambda c: c.get_run(AGENT, RUN),
        "GET",
        f"/v1/agents/{AGENT}/runs/{RUN}",
        {},
        None,
        example("docs/get-run.response.200.json"),
    ),
    Case(
        "cancel_run",
        lambda c: c.cancel_run(AGENT, RUN),
        "POST",
        f"/v1/agents/{AGENT}/runs/{RUN}/cancel",
        {},
        None,
        example("docs/cancel-run.response.200.json"),
    ),
    Case(
        "usage",
        lambda c: c.get_usage(AGENT, run_id=RUN2),
        "GET",
        f"/v1/agents/{AGENT}/usage",
        {"runId": RUN2},
        None,
        example("docs/usage.response.200.json"),
    ),
    Case(
        "artifacts",
        lambda c: c.list_artifacts(AGENT),
        "GET",
        f"/v1/agents/{AGENT}/artifacts",
        {},
        None,
        example("docs/list-artifacts.response.200.json"),
    ),
    Case(
        "artifact_download",
        lambda c: c.artifact_download(AGENT, "artifacts/screenshot.png"),
        "GET",
        f"/v1/agents/{AGENT}/artifacts/download",
        {"path": "artifacts/screenshot.png"},
        None,
        example("docs/download-artifact.response.200.json"),
    ),
    Case(
        "environments",
        lambda c: c.list_environments(limit=20, cursor="MjA"),
        "GET",
        "/v1/environments",
        {"limit": "20", "cursor": "MjA"},
        None,
        {
            "items": [
                {
                    "id": ENV_ID,
                    "name": "default",
                    "owner": "team",
                    "repos": [{"url": "https://github.com/o/r"}],
                    "createdAt": "2026-04-13T18:30:00.000Z",
                    "updatedAt": "2026-04-13T18:30:00.000Z",
                }
            ],
            "nextCursor": "MjA",
        },
    ),
    Case(
        "environment",
        lambda c: c.get_environment(ENV_ID),
        "GET",
        f"/v1/environments/{ENV_ID}",
        {},
        None,
        {"id": ENV_ID, "name": "default", "environmentJson": {"install": "make"}, "versionId": "v1"},
    ),
    Case(
        "conversation",
        lambda c: c.get_conversation(AGENT),
        "GET",
        f"/v0/agents/{AGENT}/conversation",
        {},
        None,
        {
            "id": AGENT,
            "messages": [
                {"id": "m1", "type": "user_message", "text": "hi"},
                {"id": "m2", "type": "assistant_message", "text": "hello"},
            ],
        },
    ),
]


@pytest.mark.anyio
@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
async def test_endpoint_sends_exact_request_and_parses_documented_answer(case: Case) -> None:
    """docs/api-contract.md §3: method, path, query, Bearer key only in its header, JSON body; docs example parses."""
    recorder = Recorder(json_response(case.status, case.answer))
    async with make_client(recorder) as client:
        result = await case.call(client)
    request = recorder.last
    assert request.method == case.method
    assert request.url.path == case.path
    assert dict(request.url.params) == case.query
    assert_key_only_in_authorization(request)
    assert request.headers["accept-encoding"] == "identity"
    if case.body is None:
        assert request.content == b""
    else:
        assert json.loads(request.content) == case.body
        assert request.headers["content-type"] == "application/json"
    assert result is not None


@pytest.mark.anyio
async def test_example_bodies_parse_with_the_models() -> None:
    """Every example body of tests/api/examples/docs parses, and fields keep their values."""
    agents = await _call(lambda c: c.list_agents(), example("docs/list-agents.response.200.json"))
    assert agents.items[0].latest_run_id == RUN
    assert agents.next_cursor == "bc-00000000-0000-0000-0000-000000000002"
    created = await _call(lambda c: c.create_agent(_create_body()), example("docs/create-agent.response.201.json"), 201)
    assert created.agent.auto_create_pr is True
    assert created.run.status == "CREATING"
    run = await _call(lambda c: c.get_run(AGENT, RUN), example("docs/get-run.response.200.json"))
    assert run.git is not None and run.git.branches[0].branch == "cursor/add-readme-a1b2"
    assert run.is_terminal
    models = await _call(lambda c: c.list_models(), example("docs/models.response.200.json"))
    assert models[0].variants is not None and models[0].variants[0].is_default is True
    usage = await _call(lambda c: c.get_usage(AGENT), example("docs/usage.response.200.json"))
    assert usage.total_usage is not None and usage.total_usage.total_tokens == 76390
    assert usage.cost is None
    me = await _call(lambda c: c.me(), example("docs/me.service-account-key.response.200.json"))
    assert me.user_email is None and me.api_key_name == "Production Service Account"


async def _call(call: Callable[[CursorClient], Awaitable[Any]], body: Any, status: int = 200) -> Any:
    async with make_client(Recorder(json_response(status, body))) as client:
        return await call(client)


@pytest.mark.anyio
async def test_unknown_fields_and_unknown_status_are_kept() -> None:
    """docs/api-contract.md §2: lenient to new fields; statuses are open strings (an unknown one never crashes)."""
    body = {**example("docs/get-run.response.200.json"), "status": "PAUSED_FOR_REVIEW", "newField": {"x": 1}}
    run = await _call(lambda c: c.get_run(AGENT, RUN), body)
    assert run.status == "PAUSED_FOR_REVIEW"
    assert not run.is_terminal
    assert run.model_extra == {"newField": {"x": 1}}


@pytest.mark.anyio
async def test_old_models_shape_with_bare_ids_still_parses() -> None:
    """docs/api-contract.md version drift: April 2026 `GET /v1/models` returned a list of ids."""
    models = await _call(lambda c: c.list_models(), {"items": ["default", "gpt-5"]})
    assert [model.id for model in models] == ["default", "gpt-5"]


@pytest.mark.anyio
async def test_null_next_cursor_is_the_end() -> None:
    """docs/api-contract.md §1 paging: `nextCursor` omitted at the end; the old `null` is accepted too."""
    page = await _call(lambda c: c.list_runs(AGENT), {"items": [], "nextCursor": None})
    assert page.next_cursor is None


def test_request_bodies_serialise_only_the_keys_set() -> None:
    """docs/api-contract.md §3.6: only send keys you set; never null, never invented."""
    body = CreateAgentRequest(prompt=Prompt(text="hi"), name=None, auto_create_pr=True)
    assert body.wire() == {"prompt": {"text": "hi"}, "autoCreatePR": True}


def test_request_models_refuse_unknown_keywords() -> None:
    """A typo in a paid request fails locally, not on the wire."""
    with pytest.raises(ValueError, match="extra"):
        CreateAgentRequest.model_validate({"prompt": {"text": "x"}, "autoCreatePr": True})


@pytest.mark.anyio
async def test_create_agent_mints_an_agent_id_when_absent() -> None:
    """docs/architecture.md paid mutations: the agent id is minted before the POST so an unknown outcome can be read."""
    recorder = Recorder(json_response(201, example("docs/create-agent.response.201.json")))
    async with make_client(recorder) as client:
        with pytest.raises(Exception) as caught:
            await client.create_agent(CreateAgentRequest(prompt=Prompt(text="hi")))
    sent = json.loads(recorder.last.content)
    assert sent["agentId"].startswith("bc-")
    # The docs example answers another id: a mismatched answer is an unknown outcome, never trusted.
    assert type(caught.value).__name__ == "MutationOutcomeUnknownError"


@pytest.mark.anyio
async def test_create_agent_with_env_vars_sends_no_agent_id() -> None:
    """docs/api-contract.md §3.6: `envVars` cannot be combined with `agentId`; the name is the lookup key then."""
    recorder = Recorder(json_response(201, example("docs/create-agent.response.201.json")))
    async with make_client(recorder) as client:
        await client.create_agent(CreateAgentRequest(prompt=Prompt(text="hi"), env_vars={"A": "1"}, name="job-1"))
    assert "agentId" not in json.loads(recorder.last.content)


@pytest.mark.anyio
async def test_uppercase_ids_are_sent_lowercase() -> None:
    """docs/api-contract.md quirk 15: uppercase hex accepted, the API answers lowercase."""
    recorder = Recorder(json_response(200, example("docs/get-agent.response.200.json")))
    async with make_client(recorder) as client:
        await client.get_agent(AGENT.upper().replace("BC-", "bc-"))
    assert recorder.last.url.path == f"/v1/agents/{AGENT}"


@pytest.mark.anyio
@pytest.mark.parametrize(
    "bad", ["bc-1", "../v1/me", f"{AGENT}/archive", f"{AGENT}?x=1", "run-00000000-0000-0000-0000-000000000001", ""]
)
async def test_malformed_ids_are_refused_before_any_request(bad: str) -> None:
    """docs/architecture.md tool contract 1: ids that go into URL paths match their pattern first."""
    recorder = Recorder(json_response(200, {}))
    async with make_client(recorder) as client:
        with pytest.raises(ValueError):
            await client.get_agent(bad)
        with pytest.raises(ValueError):
            await client.get_run(AGENT, bad if bad.startswith("run") is False else "run-x")
    assert recorder.requests == []


@pytest.mark.anyio
async def test_artifact_download_refuses_paths_outside_artifacts() -> None:
    """docs/api-contract.md §3.13: artifact paths are relative and start with `artifacts/`."""
    recorder = Recorder(json_response(200, {}))
    async with make_client(recorder) as client:
        for path in ("/opt/cursor/artifacts/a.png", "artifacts/../secrets", "other/a"):
            with pytest.raises(ValueError):
                await client.artifact_download(AGENT, path)
    assert recorder.requests == []


@pytest.mark.anyio
async def test_no_api_key_sends_nothing() -> None:
    """docs/architecture.md §6.2: a missing key is a configuration error; no request leaves."""
    recorder = Recorder(json_response(200, {}))
    client = CursorClient("https://api.cursor.com", None, transport=httpx2.MockTransport(recorder))
    async with client:
        with pytest.raises(Exception, match="no Cursor API key"):
            await client.me()
    assert recorder.requests == []


@pytest.mark.parametrize(
    "url", ["http://api.cursor.com", "https://user:pw@api.cursor.com", "ftp://api.cursor.com", "https://x/?k=v"]
)
def test_base_url_must_be_https_without_credentials(url: str) -> None:
    """The key travels to the base URL: plain http only for a loopback simulator."""
    with pytest.raises(ValueError):
        CursorClient(url, "k")


def test_loopback_http_base_url_is_accepted_for_the_simulator() -> None:
    """docs/architecture.md: the simulator is chosen by another base URL."""
    CursorClient("http://127.0.0.1:8765", "k")


def test_api_key_with_a_newline_is_refused_without_echoing_it() -> None:
    """A key that could split a header is refused; the message does not contain it."""
    with pytest.raises(ValueError) as caught:
        CursorClient("https://api.cursor.com", "abc\r\nX-Evil: 1")
    assert "abc" not in str(caught.value)


@pytest.mark.anyio
async def test_one_long_lived_connection_pool_serves_every_call() -> None:
    """docs/architecture.md §6.3: one AsyncClient for the client's life, not one per request."""
    recorder = Recorder(json_response(200, example("docs/me.user-key.response.200.json")))
    async with make_client(recorder) as client:
        first = client._engine.session  # pyright: ignore[reportPrivateUsage] -- identity check only
        await client.me()
        await client.me()
        assert client._engine.session is first  # pyright: ignore[reportPrivateUsage] -- identity check only
