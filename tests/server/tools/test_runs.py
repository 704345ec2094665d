"""cursor_list_runs, cursor_get_run and cursor_cancel_run end to end against the simulator."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cursor_cloud_agents.core.timing import CANCEL_REREADS, READ_RESERVE
from cursor_cloud_agents.server.tools import runs
from cursor_cloud_agents.simulator import SIMULATED_API_KEY, Fault, Faults, ManualClock, Quirks, RunScript, World
from cursor_cloud_agents.simulator import build_scenario as build_world
from tests.tool_harness import OpenHarness

pytestmark = pytest.mark.anyio


def world_with(script: RunScript, *, created_ago: float = 0.0, quirks: Quirks | None = None) -> tuple[World, str, str]:
    """A world holding one agent whose single run follows `script`; returns the world and the ids."""
    world = World(ManualClock(), quirks=quirks)
    agent = world.add_agent("Add a README", script=script, created_ago=created_ago)
    return world, agent.id, agent.runs[-1].id


def run_reads(requests: list[Any], run_id: str) -> int:
    return sum(1 for record in requests if record.path.endswith(f"/runs/{run_id}"))


# --- cursor_list_runs ----------------------------------------------------------------------------


async def test_list_runs_pages_with_an_exact_next_cursor_newest_first(harness_factory: OpenHarness) -> None:
    """Reference: one page per call; has_more is false when nextCursor is absent (docs/api-contract.md §3.8)."""
    world = World(ManualClock())
    agent = world.add_agent("Many runs", scripts=[RunScript()] * 6, created_ago=86400)
    expected = [run.id for run in reversed(agent.runs)]
    async with harness_factory(world) as h:
        seen: list[str] = []
        cursor: str | None = None
        for _ in range(10):
            reply = await h.call(
                "cursor_list_runs", {"agent_id": agent.id, "limit": 3} | ({"cursor": cursor} if cursor else {})
            )
            assert not reply.is_error
            seen += [row["run_id"] for row in reply.data["runs"]]
            cursor = reply.data.get("next_cursor")
            assert reply.data["has_more"] is (cursor is not None)
            if cursor is None:
                break
    assert seen == expected


async def test_list_runs_shows_result_length_not_result_text(harness_factory: OpenHarness) -> None:
    """Rows stay bounded: the result (agent text, possibly 200 KB) is read with cursor_get_run."""
    world, agent_id, run_id = world_with(RunScript(result="R" * 5000), created_ago=3600)
    async with harness_factory(world) as h:
        reply = await h.call("cursor_list_runs", {"agent_id": agent_id})
    assert reply.data["runs"] == [
        {
            "run_id": run_id,
            "status": "FINISHED",
            "created_at": reply.data["runs"][0]["created_at"],
            "updated_at": reply.data["runs"][0]["updated_at"],
            "duration_ms": 32000,
            "result_chars": 5000,
        }
    ]
    assert reply.data["has_more"] is False


async def test_list_runs_under_a_small_cap_asks_the_api_for_fewer_rows(harness_factory: OpenHarness) -> None:
    """Results fit the cap by construction: the page size shrinks and next_cursor stays the API's own."""
    world = World(ManualClock())
    agent = world.add_agent("Many runs", scripts=[RunScript()] * 40, created_ago=86400 * 3)
    async with harness_factory(world, max_result_bytes=4000) as h:
        reply = await h.call("cursor_list_runs", {"agent_id": agent.id, "limit": 100})
        sent = h.requests("GET")[-1]
    assert not reply.is_error and reply.size <= 4000
    used: int = reply.data["limit_used"]
    assert used < 41 and len(reply.data["runs"]) == used
    assert f"limit={used}" in sent.query
    assert reply.data["next_cursor"] == agent.runs[-1 - used].id


async def test_list_runs_of_an_unknown_agent_is_not_found(harness_factory: OpenHarness) -> None:
    """docs/api-contract.md §3.8: 404 for an unknown agent, mapped to NOT_FOUND."""
    async with harness_factory() as h:
        reply = await h.call("cursor_list_runs", {"agent_id": "bc-00000000-0000-4000-8000-000000000009"})
    assert reply.code == "NOT_FOUND"


