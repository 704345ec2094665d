"""The watch at work against hand-written stand-ins: a restart never re-sends, a lost answer is not paid twice,
a fix behind the watch's own run goes through the queue, the spend limit holds, a rate limit is waited out
(docs/pr-loop.md §2)."""

from __future__ import annotations

from pathlib import Path

import httpx2
import pytest

from cursor_cloud_agents.config import Secret, Settings
from cursor_cloud_agents.core import CoreState, PrWatch, WatchRecord, fresh_watch, keep_watching, load_watch
from cursor_cloud_agents.core.pr.decide import Event
from cursor_cloud_agents.core.timing import API_CREATION_SECONDS, Clock
from cursor_cloud_agents.github import GitHubReader, PullRef
from cursor_cloud_agents.redact import Redactor
from tests.pr_stand_ins import AGENT, PR_URL, CursorStandIn, FakeClock, GitHubStandIn, Head, check_run, comment

pytestmark = pytest.mark.anyio

S1, S2 = "1" * 40, "2" * 40
REF = PullRef("your-org", "your-repo", 7)


def rig(clock: FakeClock, cursor: CursorStandIn, github: GitHubStandIn, env: dict[str, str]) -> CoreState:
    settings = Settings.from_env({"CURSOR_API_KEY": "key_stand_in"} | env)
    return CoreState(settings, Redactor(), Clock(now=clock.now, sleep=clock.sleep), client=cursor.client())


def a_watch(state: CoreState, github: GitHubStandIn, record: WatchRecord | None = None) -> PrWatch:
    reader = GitHubReader(
        "https://api.github.com", Secret("ghp_standin"), transport=github.transport(), now=state.clock.now
    )
    kept = record if record is not None else fresh_watch(AGENT, REF.short, PR_URL, max_fixes=3, resolve_conflicts=False)
    return PrWatch(state, reader, REF, kept)


def failing(sha: str, text: str = "boom") -> Head:
    return Head(sha, [check_run("test", "failure", text)])


async def test_a_restarted_watch_goes_on_from_the_store_and_never_sends_a_fix_twice_g_12(tmp_path: Path) -> None:
    clock = FakeClock()
    cursor, github = CursorStandIn(clock), GitHubStandIn(clock, failing(S1))
    env = {"CURSOR_MCP_STATE_DIR": str(tmp_path)}
    first = a_watch(rig(clock, cursor, github, env), github)
    await first.tick()
    assert len(cursor.posts) == 1
    await clock.sleep(5)
    restarted = rig(clock, cursor, github, env)  # a new process: its own state, the same store on disk
    kept = await load_watch(restarted.store, AGENT, clock.now())
    assert kept is not None and kept.fixes == 1 and f"checks:{S1}" in kept.handled
    again = a_watch(restarted, github, kept)
    events = await again.tick() + await again.tick()
    assert len(cursor.posts) == 1 and [event["event"] for event in events] == []


async def test_a_fix_whose_answer_was_lost_is_found_again_not_paid_twice_g_12(tmp_path: Path) -> None:
    clock = FakeClock()
    cursor, github = CursorStandIn(clock), GitHubStandIn(clock, failing(S1))
    answered = cursor.handle

    def cut_after_the_post(request: httpx2.Request) -> httpx2.Response:
        response = answered(request)
        if request.method == "POST":
            raise httpx2.ReadError("connection reset after the POST left")
        return response

    cursor.handle = cut_after_the_post  # type: ignore[method-assign]  # the stand-in's answer is lost once
    state = rig(clock, cursor, github, {"CURSOR_MCP_STATE_DIR": str(tmp_path)})
    watch = a_watch(state, github)
    lost = await watch.tick()
    assert [event.get("reason") for event in lost if event["event"] == "fix_skipped"] == ["outcome_unknown"]
    assert watch.record.pending is not None and len(cursor.posts) == 1
    cursor.handle = answered  # type: ignore[method-assign]
    await clock.sleep(1)
    found: list[Event] = []
    for _ in range(3):
        found += await watch.tick()
        await clock.sleep(1)
    sent = [event for event in found if event["event"] == "fix_sent"]
    assert len(cursor.posts) == 1 and len(sent) == 1 and sent[0]["resumed"] is True
    assert watch.record.pending is None and watch.record.fixes == 1


