"""Run streams (docs/api-contract.md §3.11): framing, ids, replay, resume, live progress, heartbeats, retention."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import anyio
import httpx2
import pytest

from cursor_cloud_agents.simulator import BackgroundTaskScript, ManualClock, Quirks, RunScript, ScriptedToolCall, World
from cursor_cloud_agents.simulator.streams import plan_stream, stream_body

from .conftest import parse_sse


def _url(world: World, index: int = 0, run: int = -1) -> str:
    agent = list(world.agents.values())[index]
    return f"/v1/agents/{agent.id}/runs/{agent.runs[run].id}/stream"


async def _read_all(client: httpx2.AsyncClient, url: str, headers: dict[str, str] | None = None) -> httpx2.Response:
    with anyio.fail_after(10):
        return await client.get(url, headers=headers or {})


async def _until(chunks: AsyncIterator[str], buffer: list[str], needle: str) -> str:
    """Read the stream until `needle` appears in what was received; return everything so far."""
    with anyio.fail_after(5):
        while needle not in "".join(buffer):
            buffer.append(await anext(chunks))
    return "".join(buffer)


@pytest.mark.anyio
async def test_a_finished_run_replays_from_the_start_and_closes_after_done(
    world: World, client: httpx2.AsyncClient
) -> None:
    """No Last-Event-ID: full replay; result and done share an id; the body ends after done."""
    world.add_agent(created_ago=3600)
    response = await _read_all(client, _url(world))
    assert response.headers["content-type"].startswith("text/event-stream")
    assert response.headers["x-cursor-stream-retention-seconds"] == "86400"
    frames = parse_sse(response.text)
    assert frames[0].keys() == {"event", "data"} and frames[0]["event"] == "status"
    assert [f["event"] for f in frames[-2:]] == ["result", "done"]
    assert frames[-2]["id"] == frames[-1]["id"]
    assert json.loads(frames[-2]["data"])["text"] and json.loads(frames[-1]["data"]) == {}


@pytest.mark.anyio
async def test_frames_use_exact_sse_framing_with_one_space_and_lf(world: World, client: httpx2.AsyncClient) -> None:
    """Lines start exactly with `id: `, `event: `, `data: `; LF only; a blank line after each frame."""
    world.add_agent(created_ago=3600)
    text = (await _read_all(client, _url(world))).text
    assert "\r" not in text and text.endswith("\n\n")
    assert all(line.startswith(("id: ", "event: ", "data: ")) for line in text.split("\n") if line)


@pytest.mark.anyio
async def test_event_ids_are_ms_seq_and_strictly_increasing_except_result_done(
    world: World, client: httpx2.AsyncClient
) -> None:
    """Ids look like `<ms>-<seq>` and increase strictly; only `done` repeats the `result` id."""
    world.add_agent(created_ago=3600)
    frames = parse_sse((await _read_all(client, _url(world))).text)
    keys = [tuple(int(p) for p in f["id"].split("-")) for f in frames if "id" in f]
    assert all(a < b for a, b in zip(keys[:-2], keys[1:-1], strict=True))
    assert keys[-1] == keys[-2]


@pytest.mark.anyio
async def test_assistant_text_arrives_in_word_fragments_with_thinking_and_tool_pairs(
    world: World, client: httpx2.AsyncClient
) -> None:
    """`assistant` deltas are word fragments; `thinking`; `tool_call` running/completed share a callId."""
    world.add_agent(created_ago=3600)
    frames = parse_sse((await _read_all(client, _url(world))).text)
    texts = [json.loads(f["data"])["text"] for f in frames if f["event"] == "assistant"]
    assert texts[:2] == ["I'll ", "read "]
    assert any(f["event"] == "thinking" for f in frames)
    calls = [json.loads(f["data"]) for f in frames if f["event"] == "tool_call"]
    assert [(c["callId"], c["status"]) for c in calls] == [("call-1", "running"), ("call-1", "completed")]
    updates = [json.loads(f["data"])["type"] for f in frames if f["event"] == "interaction_update"]
    assert {"summary", "text-delta", "turn-ended"} <= set(updates)


@pytest.mark.anyio
async def test_background_shell_and_await_polls_outlive_the_run(world: World, client: httpx2.AsyncClient) -> None:
    """Quirk 18: `run_terminal_cmd` with `isBackground`, then `await` polls still running at the end."""
    world.add_agent(script=RunScript(background=BackgroundTaskScript(polls=2)), created_ago=3600)
    frames = parse_sse((await _read_all(client, _url(world))).text)
    calls = [json.loads(f["data"]) for f in frames if f["event"] == "tool_call" and '"completed"' in f["data"]]
    shell = next(c for c in calls if c["name"] == "run_terminal_cmd")
    assert shell["args"]["isBackground"] is True and shell["result"]["isBackground"] is True
    polls = [c["result"]["success"] for c in calls if c["name"] == "await"]
    assert len(polls) == 2 and all("stillRunning" in p for p in polls)


@pytest.mark.anyio
async def test_oversized_tool_fields_are_omitted_and_flagged_truncated(
    world: World, client: httpx2.AsyncClient
) -> None:
    """Quirk 14: `args`/`result` omitted for size, with `truncated` flags."""
    call = ScriptedToolCall("run_terminal_cmd", {"command": "yes"}, truncated_result=True)
    world.add_agent(script=RunScript(tool_calls=(call,)), created_ago=3600)
    frames = parse_sse((await _read_all(client, _url(world))).text)
    completed = next(json.loads(f["data"]) for f in frames if f["event"] == "tool_call" and '"completed"' in f["data"])
    assert completed["truncated"] == {"result": True} and "result" not in completed


@pytest.mark.anyio
async def test_resume_with_last_event_id_sends_status_then_only_later_events(
    world: World, client: httpx2.AsyncClient
) -> None:
    """Last-Event-ID: another leading status frame, then events with id > the given one."""
    world.add_agent(created_ago=3600)
    full = parse_sse((await _read_all(client, _url(world))).text)
    middle = full[10]["id"]
    resumed = parse_sse((await _read_all(client, _url(world), {"Last-Event-ID": middle})).text)
    assert resumed[0]["event"] == "status" and "id" not in resumed[0]
    assert resumed[1:] == full[11:]


@pytest.mark.anyio
async def test_a_well_formed_unknown_id_of_this_run_gives_no_past_events(
    world: World, client: httpx2.AsyncClient
) -> None:
    """A made-up id returns no past events (observed 2026-10-06); a terminal run then just closes."""
    world.add_agent(created_ago=3600)
    frames = parse_sse((await _read_all(client, _url(world), {"Last-Event-ID": "1-0"})).text)
    assert [f["event"] for f in frames] == ["status"]


@pytest.mark.anyio
@pytest.mark.parametrize("bad", ["not-an-id", "12"])
async def test_a_malformed_last_event_id_is_invalid_last_event_id(
    world: World, client: httpx2.AsyncClient, bad: str
) -> None:
    """Malformed ids → 400 `invalid_last_event_id` (inferred)."""
    world.add_agent(created_ago=3600)
    response = await _read_all(client, _url(world), {"Last-Event-ID": bad})
    assert response.status_code == 400 and response.json()["error"]["code"] == "invalid_last_event_id"


@pytest.mark.anyio
async def test_an_id_of_another_run_is_invalid_last_event_id(world: World, client: httpx2.AsyncClient) -> None:
    """An id that belongs to another run → 400 `invalid_last_event_id` [DOCS]."""
    world.add_agent(created_ago=7200)
    world.add_agent(created_ago=3600)
    other = parse_sse((await _read_all(client, _url(world, 0))).text)[5]["id"]
    response = await _read_all(client, _url(world, 1), {"Last-Event-ID": other})
    assert response.status_code == 400 and response.json()["error"]["code"] == "invalid_last_event_id"


@pytest.mark.anyio
async def test_a_stream_older_than_the_retention_is_410_stream_expired(
    clock: ManualClock, world: World, client: httpx2.AsyncClient
) -> None:
    """After the retention (86400 s) the stream answers 410 `stream_expired`."""
    world.add_agent(created_ago=3600)
    clock.advance(86400)
    response = await _read_all(client, _url(world))
    assert response.status_code == 410 and response.json()["error"]["code"] == "stream_expired"


@pytest.mark.anyio
async def test_a_live_stream_progresses_when_the_manual_clock_advances(
    clock: ManualClock, world: World, client: httpx2.AsyncClient
) -> None:
    """A RUNNING run's stream sends new events as the world clock moves, then result, done and EOF."""
    world.add_agent()
    async with client.stream("GET", _url(world)) as response:
        chunks = response.aiter_text()
        buffer: list[str] = []
        assert '"status":"CREATING"' in await _until(chunks, buffer, "\n\n")
        clock.advance(3)
        await _until(chunks, buffer, '"status":"RUNNING"')
        clock.advance(40)
        await _until(chunks, buffer, "event: done")
        with anyio.fail_after(5):
            rest = [chunk async for chunk in chunks]
    assert "".join(buffer + rest).endswith("event: done\ndata: {}\n\n")


