"""The watch's decisions: pure functions from what was observed and what the watch remembers to what to say
and the one fix to send, if any (docs/pr-loop.md §2; each rule a test, G-01 to G-12).

- The head commit's checks count only once every one of them ended and one failed: a head whose checks have
  not reported is waiting, not green; checks are read for the head alone, so an older commit's never count.
- One fix per failing head commit (`checks:<sha>` answered once), one per batch of new trusted comments.
- Comments that existed at the first look are seen, not acted on; a new comment from an author who is not
  trusted is told `fix_skipped`, never sent.
- At most `max_fixes` fixes per PR: the next trigger is `escalated` (once), and later ones `fix_skipped`.
- A run the watch did not start that is still going: the watch waits (told once per run); a run of the
  watch's own still going: the fix goes through the queue, sent once that run ends.
- Merged or closed ends the watch; a conflict is told once per head, and fixed only when asked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from cursor_cloud_agents.core.pr.prompts import checks_prompt, comments_prompt, conflict_prompt, one_line
from cursor_cloud_agents.core.pr.record import Pending, WatchRecord
from cursor_cloud_agents.github import Check, Comment, PullRequest

Verdict = Literal["waiting", "running", "failing", "passing"]
Event = dict[str, Any]


@dataclass(frozen=True)
class JudgedComment:
    """A comment and whether its author is trusted (write access or listed; never a bot, never the PR's author)."""

    comment: Comment
    trusted: bool
    why: str = ""
    """Why it is not trusted: `bot`, `pr_author`, `no_write_access`."""


@dataclass(frozen=True)
class PrSeen:
    pull: PullRequest
    checks: Sequence[Check]
    """The checks of `pull.head_sha`, and of no other commit."""
    comments: Sequence[JudgedComment]
    run_id: str | None
    """The agent's latest run."""
    run_active: bool


@dataclass(frozen=True)
class Decision:
    record: WatchRecord
    """What the watch remembers now: a fix decided is in `record.pending`, counted, before it is sent."""
    events: list[Event] = field(default_factory=list[Event])
    send: Pending | None = None
    """The fix to send (or queue) now; None while it waits for a run the watch did not start."""


def verdict(checks: Sequence[Check]) -> Verdict:
    if not checks:
        return "waiting"
    if any(check.state == "pending" for check in checks):
        return "running"
    return "failing" if any(check.state == "failure" for check in checks) else "passing"


def event(record: WatchRecord, name: str, commit: str, **fields: Any) -> Event:
    return {"event": name, "agent_id": record.agent_id, "pr": record.pr, "commit": commit} | fields


def decide(record: WatchRecord, seen: PrSeen) -> Decision:
    """What the watch says and sends after one look."""
    pull, commit = seen.pull, seen.pull.head_sha
    events: list[Event] = []
    if not record.started:
        record = replace(record, started=True, seen=frozenset(judged.comment.key for judged in seen.comments))
        events.append(event(record, "watching", commit, comments_seen=len(record.seen), max_fixes=record.max_fixes))
    if pull.merged or pull.state == "closed":
        ended = "merged" if pull.merged else "closed"
        return Decision(replace(record, ended=ended, pending=None), [*events, event(record, ended, commit)])
    record, told = _new_comments(record, seen.comments, commit)
    events += told
    if record.pending is not None and _stale(record.pending, commit):
        # Decided for a head that is no longer the PR's (a run the watch waited for pushed another): never sent.
        dropped = event(record, "fix_skipped", commit, reason="head_moved", trigger=record.pending.key.split(":")[0])
        record = replace(record, pending=None, fixes=record.fixes - 1)
        events.append(dropped)
    if record.pending is not None:
        return _route(record, seen, record.pending, events)  # decided before: the same prompt, never a second one
    state = verdict(seen.checks)
    if state == "waiting" and f"waiting:{commit}" not in record.told:
        record = replace(record, told=record.told | {f"waiting:{commit}"})
        events.append(event(record, "checks_waiting", commit))
    if pull.conflicted and f"conflict:{commit}" not in record.told:
        record = replace(record, told=record.told | {f"conflict:{commit}"})
        events.append(event(record, "conflict", commit, fixing=record.resolve_conflicts))
    trigger = _trigger(record, seen, state)
    if trigger is None:
        return Decision(record, events)
    if record.fixes >= record.max_fixes:
        return _capped(record, trigger, events)
    record = replace(
        record, fixes=record.fixes + 1, handled=record.handled | {trigger.key}, asks=_left(record, trigger)
    )
    return _route(record, seen, trigger, events)


def _stale(fix: Pending, head: str) -> bool:
    """A fix about a commit (its checks, its conflict) once the PR's head is another one."""
    return not fix.key.startswith("comments:") and fix.commit != head


def _new_comments(
    record: WatchRecord, comments: Sequence[JudgedComment], commit: str
) -> tuple[WatchRecord, list[Event]]:
    """Comments not seen before: a trusted author's is an ask to answer; another's is told and dropped."""
    events: list[Event] = []
    asks = list(record.asks)
    for judged in comments:
        key = judged.comment.key
        if key in record.seen:
            continue
        if judged.trusted:
            asks.append(key)
        else:
            author = one_line(judged.comment.author.login, 40)
            events.append(
                event(record, "fix_skipped", commit, reason=f"untrusted_{judged.why}", comment=key, author=author)
            )
    new = frozenset(judged.comment.key for judged in comments)
    return replace(record, seen=record.seen | new, asks=tuple(asks)), events


def _trigger(record: WatchRecord, seen: PrSeen, state: Verdict) -> Pending | None:
    """The first thing that calls for a fix now, as the fix it would be (not yet counted)."""
    pull, commit = seen.pull, seen.pull.head_sha
    if state == "failing" and f"checks:{commit}" not in record.handled:
        failed = [check for check in seen.checks if check.state == "failure"]
        return Pending(f"checks:{commit}", checks_prompt(record.pr, commit, failed), "send", commit)
    by_key = {judged.comment.key: judged.comment for judged in seen.comments}
    asked = [by_key[key] for key in record.asks if key in by_key]
    if asked:
        key = "comments:" + ",".join(comment.key for comment in asked)
        return Pending(key, comments_prompt(record.pr, asked), "send", commit)
    if pull.conflicted and record.resolve_conflicts and f"conflict:{commit}" not in record.handled:
        return Pending(f"conflict:{commit}", conflict_prompt(record.pr, commit), "send", commit)
    return None


def _left(record: WatchRecord, trigger: Pending) -> tuple[str, ...]:
    """The asks still open once `trigger` is answered (a comments trigger answers every ask it quotes)."""
    if not trigger.key.startswith("comments:"):
        return record.asks
    answered = set(trigger.key.removeprefix("comments:").split(","))
    return tuple(key for key in record.asks if key not in answered)


def _capped(record: WatchRecord, trigger: Pending, events: list[Event]) -> Decision:
    """A trigger past `max_fixes`: escalated once, then skipped; nothing sent, and it is not asked again."""
    record = replace(record, handled=record.handled | {trigger.key}, asks=_left(record, trigger))
    if not record.escalated:
        told = event(record, "escalated", trigger.commit, fixes=record.fixes, trigger=trigger.key.split(":")[0])
        return Decision(replace(record, escalated=True), [*events, told])
    skipped = event(record, "fix_skipped", trigger.commit, reason="max_fixes", trigger=trigger.key.split(":")[0])
    return Decision(record, [*events, skipped])


def _route(record: WatchRecord, seen: PrSeen, fix: Pending, events: list[Event]) -> Decision:
    """Send `fix` now, through the queue behind the watch's own running run, or wait for another's run."""
    if seen.run_active and seen.run_id is not None and seen.run_id not in record.runs:
        told = f"busy:{seen.run_id}"
        if told not in record.told:
            events.append(
                event(
                    record,
                    "fix_waiting",
                    fix.commit,
                    reason="a run the watch did not start is going",
                    run_id=seen.run_id,
                )
            )
        return Decision(replace(record, pending=fix, told=record.told | {told}), events)
    fix = replace(fix, via="queue" if seen.run_active else "send")
    return Decision(replace(record, pending=fix), events, fix)