# --- cursor_get_run: state ---------------------------------------------------------------------


async def test_get_run_shows_state_result_and_branches_as_the_agents_current_state(
    harness_factory: OpenHarness,
) -> None:
    """docs/api-contract.md §3.9 and quirk 9: git is per agent, without SHA; the answer says so and invents none."""
    world, agent_id, run_id = world_with(RunScript(), created_ago=3600)
    async with harness_factory(world) as h:
        reply = await h.call("cursor_get_run", {"agent_id": agent_id, "run_id": run_id})
        paths = [record.path for record in h.requests()]
    data = reply.data
    assert (data["status"], data["result"]) == ("FINISHED", "Done: the change is committed on the agent's branch.")
    assert data["branches"][0]["repo"] == "github.com/your-org/your-repo"
    assert data["branches"][0]["branch"].startswith("cursor/")
    assert "not a snapshot" in data["git_note"] and "sha" not in str(data["branches"]).lower()
    assert "activity" not in data and "timed_out" not in data
    assert not any(path.endswith("/stream") for path in paths)


async def test_get_run_of_a_running_run_hides_its_frozen_updated_at(harness_factory: OpenHarness) -> None:
    """Quirk 2: a RUNNING run keeps the updatedAt of its creation, so it is not shown as news."""
    world, agent_id, run_id = world_with(RunScript(running_seconds=600), created_ago=60)
    async with harness_factory(world) as h:
        reply = await h.call("cursor_get_run", {"agent_id": agent_id, "run_id": run_id})
    assert reply.data["status"] == "RUNNING"
    assert "updated_at" not in reply.data and "result" not in reply.data and "timed_out" not in reply.data


async def test_get_run_of_an_error_run_without_cause_adds_activity_and_says_why(harness_factory: OpenHarness) -> None:
    """Quirk 3 and reference: an ERROR run with no result gets the activity summary automatically."""
    world, agent_id, run_id = world_with(RunScript(outcome="ERROR"), created_ago=3600)
    async with harness_factory(world) as h:
        reply = await h.call("cursor_get_run", {"agent_id": agent_id, "run_id": run_id})
        paths = [record.path for record in h.requests()]
    assert reply.data["status"] == "ERROR"
    assert "activity" in reply.data and "no cause" in reply.data["note"]
    assert paths[-1] == f"/v1/agents/{agent_id}/runs/{run_id}/stream"
    assert "error" not in reply.data and "result" not in reply.data


async def test_get_run_with_activity_false_never_adds_a_summary(harness_factory: OpenHarness) -> None:
    """Reference: activity=false never reads the stream, even for an ERROR run without result."""
    world, agent_id, run_id = world_with(RunScript(outcome="ERROR"), created_ago=3600)
    async with harness_factory(world) as h:
        reply = await h.call("cursor_get_run", {"agent_id": agent_id, "run_id": run_id, "activity": False})
        paths = [record.path for record in h.requests()]
    assert "activity" not in reply.data
    assert not any(path.endswith("/stream") for path in paths)


async def test_get_run_with_activity_true_adds_it_to_a_finished_run(harness_factory: OpenHarness) -> None:
    """Reference: activity=true adds the summary even when the run has a result."""
    world, agent_id, run_id = world_with(RunScript(), created_ago=3600)
    async with harness_factory(world) as h:
        reply = await h.call("cursor_get_run", {"agent_id": agent_id, "run_id": run_id, "activity": True})
    assert "activity" in reply.data and reply.data["result"]


async def test_get_run_shows_the_runs_error_when_the_api_gives_one(harness_factory: OpenHarness) -> None:
    """docs/api-contract.md §2 Run.error: shown as {message, code} when present (quirk switched off)."""
    quirks = Quirks(error_runs_without_cause=False)
    world, agent_id, run_id = world_with(RunScript(outcome="ERROR"), created_ago=3600, quirks=quirks)
    async with harness_factory(world) as h:
        reply = await h.call("cursor_get_run", {"agent_id": agent_id, "run_id": run_id})
    assert reply.data["error"] == {
        "message": "The agent stopped because of an internal error.",
        "code": "internal_error",
    }
    assert "note" not in reply.data and "activity" not in reply.data


