"""The watches' events, told by a process that did not make them (`events`, `--notify`).

Whoever looks at a watch (`babysit`, a server keeping the store's watches) writes each event it tells into
the watch's record, numbered (`record.log`, the last 20). A follower reads the store at each of its looks and
tells what is new since: at its first look, what is already there is known, not told again (as for PRs).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cursor_cloud_agents.core.acts import Reading
from cursor_cloud_agents.core.pr.record import of_act


@dataclass
class WatchNews:
    """What a follower told of the watches so far: the last event number per agent."""

    told: dict[str, int] = field(default_factory=dict[str, int])
    looked: bool = False

    def fresh(self, reading: Reading, agent_ids: Sequence[str] = ()) -> list[dict[str, Any]]:
        """The watch events in `reading` not told yet (of `agent_ids` only, when given), oldest first."""
        news: list[dict[str, Any]] = []
        for act in reading.of("watch"):
            record = of_act(act)
            if record is None or (agent_ids and record.agent_id not in agent_ids):
                continue
            last = self.told.get(record.agent_id, record.told_count if not self.looked else 0)
            if record.told_count < last:
                last = 0  # a new watch of the same agent: its numbers start again
            news += [event for event in record.log if int(event.get("seq", 0)) > last]
            self.told[record.agent_id] = record.told_count
        self.looked = True
        return news