@pytest.mark.anyio
async def test_the_first_heartbeat_comes_30_to_36_seconds_after_connecting(clock: ManualClock, world: World) -> None:
    """Heartbeat `event: heartbeat` / `data: {}` without id, first 30-36 s after connecting (world clock)."""
    world.add_agent(script=RunScript(running_seconds=3600, creating_seconds=600))
    agent = next(iter(world.agents.values()))
    body = stream_body(world, plan_stream(world, agent.id, agent.runs[0].id, None))
    received: list[bytes] = []
    async with anyio.create_task_group() as group:

        async def reader() -> None:
            async for chunk in body:
                received.append(chunk)  # noqa: PERF401 - each chunk must land while the test looks

        group.start_soon(reader)
        await anyio.wait_all_tasks_blocked()
        clock.advance(29.9)
        await anyio.wait_all_tasks_blocked()
        assert len(received) == 1 and received[0].startswith(b"event: status\n")
        clock.advance(6.1)
        await anyio.wait_all_tasks_blocked()
        assert received[1:] == [b"event: heartbeat\ndata: {}\n\n"]
        group.cancel_scope.cancel()


@pytest.mark.anyio
async def test_a_cancel_reaches_an_open_stream_as_cancelled_result_and_done(
    clock: ManualClock, world: World, client: httpx2.AsyncClient
) -> None:
    """Cancelling a running run ends its live stream with status/result CANCELLED and done."""
    agent = world.add_agent()
    clock.advance(5)
    async with client.stream("GET", _url(world)) as response:
        chunks = response.aiter_text()
        buffer: list[str] = []
        await _until(chunks, buffer, '"status":"RUNNING"')
        await client.post(f"/v1/agents/{agent.id}/runs/{agent.runs[0].id}/cancel")
        clock.advance(2)
        text = await _until(chunks, buffer, "event: done")
    assert '"status":"CANCELLED"' in text


@pytest.mark.anyio
async def test_stream_retention_header_follows_the_quirk(clock: ManualClock) -> None:
    """`X-Cursor-Stream-Retention-Seconds` carries the configured retention."""
    from cursor_cloud_agents.simulator import SIMULATED_API_KEY, serve

    world = World(clock, quirks=Quirks(stream_retention_seconds=600))
    world.add_agent(created_ago=3600)
    async with (
        serve(world) as sim,
        httpx2.AsyncClient(base_url=sim.base_url, headers={"Authorization": f"Bearer {SIMULATED_API_KEY}"}) as http,
    ):
        response = await _read_all(http, _url(world))
    assert response.status_code == 410