async def test_a_fix_behind_the_watchs_own_running_run_goes_through_the_queue_g_08(tmp_path: Path) -> None:
    clock = FakeClock()
    cursor = CursorStandIn(clock, run_seconds=10)
    github = GitHubStandIn(clock, failing(S1))
    github.script = [(2, lambda gh: gh.comments.append(comment(9, "alice", "also update the docs")))]
    watch = a_watch(rig(clock, cursor, github, {"CURSOR_MCP_STATE_DIR": str(tmp_path)}), github)
    events: list[Event] = []
    for _ in range(14):
        events += await watch.tick()
        await clock.sleep(1)
    sent = [event for event in events if event["event"] == "fix_sent"]
    assert [event.get("queued", False) for event in sent] == [
        False,
        True,
        False,
    ]  # sent, queued, then sent by the queue
    assert len(cursor.posts) == 2 and cursor.posts[1][0] - cursor.posts[0][0] >= 10
    assert "also update the docs" in cursor.posts[1][1] and watch.record.fixes == 2


async def test_a_fix_refused_by_the_spend_limit_is_given_back_and_not_tried_again_g_17() -> None:
    clock = FakeClock()
    cursor, github = CursorStandIn(clock), GitHubStandIn(clock, failing(S1))
    watch = a_watch(
        rig(clock, cursor, github, {"CURSOR_MCP_STATE_DIR": "memory", "CURSOR_MCP_MAX_SPEND_CENTS": "0"}), github
    )
    events = await watch.tick() + await watch.tick()
    refused = [event for event in events if event["event"] == "fix_skipped"]
    assert [(event["reason"], event["code"]) for event in refused] == [("refused", "LIMIT_REACHED")]
    assert cursor.posts == [] and watch.record.fixes == 0 and watch.record.pending is None


async def test_a_rate_limit_is_waited_out_for_the_time_github_names_g_15() -> None:
    clock = FakeClock()
    cursor, github = CursorStandIn(clock), GitHubStandIn(clock, Head(S1, [check_run("test", "success")]))
    limited = {"left": 1}
    answered = github.handle

    def once_limited(request: httpx2.Request) -> httpx2.Response:
        if limited["left"]:
            limited["left"] -= 1
            return httpx2.Response(429, headers={"retry-after": "120"})
        return answered(request)

    github.handle = once_limited  # type: ignore[method-assign]
    github.script = [(100, GitHubStandIn.merge)]
    said: list[str] = []
    watch = a_watch(rig(clock, cursor, github, {"CURSOR_MCP_STATE_DIR": "memory"}), github)
    started = clock.now()
    told: list[Event] = []

    async def emit(event: Event) -> None:
        told.append(event)

    ended = await keep_watching(watch, emit, 1.0, say=said.append)
    assert ended == "merged" and clock.now() - started >= 120 and "rate limit" in said[0]
    assert [event["event"] for event in told] == ["watching", "merged"]


async def test_an_agent_whose_record_does_not_prove_a_follow_up_safe_gets_none_g_17() -> None:
    """As every follow-up (core/spend/continuation.py): no workOnCurrentBranch=false, no fix; given back, not
    retried."""
    clock = FakeClock()
    cursor, github = CursorStandIn(clock, on_current_branch=None), GitHubStandIn(clock, failing(S1))
    watch = a_watch(rig(clock, cursor, github, {"CURSOR_MCP_STATE_DIR": "memory"}), github)
    events = await watch.tick() + await watch.tick()
    refused = [(event["reason"], event["code"]) for event in events if event["event"] == "fix_skipped"]
    assert refused == [("refused", "CONTINUATION_REFUSED")] and cursor.posts == [] and watch.record.fixes == 0


async def test_a_fix_whose_post_failed_waits_out_the_creation_window_then_goes_once_g_12() -> None:
    """A 503 to the POST may have made a run (MUTATION_OUTCOME_UNKNOWN): the same fix stays decided, is not sent
    while Cursor may still be making it (FOLLOWUP_IN_FLIGHT), then goes once the agent shows no new run."""
    clock = FakeClock()
    cursor, github = CursorStandIn(clock), GitHubStandIn(clock, failing(S1))
    answered = cursor.handle
    down = {"posts": 1}

    def refusing_the_first_post(request: httpx2.Request) -> httpx2.Response:
        if request.method == "POST" and down["posts"]:
            down["posts"] -= 1
            return httpx2.Response(503, json={"error": {"code": "unavailable", "message": "try later"}})
        return answered(request)

    cursor.handle = refusing_the_first_post  # type: ignore[method-assign]  # Cursor answers 503 once
    watch = a_watch(rig(clock, cursor, github, {"CURSOR_MCP_STATE_DIR": "memory"}), github)
    first = await watch.tick()
    assert [event.get("reason") for event in first if event["event"] == "fix_skipped"] == ["outcome_unknown"]
    await clock.sleep(1)
    held = await watch.tick()
    assert [event.get("code") for event in held] == ["FOLLOWUP_IN_FLIGHT"] and cursor.posts == []
    await clock.sleep(API_CREATION_SECONDS)
    sent = await watch.tick()
    assert [event["event"] for event in sent] == ["fix_sent"] and len(cursor.posts) == 1 and watch.record.fixes == 1
