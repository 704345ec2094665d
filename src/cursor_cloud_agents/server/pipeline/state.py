"""The server's state: the core's, and the answer builder every tool renders through."""

from __future__ import annotations

from dataclasses import dataclass, field

from cursor_cloud_agents.core import Cache, CheckResult, CoreState
from cursor_cloud_agents.server.pipeline.answers import Answers

VERDICTS_KEPT = 256
"""Check verdicts remembered for compare: eight attempts of many groups."""


@dataclass
class ServerState(CoreState):
    """The state of one server, for its whole life: the core's, and how its answers are built."""

    answers: Answers = field(init=False)
    verdicts: Cache[tuple[str, str], CheckResult] = field(init=False)
    """The last check of each (agent id, commit) this server ran: `cursor_compare` shows it beside the change."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.answers = Answers(self.redactor, self.settings.max_result_bytes)
        self.verdicts = Cache(self.clock, VERDICTS_KEPT)
