"""The server's state: the core's, and the answer builder every tool renders through."""

from __future__ import annotations

from dataclasses import dataclass, field

from cursor_cloud_agents.core import CoreState
from cursor_cloud_agents.server.pipeline.answers import Answers


@dataclass
class ServerState(CoreState):
    """The state of one server, for its whole life: the core's, and how its answers are built."""

    answers: Answers = field(init=False)

    def __post_init__(self) -> None:
        super().__post_init__()
        self.answers = Answers(self.redactor, self.settings.max_result_bytes)
