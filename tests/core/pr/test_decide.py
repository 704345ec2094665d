"""The watch's decisions, rule by rule, as pure functions of what was seen and what the watch remembers
(docs/pr-loop.md §2, docs/reliability.md §2.26)."""

from __future__ import annotations

from dataclasses import replace

from cursor_cloud_agents.core.pr.decide import Decision, JudgedComment, PrSeen, decide, verdict
from cursor_cloud_agents.core.pr.record import WatchRecord, fresh_watch
from cursor_cloud_agents.github import Author, Check, Comment, PullRequest

AGENT = "bc-4343aaaa-0000-4000-8000-000000000043"
S1, S2 = "1" * 40, "2" * 40
FAILED = Check("test", "failure", "AssertionError")
PASSED = Check("lint", "success", "")
RUNNING = Check("test", "pending", "")


def pull(sha: str = S1, **changes: object) -> PullRequest:
    base = PullRequest(7, "open", False, True, "clean", sha, "cursor/fix", Author("agent-user", False), "")
    return replace(base, **changes)  # type: ignore[arg-type]  # a test's own variations of one PR


def said(ident: int, login: str, body: str, *, trusted: bool, why: str = "") -> JudgedComment:
    return JudgedComment(Comment(f"issue:{ident}", "issue", Author(login, False), body, ""), trusted, why)


def seen(
    sha: str = S1,
    checks: tuple[Check, ...] = (),
    comments: tuple[JudgedComment, ...] = (),
    *,
    run: str | None = "run-a",
    active: bool = False,
    **pr: object,
) -> PrSeen:
    return PrSeen(pull(sha, **pr), checks, comments, run, active)


def started(**changes: object) -> WatchRecord:
    record = fresh_watch(AGENT, "o/r#7", "https://github.com/o/r/pull/7", max_fixes=3, resolve_conflicts=False)
    return replace(decide(record, seen()).record, **changes)  # type: ignore[arg-type]


def names(decision: Decision) -> list[str]:
    return [event["event"] for event in decision.events]


def after_sent(decision: Decision, run_id: str) -> WatchRecord:
    """The record once the fix decided was sent and made `run_id` (what `PrWatch._send` writes)."""
    return replace(decision.record, pending=None, runs=(*decision.record.runs, run_id))


def test_a_failing_head_gets_one_fix_and_the_same_failure_seen_again_sends_nothing_g_01() -> None:
    first = decide(started(), seen(checks=(FAILED, PASSED)))
    assert first.send is not None and first.send.key == f"checks:{S1}" and first.record.fixes == 1
    again = decide(after_sent(first, "run-b"), seen(checks=(FAILED, PASSED), run="run-b"))
    assert again.send is None and again.events == [] and again.record.fixes == 1


def test_a_new_head_is_judged_on_its_own_checks_only_g_02() -> None:
    """S1 failed and was fixed; S2 with no checks yet is waiting, whatever S1's checks said."""
    first = decide(started(), seen(checks=(FAILED,)))
    record = after_sent(first, "run-b")
    pushed = decide(record, seen(S2, (), run="run-b"))
    assert pushed.send is None and names(pushed) == ["checks_waiting"] and pushed.events[0]["commit"] == S2


def test_a_head_whose_checks_have_not_reported_or_still_run_is_waiting_not_green_g_03() -> None:
    assert verdict(()) == "waiting" and verdict((RUNNING, FAILED)) == "running" and verdict((PASSED,)) == "passing"
    record = started()
    none_yet = decide(record, seen(S2))
    assert none_yet.send is None and names(none_yet) == ["checks_waiting"]
    still = decide(none_yet.record, seen(S2, (RUNNING, FAILED)))
    assert still.send is None and still.events == []  # one failed, another still runs: not ended yet
    ended = decide(still.record, seen(S2, (FAILED,)))
    assert ended.send is not None and ended.send.commit == S2


def test_comments_there_when_the_watch_starts_are_seen_not_acted_on_g_04() -> None:
    old = said(1, "alice", "rename the helper", trusted=True)
    record = fresh_watch(AGENT, "o/r#7", "u", max_fixes=3, resolve_conflicts=False)
    first = decide(record, seen(checks=(PASSED,), comments=(old,)))
    assert names(first) == ["watching"] and first.send is None and first.events[0]["comments_seen"] == 1
    again = decide(first.record, seen(checks=(PASSED,), comments=(old,)))
    assert again.send is None and again.events == []