async def test_get_run_refuses_a_malformed_id_before_sending(harness_factory: OpenHarness) -> None:
    """The tool contract: ids are checked before any request is built."""
    async with harness_factory() as h:
        reply = await h.call("cursor_get_run", {"agent_id": "bc-../../v1/me", "run_id": "run-x"})
        assert h.requests() == []
    assert reply.code == "VALIDATION"


async def test_get_run_of_an_unknown_run_is_not_found(harness_factory: OpenHarness) -> None:
    """docs/api-contract.md §3.9: 404 run_not_found."""
    world, agent_id, _ = world_with(RunScript(), created_ago=3600)
    async with harness_factory(world) as h:
        reply = await h.call(
            "cursor_get_run", {"agent_id": agent_id, "run_id": "run-00000000-0000-4000-8000-000000000009"}
        )
    assert reply.code == "NOT_FOUND" and reply.data["upstream_code"] == "run_not_found"


# --- cursor_get_run: waiting -------------------------------------------------------------------


async def test_get_run_waits_until_terminal_with_progress_at_every_reread(harness_factory: OpenHarness) -> None:
    """Reference: wait_seconds re-reads until a terminal status, reporting each re-read; issue 11: at the wait
    cadence (2.5 s), so an end is noticed within 3 s (it was up to 5 s late)."""
    world, agent_id, run_id = world_with(RunScript(creating_seconds=2, running_seconds=20))
    started = world.clock.now()
    async with harness_factory(world) as h:
        reply = await h.call("cursor_get_run", {"agent_id": agent_id, "run_id": run_id, "wait_seconds": 50})
        reads = run_reads(h.requests("GET"), run_id)
    assert reply.data["status"] == "FINISHED" and reply.data["result"]
    assert "timed_out" not in reply.data
    assert world.clock.now() - started == 22.5  # nine pauses of 2.5 s: the run ends at 22 s
    assert reads == 10 and len(h.progress) == reads
    assert h.progress[-1].startswith("run FINISHED")


async def test_get_run_answers_timed_out_when_the_run_outlives_the_wait(harness_factory: OpenHarness) -> None:
    """Reference: timed_out when the run continues; the caller calls again."""
    world, agent_id, run_id = world_with(RunScript(running_seconds=3600))
    started = world.clock.now()
    async with harness_factory(world) as h:
        reply = await h.call("cursor_get_run", {"agent_id": agent_id, "run_id": run_id, "wait_seconds": 12})
        reads = run_reads(h.requests("GET"), run_id)
    assert reply.data["timed_out"] is True and reply.data["status"] == "RUNNING"
    assert world.clock.now() - started == 12
    assert reads == 6 and len(h.progress) == 6  # pauses of 2.5 s four times, then 2 s


async def test_get_run_stops_waiting_when_the_call_budget_runs_short(harness_factory: OpenHarness) -> None:
    """The tool contract: the answer comes inside the call budget; a short budget ends the wait early."""
    world, agent_id, run_id = world_with(RunScript(running_seconds=3600))
    async with harness_factory(world, max_call_seconds=READ_RESERVE + 1.0) as h:
        reply = await h.call("cursor_get_run", {"agent_id": agent_id, "run_id": run_id, "wait_seconds": 50})
        reads = run_reads(h.requests("GET"), run_id)
    assert reply.data["timed_out"] is True
    assert reads == 1


async def testget_run_budget_covers_the_wait() -> None:
    """The budget grows with wait_seconds (the toolkit caps it at CURSOR_MCP_MAX_CALL_SECONDS)."""
    assert runs.get_run_budget({"wait_seconds": 50, "activity": None}) >= 50 + READ_RESERVE


# --- cursor_get_run: slicing -------------------------------------------------------------------


