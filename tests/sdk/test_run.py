"""`AsyncRun` (`sdk/_run.py`): waiting, streaming (resumed after a drop), cancelling and the conversation."""

from __future__ import annotations

import pytest

from cursor_cloud_agents.sdk import (
    AssistantMessage,
    AsyncAgent,
    Code,
    StatusMessage,
    SummaryMessage,
    ThinkingMessage,
    ToolCallMessage,
    ToolFailure,
)
from cursor_cloud_agents.simulator import Fault, Faults, RunScript
from tests.sdk.rig import sdk_rig

pytestmark = pytest.mark.anyio

SCRIPT = RunScript(running_seconds=40.0, text="First sentence. Second sentence. Third sentence.")


async def test_s74_a_stream_cut_mid_run_resumes_without_duplicates() -> None:
    """S-74: the live stream breaks twice mid-run; run.stream() resumes with Last-Event-ID and yields every message
    once: what an unbroken replay of the same run yields afterwards (each status said once, as it changed)."""
    faults = Faults()
    faults.inject("GET", "/v1/agents/*/runs/*/stream", Fault.cut_mid_body(after_bytes=900), times=2)
    async with sdk_rig(faults) as rig:
        rig.world.default_script = SCRIPT
        run = await (await AsyncAgent.create(client=rig.cursor)).send("Work")
        resumed = [message async for message in run.stream()]
        whole = [message async for message in run.stream()]
        streams = [r for r in faults.requests if r.method == "GET" and r.path.endswith("/stream")]
    assert len(streams) == 4 and all(r.headers.get("last-event-id") for r in streams[1:3])
    assert [m for m in resumed if not isinstance(m, StatusMessage)] == [
        m for m in whole if not isinstance(m, StatusMessage)
    ]
    statuses = [m.status for m in resumed if isinstance(m, StatusMessage)]
    assert statuses[-1] == "FINISHED" and all(a != b for a, b in zip(statuses, statuses[1:], strict=False))
    assert {type(message) for message in whole} == {
        StatusMessage,
        ThinkingMessage,
        AssistantMessage,
        ToolCallMessage,
        SummaryMessage,
    }


async def test_the_summary_arrives_with_its_text_when_it_completes() -> None:
    async with sdk_rig() as rig:
        run = await (await AsyncAgent.create(client=rig.cursor)).send("Work")
        summaries = [message async for message in run.stream() if isinstance(message, SummaryMessage)]
    assert [(s.status, s.text) for s in summaries] == [
        ("running", ""),
        ("completed", "Read the repository and made the requested change."),
    ]


async def test_r75_cancel_on_a_finished_run_sends_nothing_and_leaves_it_finished() -> None:
    """R-75: run.cancel() on a run that has ended reads it and sends no cancel; its result stays as it was."""
    async with sdk_rig() as rig:
        run = await (await AsyncAgent.create(client=rig.cursor)).send("Work")
        result = await run.wait()
        await run.cancel()
        assert rig.posts("/v1/agents/*/runs/*/cancel") == 0
        assert run.status == "FINISHED" and await run.wait() == result


async def test_cancel_on_a_running_run_stops_it() -> None:
    async with sdk_rig() as rig:
        run = await (await AsyncAgent.create(client=rig.cursor)).send("Work")
        await run.cancel()
        assert rig.posts("/v1/agents/*/runs/*/cancel") == 1
        assert (await run.wait()).status == "CANCELLED"


async def test_wait_with_a_timeout_says_the_run_goes_on() -> None:
    async with sdk_rig() as rig:
        rig.world.default_script = RunScript(running_seconds=3600.0)
        run = await (await AsyncAgent.create(client=rig.cursor)).send("Work")
        with pytest.raises(ToolFailure) as timed_out:
            await run.wait(timeout=30)
        assert timed_out.value.code == Code.TIMEOUT and "goes on" in timed_out.value.message
        assert run.status in ("CREATING", "RUNNING")


async def test_text_is_the_final_text_and_iter_text_the_reply_as_written_k_43() -> None:
    """K-43: `run.text()` is the run's result (as in Cursor's SDK: it waits for the end), `run.iter_text()` the
    assistant's reply piece by piece as it is written."""
    async with sdk_rig() as rig:
        rig.world.default_script = SCRIPT
        run = await (await AsyncAgent.create(client=rig.cursor)).send("Work")
        assert "".join([piece async for piece in run.iter_text()]) == SCRIPT.text + SCRIPT.result
        assert await run.text() == SCRIPT.result
        result = await run.wait()
        assert result.result == SCRIPT.result and result.duration_ms == 42_000  # creating 2 s, running 40 s
        conversation = await run.conversation()
        assert [message.text for message in conversation][0] == "Work"


async def test_a_run_that_ends_in_error_says_so_in_its_result() -> None:
    async with sdk_rig() as rig:
        run = await (await AsyncAgent.create(client=rig.cursor)).send("Work [sim:error]")
        result = await run.wait()
        assert result.status == "ERROR" and not result.finished
