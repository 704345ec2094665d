"""The synchronous classes (`sdk/_sync.py`): acceptance against an independent mock of the API, and their loop."""

from __future__ import annotations

import asyncio

from cursor_cloud_agents.sdk import Agent, AssistantMessage, Cursor, Run
from tests.sdk.conftest import ProgramEnvironment
from tests.sdk.mockapi import ASSISTANT_PIECES, RESULT_TEXT, mock_api


def test_a_program_with_only_key_and_base_url_creates_sends_and_waits_for_the_mocks_result(
    program_environment: ProgramEnvironment,
) -> None:
    """Acceptance: Agent.create + send + run.wait() end with the mock's text after one POST /v1/agents; a second
    send makes one POST .../runs; run.stream() yields the assistant's text (default client, from the environment)."""
    with mock_api(finish_on_read=False) as api:
        program_environment(api.base_url)
        agent = Agent.create(name="acceptance")
        assert api.count("POST *") == 0  # creating the object sends nothing: its id is minted here
        run = agent.send("Do the work")
        assert run.wait().result == RESULT_TEXT
        assert api.count("POST /v1/agents") == 1
        assert run.agent_id == agent.agent_id

        second = agent.send("And the rest")
        assert api.count(f"POST /v1/agents/{agent.agent_id}/runs") == 1
        assert api.count("POST /v1/agents") == 1
        assert second.wait().result == RESULT_TEXT

        texts = [message.text for message in run.stream() if isinstance(message, AssistantMessage)]
        assert "".join(texts) == "".join(ASSISTANT_PIECES)


def test_agent_prompt_returns_the_result_in_one_call(program_environment: ProgramEnvironment) -> None:
    """Acceptance: Agent.prompt creates the agent and waits for the mock's result, one POST."""
    with mock_api(finish_on_read=False) as api:
        program_environment(api.base_url)
        result = Agent.prompt("One shot")
        assert (result.status, result.result, result.duration_ms) == ("FINISHED", RESULT_TEXT, 1234)
        assert api.count("POST /v1/agents") == 1


def test_a_run_still_running_is_waited_for_on_the_cursors_clock(program_environment: ProgramEnvironment) -> None:
    """run.wait() reads a RUNNING run at once, then again until it ends, pausing on the injected clock (no real
    sleep): a run found ended at the first read is answered without a pause."""
    from cursor_cloud_agents.core.timing import Clock

    paused: list[float] = []

    async def pause(seconds: float) -> None:
        paused.append(seconds)

    with mock_api(finish_on_read=True, reads_to_finish=2) as api:
        program_environment(api.base_url)
        with Cursor(clock=Clock(sleep=pause)) as cursor:
            run = Agent.create(client=cursor).send("Work")
            assert run.status == "RUNNING"
            assert run.wait().result == RESULT_TEXT
    assert len(paused) == 1


def test_the_sync_classes_work_inside_a_running_event_loop() -> None:
    """A sync call from a coroutine (a notebook, an async framework) runs on the Cursor's own loop thread."""

    async def inside() -> str:
        with Cursor(simulated=True) as cursor:
            return Agent.prompt("From inside a loop", client=cursor).status

    assert asyncio.run(inside()) == "FINISHED"


def test_a_closed_cursor_refuses_calls_and_closing_twice_is_harmless() -> None:
    cursor = Cursor(simulated=True)
    cursor.close()
    cursor.close()
    assert "closed" in repr(cursor)
    try:
        cursor.me()
    except RuntimeError as refused:
        assert "closed" in str(refused)
    else:
        raise AssertionError("a closed Cursor answered")


def test_leaving_a_stream_early_stops_it_and_the_cursor_goes_on() -> None:
    with Cursor(simulated=True) as cursor:
        run = Agent.create(client=cursor).send("Work")
        first = next(iter(run.stream()))
        assert first.type == "status"
        assert run.wait().finished
        assert isinstance(Run.get(run.agent_id, run.id, client=cursor), Run)


def test_closing_a_cursor_with_a_stream_still_open_stops_it_cleanly() -> None:
    """The stream's task is cancelled as the loop stops; the iterator dropped later releases what it held."""
    cursor = Cursor(simulated=True)
    messages = iter(Agent.create(client=cursor).send("Work").stream())
    assert next(messages).type == "status"
    cursor.close()
    del messages  # finalized after its loop stopped: nothing left pending, no warning (warnings are errors here)