async def read_all_slices(h: Any, agent_id: str, run_id: str, cap: int, **extra: Any) -> tuple[str, int]:
    pieces: list[str] = []
    offset: int | None = 0
    calls = 0
    while offset is not None:
        reply = await h.call(
            "cursor_get_run", {"agent_id": agent_id, "run_id": run_id, "result_offset": offset} | extra
        )
        assert not reply.is_error, reply.data
        assert reply.size <= cap
        pieces.append(reply.data["result"])
        offset = reply.data.get("result_next_offset")
        calls += 1
        assert calls < 200
    return "".join(pieces), calls


async def test_a_200_kb_result_comes_in_slices_that_fit_the_cap_and_reassemble(harness_factory: OpenHarness) -> None:
    """Issue 5: result slicing always respects CURSOR_MCP_MAX_RESULT_BYTES (scenario `huge`)."""
    world = build_world("huge", ManualClock())
    agent = next(iter(world.agents.values()))
    expected = agent.runs[-1].script.result
    assert len(expected) == 200_000
    async with harness_factory(world, max_result_bytes=8000) as h:
        text, calls = await read_all_slices(h, agent.id, agent.runs[-1].id, 8000, result_limit=20_000)
    assert text == expected
    assert calls >= 25  # the cap, not result_limit, set the slice size


async def test_slices_of_escaped_and_multibyte_text_fit_and_reassemble(harness_factory: OpenHarness) -> None:
    """JSON escapes and UTF-8 widths are counted: quotes, newlines, accents, CJK and emoji."""
    unit = 'ligne "citée"\n\\ été 漢字 🚀\t'
    world, agent_id, run_id = world_with(RunScript(result=unit * 2000), created_ago=3600)
    async with harness_factory(world, max_result_bytes=4000) as h:
        text, _ = await read_all_slices(h, agent_id, run_id, 4000)
    assert text == unit * 2000


async def test_result_limit_bounds_a_slice_below_the_cap(harness_factory: OpenHarness) -> None:
    """Reference: result_offset/result_limit slice the result locally."""
    world, agent_id, run_id = world_with(RunScript(result="0123456789" * 10), created_ago=3600)
    async with harness_factory(world) as h:
        reply = await h.call(
            "cursor_get_run", {"agent_id": agent_id, "run_id": run_id, "result_offset": 15, "result_limit": 10}
        )
    assert reply.data["result"] == "5678901234"
    assert (reply.data["result_chars"], reply.data["result_next_offset"]) == (100, 25)


async def test_a_result_offset_past_the_end_is_refused(harness_factory: OpenHarness) -> None:
    """An offset past the end is a VALIDATION error naming the length, not an empty answer."""
    world, agent_id, run_id = world_with(RunScript(result="short"), created_ago=3600)
    async with harness_factory(world) as h:
        reply = await h.call("cursor_get_run", {"agent_id": agent_id, "run_id": run_id, "result_offset": 6})
    assert reply.code == "VALIDATION" and "5 characters" in reply.data["message"]


async def test_a_secret_in_a_result_is_masked_whole_even_across_a_slice_boundary(harness_factory: OpenHarness) -> None:
    """docs/architecture.md point 8: the text is masked before it is cut, so no slice holds a piece of the key."""
    result = "x" * 100 + SIMULATED_API_KEY + "y" * 100
    world, agent_id, run_id = world_with(RunScript(result=result), created_ago=3600)
    async with harness_factory(world) as h:
        text, calls = await read_all_slices(h, agent_id, run_id, 38_000, result_limit=110)
    assert calls == 2
    assert text == "x" * 100 + "***" + "y" * 100
    assert SIMULATED_API_KEY[:10] not in text


async def test_hidden_characters_are_removed_before_slicing(harness_factory: OpenHarness) -> None:
    """docs/architecture.md point 7: invisible and bidi characters never reach the model; offsets count clean text."""
    world, agent_id, run_id = world_with(RunScript(result="a\u202eb\u200bc" * 10), created_ago=3600)
    async with harness_factory(world) as h:
        reply = await h.call("cursor_get_run", {"agent_id": agent_id, "run_id": run_id, "result_limit": 4})
    assert reply.data["result"] == "abca" and reply.data["result_chars"] == 30


# --- cursor_cancel_run -------------------------------------------------------------------------


