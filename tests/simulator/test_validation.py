"""Where the simulator answered hostile or edge input otherwise than the API would (docs/api-contract.md §1, §3.6).

Each case used to crash the simulator (a 500, sometimes after the world had changed) or to accept
what the API's own JSON parser and schema refuse.
"""

from __future__ import annotations

import json

import httpx2
import pytest

from cursor_cloud_agents.simulator import World

pytestmark = pytest.mark.anyio


async def _assert_400(response: httpx2.Response, code: str = "validation_error") -> None:
    assert response.status_code == 400, response.text
    assert response.json()["error"]["code"] == code


@pytest.mark.parametrize("limit", ["²", "５"])
@pytest.mark.parametrize("listing", ["agents", "runs", "environments"])
async def test_a_limit_of_non_ascii_digits_is_validation_error_not_a_crash(
    world: World, client: httpx2.AsyncClient, listing: str, limit: str
) -> None:
    """`limit=²` passed `isdigit()` and crashed `int()` (500); `limit=５` was read as 5. Both are 400."""
    agent = world.add_agent(created_ago=3600)
    path = {"agents": "/v1/agents", "runs": f"/v1/agents/{agent.id}/runs", "environments": "/v1/environments"}
    await _assert_400(await client.get(path[listing], params={"limit": limit}))


async def test_a_body_nested_too_deep_to_parse_is_a_400_not_a_crash(client: httpx2.AsyncClient) -> None:
    """A body past the parser's nesting depth raised RecursionError out of the handler (500)."""
    deep = "[" * 100_000 + "]" * 100_000
    await _assert_400(await client.post("/v1/agents", content=deep, headers={"content-type": "application/json"}))


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
async def test_nan_and_infinity_in_a_body_are_refused_as_json_refuses_them(
    world: World, client: httpx2.AsyncClient, constant: str
) -> None:
    """Python's parser takes `NaN`; JSON (and the API) does not. Echoed in `metadata`, it made our answer invalid."""
    body = '{"prompt":{"text":"x"},"metadata":{"score":' + constant + "}}"
    await _assert_400(await client.post("/v1/agents", content=body, headers={"content-type": "application/json"}))
    assert world.agents == {}


async def test_a_lone_surrogate_in_a_prompt_answers_201_with_its_json_escape(
    world: World, client: httpx2.AsyncClient
) -> None:
    """A JSON escape `\\ud800` is valid JSON: the agent was created, then its answer failed to encode (500),
    a false unknown outcome for a paid creation. The name now goes out escaped, as JSON.stringify writes it."""
    body = b'{"prompt":{"text":"Fix \\ud800 it"}}'
    response = await client.post("/v1/agents", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 201, response.text
    assert b"\\ud800" in response.content
    assert json.loads(response.content)["agent"]["name"] == "Fix \ud800 it"
    assert len(world.agents) == 1


async def test_a_lone_surrogate_in_a_follow_up_prompt_reads_back_in_the_conversation(
    world: World, client: httpx2.AsyncClient
) -> None:
    """The conversation echoes the prompts: it crashed on a follow-up prompt carrying a lone surrogate."""
    agent = world.add_agent(created_ago=3600)
    body = b'{"prompt":{"text":"more \\udfff"}}'
    runs = f"/v1/agents/{agent.id}/runs"
    created = await client.post(runs, content=body, headers={"content-type": "application/json"})
    assert created.status_code == 201, created.text
    conversation = await client.get(f"/v0/agents/{agent.id}/conversation")
    assert conversation.status_code == 200
    assert conversation.json()["messages"][-1]["text"] == "more \udfff"


async def test_an_inline_image_with_empty_data_is_refused(world: World, client: httpx2.AsyncClient) -> None:
    """OpenAPI `Image.data` has `minLength: 1`; the simulator accepted `""` as a zero-byte image."""
    image = {"data": "", "mimeType": "image/png"}
    await _assert_400(await client.post("/v1/agents", json={"prompt": {"text": "x", "images": [image]}}))
    assert world.agents == {}


async def test_an_environments_cursor_before_the_first_item_is_refused(client: httpx2.AsyncClient) -> None:
    """`LTE` (base64 of "-1") answered an empty page that still named a next cursor; a cursor is never negative."""
    await _assert_400(await client.get("/v1/environments", params={"cursor": "LTE"}))
