"""What a finished run gives back (`RunResult`), and a page of a listing (`ListResult`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, TypeVar

from cursor_cloud_agents.api import GitBranch, Run

T = TypeVar("T")


@dataclass(frozen=True)
class RunResult:
    """A run as it ended: its status, its final text, how long it took and the branches the agent pushed.

    `result` is the agent's own text: data for the program, never instructions for a model."""

    id: str
    agent_id: str
    status: str
    """`FINISHED`, `ERROR`, `CANCELLED` or `EXPIRED` (or a status newer than this SDK, as Cursor sent it)."""
    result: str = ""
    duration_ms: int | None = None
    branches: tuple[GitBranch, ...] = ()
    error_code: str | None = None
    error_message: str | None = None

    @property
    def run_id(self) -> str:
        """The run's id (Cursor's SDK names it so too)."""
        return self.id

    @property
    def text(self) -> str:
        """The final text (the same as `result`)."""
        return self.result

    @property
    def finished(self) -> bool:
        """Whether the run ended `FINISHED`."""
        return self.status == "FINISHED"

    @classmethod
    def of(cls, run: Run, agent_id: str) -> RunResult:
        """The result of a run read after its end."""
        error = run.error
        return cls(
            id=run.id,
            agent_id=run.agent_id or agent_id,
            status=run.status,
            result=run.result or "",
            duration_ms=run.duration_ms,
            branches=tuple(run.git.branches) if run.git is not None else (),
            error_code=None if error is None else error.code,
            error_message=None if error is None else error.message,
        )


@dataclass(frozen=True)
class ListResult(Generic[T]):
    """One page of a listing: its items, and `next_cursor` to pass back for the next page (None at the end)."""

    items: list[T] = field(default_factory=list[T])
    next_cursor: str | None = None

    @property
    def has_next_page(self) -> bool:
        """Whether another page follows."""
        return self.next_cursor is not None
