"""A watch's events told by another process (`events`, `--notify`), from its record in the store."""

from __future__ import annotations

from cursor_cloud_agents.core.acts import Act, Reading
from cursor_cloud_agents.core.pr.news import WatchNews
from cursor_cloud_agents.core.pr.record import WatchRecord, act_id, fresh_watch, with_told

AGENT = "bc-4343aaaa-0000-4000-8000-000000000043"
OTHER = "bc-4343bbbb-0000-4000-8000-000000000043"


def reading(*records: WatchRecord) -> Reading:
    acts = {
        act_id(record.agent_id): Act(
            act_id(record.agent_id), "watch", 0.0, "queued", agent_id=record.agent_id, detail=record.to_detail()
        )
        for record in records
    }
    return Reading(acts)


def told(record: WatchRecord, *names: str) -> WatchRecord:
    return with_told(
        record, [{"event": name, "agent_id": record.agent_id, "pr": record.pr, "commit": "c"} for name in names]
    )


def test_a_follower_tells_each_watch_event_once_and_not_those_before_its_first_look() -> None:
    record = told(fresh_watch(AGENT, "o/r#7", "u", max_fixes=3, resolve_conflicts=False), "watching", "fix_sent")
    news = WatchNews()
    assert news.fresh(reading(record)) == []
    later = told(record, "escalated", "merged")
    assert [event["event"] for event in news.fresh(reading(later))] == ["escalated", "merged"]
    assert news.fresh(reading(later)) == []


def test_a_follower_of_named_agents_tells_only_their_watches() -> None:
    mine = fresh_watch(AGENT, "o/r#7", "u", max_fixes=3, resolve_conflicts=False)
    theirs = fresh_watch(OTHER, "o/r#8", "u", max_fixes=3, resolve_conflicts=False)
    news = WatchNews()
    news.fresh(reading(mine, theirs), [AGENT])
    fresh = news.fresh(reading(told(mine, "fix_sent"), told(theirs, "fix_sent")), [AGENT])
    assert [event["agent_id"] for event in fresh] == [AGENT]


def test_the_log_keeps_the_last_twenty_events_numbered() -> None:
    record = told(fresh_watch(AGENT, "o/r#7", "u", max_fixes=3, resolve_conflicts=False), *(["checks_waiting"] * 25))
    assert len(record.log) == 20 and record.told_count == 25 and record.log[-1]["seq"] == 25


def test_a_watch_is_listed_with_its_pr_fixes_of_its_cap_and_last_event() -> None:
    """What `cursor_supervise` and `fleet` show of each agent's PR watch."""
    from cursor_cloud_agents.core import describe_watch

    record = told(fresh_watch(AGENT, "o/r#7", "u", max_fixes=3, resolve_conflicts=False), "fix_sent")
    assert describe_watch(record) == {
        "agent_id": AGENT,
        "pr": "o/r#7",
        "fixes_sent": 0,
        "max_fixes": 3,
        "escalated": False,
        "last_event": "fix_sent",
        "commit": "c",
    }
