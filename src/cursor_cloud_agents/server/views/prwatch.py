"""The answer of `cursor_watch_pr`: the watch's state and its last events (their text cleaned as agent text)."""

from __future__ import annotations

from typing import Any

from cursor_cloud_agents.core import WatchRecord, clean_data
from cursor_cloud_agents.server.views.view import View

EVENTS_SHOWN = 5


class WatchView(View):
    agent_id: str
    pr: str
    watching: bool
    ended: str | None
    fixes_sent: int
    max_fixes: int
    escalated: bool
    events: list[dict[str, Any]]
    """The last events (`fix_sent`, `escalated`, `merged`...), oldest first."""

    @classmethod
    def of(cls, record: WatchRecord) -> WatchView:
        return cls(
            agent_id=record.agent_id,
            pr=record.pr,
            watching=record.ended is None,
            ended=record.ended,
            fixes_sent=record.fixes,
            max_fixes=record.max_fixes,
            escalated=record.escalated,
            events=clean_data(list(record.log[-EVENTS_SHOWN:])),
        )
