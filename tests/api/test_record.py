"""Recording exchanges (issue 15): redacted JSON lines, 0600 files, rotation, and a replay that answers alike."""

from __future__ import annotations

import base64
import json
import math
import stat
from pathlib import Path
from urllib.parse import quote, quote_plus

import anyio
import httpx2
import pytest

from cursor_cloud_agents.api import CreateAgentRequest, CursorClient, Prompt
from cursor_cloud_agents.api.record import Exchange, Recorder, StreamExchange
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.simulator import ManualClock, RunScript, World, build_scenario, serve, serve_replay
from tests.api.helpers import make_client

pytestmark = pytest.mark.anyio

CANARY_KEY = "canary-key-5f1e9d3c7b2a48e6a0d4c8b2f6e1a3d9"
CANARY_TEXT = "Zanzibarcanary7731"
AGENT = "bc-00000000-0000-4000-8000-000000000001"
RUN = "run-00000000-0000-4000-8000-000000000001"


def encodings(value: str) -> set[str]:
    """Every form the redactor masks: raw, base64 (with and without padding, and of `value:`), URL, JSON."""
    raw = value.encode()
    forms = {value, base64.b64encode(raw).decode(), base64.b64encode(raw + b":").decode(), quote(value, safe="")}
    forms |= {quote_plus(value), json.dumps(value)[1:-1]}
    return forms | {form.rstrip("=") for form in forms}


async def record_a_session(directory: Path, *, keep_text: bool) -> None:
    clock = ManualClock()
    world = World(clock)
    world.add_api_key(CANARY_KEY, "Canary key")
    world.default_script = RunScript(text=f"I will write {CANARY_TEXT} now.", result=f"Wrote {CANARY_TEXT}.")
    recorder = Recorder(directory, mask=Redactor([CANARY_KEY]).mask, keep_text=keep_text)
    async with (
        serve(world) as sim,
        CursorClient(sim.base_url, CANARY_KEY, observer=recorder, wall_clock=clock.now) as api,
    ):
        created = await api.create_agent(CreateAgentRequest(prompt=Prompt(text=f"Say {CANARY_TEXT}")))
        clock.advance(120)
        await api.get_run(created.agent.id, created.run.id)
        await api.list_agents()
        await api.get_conversation(created.agent.id)
        with anyio.fail_after(10):
            async with api.stream_run(created.agent.id, created.run.id) as stream:
                async for _ in stream.raw_events():
                    pass


async def test_a_canary_key_and_agent_text_appear_in_no_recorded_byte_in_any_encoding(tmp_path: Path) -> None:
    """Issue 15: recordings keep neither the key nor prompts and agent text, in every form the redactor knows."""
    await record_a_session(tmp_path, keep_text=False)
    recorded = b"".join(path.read_bytes() for path in tmp_path.glob("trace-*.jsonl")).decode()
    assert '"kind":"stream"' in recorded and '"kind":"http"' in recorded
    for form in encodings(CANARY_KEY) | encodings(CANARY_TEXT):
        assert form not in recorded, form
    await record_a_session(tmp_path / "kept", keep_text=True)
    kept = b"".join(path.read_bytes() for path in (tmp_path / "kept").glob("trace-*.jsonl")).decode()
    assert CANARY_TEXT in kept and CANARY_KEY not in kept  # the check can fail: --keep-text keeps the text


async def test_recorded_files_are_private_and_rotate_at_their_size_cap(tmp_path: Path) -> None:
    """Issue 15: files 0600 in a 0700 folder; at the size cap a new file starts and only the newest are kept."""
    recorder = Recorder(tmp_path / "trace", mask=str, max_file_bytes=400, max_files=3)
    exchange = Exchange("GET", "/v1/me", {}, None, 200, {"content-type": "application/json"}, b'{"apiKeyName":"k"}')
    for _ in range(20):
        recorder.exchange(exchange)
    files = recorder.files
    assert len(files) == 3 and files[-1].name.endswith("-0010.jsonl")
    assert all(stat.S_IMODE(path.stat().st_mode) == 0o600 for path in files)
    assert stat.S_IMODE((tmp_path / "trace").stat().st_mode) == 0o700
    assert all(path.stat().st_size <= 400 for path in files)


async def test_a_recorded_session_replays_with_identical_answers_and_stream(tmp_path: Path) -> None:
    """Issue 15: `simulate --replay` serves answers and streams as recorded, ids included."""
    clock = ManualClock()
    world = build_scenario("demo", clock)
    recorder = Recorder(tmp_path, mask=str, keep_text=True)

    async def session(base_url: str, observer: Recorder | None) -> list[object]:
        async with CursorClient(base_url, "any-key-works-here", observer=observer) as api:
            agents = await api.list_agents(limit=3)
            agent = agents.items[0]
            assert agent.latest_run_id is not None
            run = await api.get_run(agent.id, agent.latest_run_id)
            frames: list[tuple[str, str, str | None]] = []
            with anyio.fail_after(10):
                async with api.stream_run(agent.id, run.id) as stream:
                    frames = [(raw.event, raw.data, raw.id) async for raw in stream.raw_events()]
            return [agents.model_dump(), run.model_dump(), frames, (await api.me()).model_dump()]

    world.add_api_key("any-key-works-here", "Replay key")
    async with serve(world) as sim:
        recorded = await session(sim.base_url, recorder)
    async with serve_replay(tmp_path) as base_url:
        replayed = await session(base_url, None)
    assert replayed == recorded


class _Listener:
    """An observer noting what it heard and the deadline it heard it under, optionally failing as a broken
    recorder would."""

    def __init__(self, *, fail: bool = False) -> None:
        self.fail = fail
        self.heard: list[tuple[str, float]] = []

    def exchange(self, exchange: Exchange) -> None:
        self._heard(exchange.path)

    def stream(self, exchange: StreamExchange) -> None:
        self._heard(exchange.path)

    def _heard(self, path: str) -> None:
        self.heard.append((path, anyio.current_effective_deadline()))
        if self.fail:
            raise RuntimeError("the recorder broke")


def _answers(request: httpx2.Request) -> httpx2.Response:
    if request.url.path.endswith("/stream"):
        return httpx2.Response(
            200, headers={"content-type": "text/event-stream"}, content=b"event: status\ndata: {}\n\n"
        )
    return httpx2.Response(200, json={"apiKeyName": "k"})


async def test_the_observer_hears_an_answer_outside_the_requests_deadline() -> None:
    """Review: the observer ran inside the request's `fail_after`; its JSON, masking and file work could pass
    the deadline and turn a fully read POST answer into an unknown outcome."""
    listener = _Listener()
    async with make_client(_answers, observer=listener) as api:
        await api.me()
    assert listener.heard == [("/v1/me", math.inf)]


async def test_an_observer_that_fails_never_fails_the_call() -> None:
    """Review: an observer must never fail the call it heard (answers and streams alike)."""
    listener = _Listener(fail=True)
    async with make_client(_answers, observer=listener) as api:
        me = await api.me()
        async with api.stream_run(AGENT, RUN) as stream:
            frames = [raw.event async for raw in stream.raw_events()]
    assert me.api_key_name == "k" and frames == ["status"]
    assert [path for path, _ in listener.heard] == ["/v1/me", f"/v1/agents/{AGENT}/runs/{RUN}/stream"]