async def cancel(harness_factory: OpenHarness, world: World, agent_id: str, run_id: str, **options: Any) -> Any:
    async with harness_factory(world, **options) as h:
        reply = await h.call("cursor_cancel_run", {"agent_id": agent_id, "run_id": run_id})
        return reply, h.requests("POST"), run_reads(h.requests("GET"), run_id)


async def test_cancel_confirms_only_a_cancelled_state_it_read(harness_factory: OpenHarness) -> None:
    """Reference: outcome cancelled with outcome_confirmed true after re-reading CANCELLED."""
    world, agent_id, run_id = world_with(RunScript(running_seconds=600), created_ago=60)
    reply, posts, reads = await cancel(harness_factory, world, agent_id, run_id)
    assert reply.data["outcome"] == "cancelled" and reply.data["outcome_confirmed"] is True
    assert reply.data["status"] == "CANCELLED"
    assert [post.path for post in posts] == [f"/v1/agents/{agent_id}/runs/{run_id}/cancel"]
    assert reads == 1


async def test_cancel_rereads_while_the_asynchronous_cancel_is_pending(harness_factory: OpenHarness) -> None:
    """Quirk 12: right after the 200 the run can still read RUNNING; the tool re-reads until it ends."""
    quirks = Quirks(cancel_delay_seconds=5.0)
    world, agent_id, run_id = world_with(RunScript(running_seconds=600), created_ago=60, quirks=quirks)
    reply, _, reads = await cancel(harness_factory, world, agent_id, run_id)
    assert reply.data["outcome"] == "cancelled" and reply.data["outcome_confirmed"] is True
    assert reads == 3  # RUNNING at 2 s and 4 s, CANCELLED at 6 s


async def test_cancel_reports_still_running_when_rereads_never_see_the_end(harness_factory: OpenHarness) -> None:
    """Reference: still_running after a few re-reads, never claimed as cancelled."""
    quirks = Quirks(cancel_delay_seconds=120.0)
    world, agent_id, run_id = world_with(RunScript(running_seconds=600), created_ago=60, quirks=quirks)
    reply, _, reads = await cancel(harness_factory, world, agent_id, run_id)
    assert reply.data["outcome"] == "still_running" and reply.data["outcome_confirmed"] is False
    assert reply.data["status"] == "RUNNING" and reads == CANCEL_REREADS


async def test_cancel_racing_the_runs_own_end_reports_ended_without_cancel(harness_factory: OpenHarness) -> None:
    """Reference: FINISHED during the race is ended_without_cancel, not cancelled."""
    world, agent_id, run_id = world_with(RunScript(creating_seconds=2, running_seconds=30), created_ago=31)
    reply, _, _ = await cancel(harness_factory, world, agent_id, run_id)
    assert reply.data["outcome"] == "ended_without_cancel" and reply.data["status"] == "FINISHED"
    assert reply.data["outcome_confirmed"] is False


async def test_cancel_of_an_ended_run_reads_it_and_reports_its_real_state(harness_factory: OpenHarness) -> None:
    """docs/api-contract.md §3.10: 409 run_not_cancellable for a terminal run; the tool says what state it is in."""
    world, agent_id, run_id = world_with(RunScript(outcome="ERROR"), created_ago=3600)
    reply, posts, reads = await cancel(harness_factory, world, agent_id, run_id)
    assert not reply.is_error
    assert (reply.data["outcome"], reply.data["status"]) == ("ended_without_cancel", "ERROR")
    assert "already ended" in reply.data["message"] and reply.data["outcome_confirmed"] is False
    assert len(posts) == 1 and reads == 1


async def test_cancel_reports_unknown_when_the_run_cannot_be_reread(harness_factory: OpenHarness) -> None:
    """Reference: unknown when no re-read succeeds (here every GET of the run fails)."""
    world, agent_id, run_id = world_with(RunScript(running_seconds=600), created_ago=60)
    faults = Faults()
    faults.inject("GET", "/v1/agents/{id}/runs/{runId}", Fault.server_error(503), times=None)
    reply, _, _ = await cancel(harness_factory, world, agent_id, run_id, faults=faults)
    assert reply.data["outcome"] == "unknown" and reply.data["outcome_confirmed"] is False
    assert "status" not in reply.data


