"""The store's watches kept by a long-lived process: one holder at a time, a hold that runs out, a look that
sends through the same door, a PR gone that stops the watch (docs/pr-loop.md §4)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from cursor_cloud_agents.config import Secret, Settings
from cursor_cloud_agents.core import CoreState, fresh_watch, load_watch, save_watch
from cursor_cloud_agents.core.pr.keeper import due, look_once, take
from cursor_cloud_agents.core.timing import Clock
from cursor_cloud_agents.github import GitHubReader
from cursor_cloud_agents.redact import Redactor
from tests.pr_stand_ins import AGENT, PR_URL, CursorStandIn, FakeClock, GitHubStandIn, Head, check_run

pytestmark = pytest.mark.anyio

RECORD = fresh_watch(AGENT, "your-org/your-repo#7", PR_URL, max_fixes=3, resolve_conflicts=False)


def test_a_watch_is_due_once_its_interval_passed_and_no_other_process_holds_it() -> None:
    assert due(RECORD, 1000.0, "a")
    held = replace(RECORD, holder="b", held_until=1100.0, looked_at=900.0)
    assert not due(held, 1000.0, "a") and due(held, 1100.0, "a") and due(held, 1000.0, "b")
    assert not due(replace(RECORD, looked_at=990.0), 1000.0, "a")


async def test_two_processes_never_hold_one_watch_at_once() -> None:
    clock = FakeClock()
    state = CoreState(Settings(), Redactor(), Clock(now=clock.now, sleep=clock.sleep))
    await save_watch(state.store, RECORD, clock.now())
    first = await take(state, AGENT, "a")
    second = await take(state, AGENT, "b")
    assert first is not None and first.holder == "a" and second is None


async def test_a_kept_watch_sends_its_fix_through_the_door_and_a_pr_gone_stops_it() -> None:
    clock = FakeClock()
    cursor = CursorStandIn(clock)
    github = GitHubStandIn(clock, Head("1" * 40, [check_run("test", "failure", "boom")]))
    settings = Settings.from_env({"CURSOR_API_KEY": "key_stand_in", "CURSOR_MCP_STATE_DIR": "memory"})
    state = CoreState(settings, Redactor(), Clock(now=clock.now, sleep=clock.sleep), client=cursor.client())
    reader = GitHubReader("https://api.github.com", Secret("ghp_x"), transport=github.transport(), now=clock.now)
    await save_watch(state.store, RECORD, clock.now())
    taken = await take(state, AGENT, "server")
    assert taken is not None
    await look_once(state, reader, taken, frozenset())
    assert len(cursor.posts) == 1
    github.gone = True
    await clock.sleep(120)
    again = await take(state, AGENT, "server")
    assert again is not None
    await look_once(state, reader, again, frozenset())
    assert await load_watch(state.store, AGENT, clock.now()) is None  # ended: no longer kept
    assert len(cursor.posts) == 1