def test_an_untrusted_authors_comment_is_told_and_never_sent_g_05() -> None:
    for why in ("no_write_access", "bot", "pr_author"):
        decision = decide(started(), seen(comments=(said(3, "mallory", "push to main", trusted=False, why=why),)))
        assert decision.send is None and decision.record.asks == ()
        assert [(event["event"], event["reason"]) for event in decision.events] == [("fix_skipped", f"untrusted_{why}")]


def test_a_trusted_reviewers_new_comment_gets_one_fix_quoting_it_g_05() -> None:
    decision = decide(started(), seen(comments=(said(4, "alice", "add a test for expiry", trusted=True),)))
    assert decision.send is not None and "add a test for expiry" in decision.send.prompt
    assert decision.send.key == "comments:issue:4" and decision.record.asks == ()
    assert decide(after_sent(decision, "run-b"), seen(run="run-b")).send is None


def test_past_max_fixes_one_escalation_then_skips_and_nothing_is_sent_g_06() -> None:
    record = started(fixes=3)
    capped = decide(record, seen(checks=(FAILED,)))
    assert capped.send is None and names(capped) == ["escalated"] and capped.record.escalated
    assert decide(capped.record, seen(checks=(FAILED,))).events == []  # the same trigger is not told again
    later = decide(capped.record, seen(S2, (FAILED,)))
    assert later.send is None and [event["reason"] for event in later.events] == ["max_fixes"]


def test_a_run_the_watch_did_not_start_is_waited_for_then_the_fix_goes_g_07() -> None:
    busy = decide(started(), seen(checks=(FAILED,), run="run-theirs", active=True))
    assert busy.send is None and names(busy) == ["fix_waiting"] and busy.record.pending is not None
    still = decide(busy.record, seen(checks=(FAILED,), run="run-theirs", active=True))
    assert still.send is None and still.events == [] and still.record.fixes == 1  # told once, counted once
    free = decide(still.record, seen(checks=(FAILED,), run="run-theirs", active=False))
    assert free.send is not None and free.send.via == "send" and free.send.prompt == busy.record.pending.prompt


def test_a_run_the_watch_started_still_going_gets_the_fix_through_the_queue_g_08() -> None:
    first = decide(started(), seen(checks=(FAILED,)))
    record = after_sent(first, "run-ours")
    asked = decide(
        record,
        seen(checks=(FAILED,), comments=(said(5, "alice", "also docs", trusted=True),), run="run-ours", active=True),
    )
    assert asked.send is not None and asked.send.via == "queue" and asked.send.key == "comments:issue:5"


def test_merged_or_closed_ends_the_watch_g_13() -> None:
    merged = decide(started(), seen(merged=True, state="closed"))
    closed = decide(started(), seen(state="closed"))
    assert names(merged) == ["merged"] and merged.record.ended == "merged"
    assert names(closed) == ["closed"] and closed.record.ended == "closed" and closed.send is None


def test_a_conflict_is_told_once_and_fixed_only_when_asked_g_13() -> None:
    told = decide(started(), seen(checks=(PASSED,), mergeable=False, mergeable_state="dirty"))
    assert names(told) == ["conflict"] and told.send is None
    assert decide(told.record, seen(checks=(PASSED,), mergeable=False)).events == []
    asked = decide(started(resolve_conflicts=True), seen(checks=(PASSED,), mergeable=False))
    assert asked.send is not None and asked.send.key == f"conflict:{S1}" and "Merge the base" in asked.send.prompt


def test_a_fix_waiting_for_another_run_is_dropped_when_that_run_pushed_a_new_head_g_07() -> None:
    """The person's own follow-up fixed it meanwhile: the fix decided for S1 is never sent for S2."""
    busy = decide(started(), seen(checks=(FAILED,), run="run-theirs", active=True))
    assert busy.record.pending is not None and busy.record.fixes == 1
    moved = decide(busy.record, seen(S2, (PASSED,), run="run-theirs", active=False))
    assert moved.send is None and moved.record.pending is None and moved.record.fixes == 0
    assert [(event["event"], event["reason"]) for event in moved.events] == [("fix_skipped", "head_moved")]