async def test_cancel_cut_after_sending_is_an_unknown_mutation_outcome(harness_factory: OpenHarness) -> None:
    """docs/architecture.md: a mutation cut after sending is MUTATION_OUTCOME_UNKNOWN with the ids, never retried."""
    world, agent_id, run_id = world_with(RunScript(running_seconds=600), created_ago=60)
    faults = Faults()
    faults.inject("POST", "/v1/agents/{id}/runs/{runId}/cancel", Fault.cut_after_request())
    reply, posts, _ = await cancel(harness_factory, world, agent_id, run_id, faults=faults)
    assert reply.code == "MUTATION_OUTCOME_UNKNOWN"
    assert (reply.data["agent_id"], reply.data["run_id"]) == (agent_id, run_id)
    assert len(posts) == 1


async def test_cancel_with_writes_off_is_refused_and_sends_nothing(harness_factory: OpenHarness) -> None:
    """Reference: cancellation needs CURSOR_MCP_ALLOW_WRITES=1."""
    world, agent_id, run_id = world_with(RunScript(running_seconds=600), created_ago=60)
    reply, posts, reads = await cancel(harness_factory, world, agent_id, run_id, allow_writes=False)
    assert reply.code == "READ_ONLY" and posts == [] and reads == 0


async def test_a_lone_surrogate_in_a_result_is_replaced_not_a_crash(harness_factory: OpenHarness) -> None:
    """A JSON `\\ud800` escape decodes to a lone surrogate, which UTF-8 cannot carry: it is dropped, as the
    cleaning of agent text drops it everywhere (one rule since the answer builder, issue 10)."""
    world, agent_id, run_id = world_with(RunScript(), created_ago=3600)
    body = json.dumps({"id": run_id, "agentId": agent_id, "status": "FINISHED\ud800", "result": "a\ud800b"})
    faults = Faults()
    faults.inject("GET", "/v1/agents/{id}/runs/{runId}", Fault.raw(200, body))
    async with harness_factory(world, faults=faults) as h:
        reply = await h.call("cursor_get_run", {"agent_id": agent_id, "run_id": run_id})
    assert not reply.is_error
    assert (reply.data["result"], reply.data["status"]) == ("ab", "FINISHED")


async def test_the_result_slice_leaves_room_for_the_activity_summary(harness_factory: OpenHarness) -> None:
    """The room for the result is what the rest of the answer (activity included) leaves under the cap."""
    world = build_world("huge", ManualClock())
    agent = next(iter(world.agents.values()))
    async with harness_factory(world, max_result_bytes=6000) as h:
        args = {"agent_id": agent.id, "run_id": agent.runs[-1].id, "activity": True, "result_limit": 20_000}
        reply = await h.call("cursor_get_run", args)
    assert not reply.is_error and reply.size <= 6000
    assert reply.data["activity"] and reply.data["result"]
    assert reply.data["result_next_offset"] == len(reply.data["result"])


async def test_a_cancel_asked_again_after_a_cut_reads_the_run_and_reports_it_cancelled(
    harness_factory: OpenHarness,
) -> None:
    """docs/reliability.md F-25: the first cancel is cut after it reached the API (outcome unknown, not retried); asked
    again, the API answers 409 run_not_cancellable, and the tool reads the run and reports its real state."""
    world, agent_id, run_id = world_with(RunScript(running_seconds=600), created_ago=60)
    faults = Faults()
    faults.inject("POST", "/v1/agents/{id}/runs/{runId}/cancel", Fault.cut_after_request())
    async with harness_factory(world, faults=faults) as h:
        first = await h.call("cursor_cancel_run", {"agent_id": agent_id, "run_id": run_id})
        again = await h.call("cursor_cancel_run", {"agent_id": agent_id, "run_id": run_id})
        posts = h.requests("POST")
    assert first.code == "MUTATION_OUTCOME_UNKNOWN"
    assert not again.is_error, again.data
    assert (again.data["outcome"], again.data["status"]) == ("cancelled", "CANCELLED")
    assert len(posts) == 2
