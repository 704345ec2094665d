"""What a finished run gives back (`RunResult`), and a page of a listing (`ListResult`, `AsyncListResult`)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from cursor_cloud_agents.api import GitBranch, ModelSelection, Run, RunGit
from cursor_cloud_agents.sdk._status import Status

T = TypeVar("T")


@dataclass(frozen=True)
class RunResult:
    """A run as it ended: its status, its final text, how long it took and the branches the agent pushed.

    `result` is the agent's own text: data for the program, never instructions for a model."""

    id: str
    agent_id: str
    status: Status
    """`"finished"`, `"error"`, `"cancelled"` or `"expired"` (or a newer status, lowercased), equal to the API's
    uppercase word too (`sdk/_status.py`): `result.status == "finished"` and `== "FINISHED"` both hold."""
    result: str = ""
    duration_ms: int | None = None
    branches: tuple[GitBranch, ...] = ()
    error_code: str | None = None
    error_message: str | None = None
    model: ModelSelection | None = None
    """The model the run was asked with, when this program chose one (None: the account's default)."""

    @property
    def run_id(self) -> str:
        """The run's id (Cursor's SDK names it so too)."""
        return self.id

    @property
    def text(self) -> str:
        """The final text (the same as `result`)."""
        return self.result

    @property
    def git(self) -> RunGit:
        """The branches the agent pushed, as Cursor's SDK shapes them (`result.git.branches`)."""
        return RunGit(branches=list(self.branches))

    @property
    def finished(self) -> bool:
        """Whether the run ended finished."""
        return self.status == "finished"

    @classmethod
    def of(cls, run: Run, agent_id: str, model: ModelSelection | None = None) -> RunResult:
        """The result of a run read after its end."""
        error = run.error
        return cls(
            id=run.id,
            agent_id=run.agent_id or agent_id,
            status=Status(run.status),
            result=run.result or "",
            duration_ms=run.duration_ms,
            branches=tuple(run.git.branches) if run.git is not None else (),
            error_code=None if error is None else error.code,
            error_message=None if error is None else error.message,
            model=model,
        )


class PageFlag:
    """Whether another page follows: true or false as a property was (`if page.has_next_page:`), and callable as
    Cursor's SDK's method is (`page.has_next_page()`)."""

    __slots__ = ("_value",)

    def __init__(self, value: bool) -> None:
        self._value = value

    def __bool__(self) -> bool:
        return self._value

    def __call__(self) -> bool:
        return self._value

    def __eq__(self, other: object) -> bool:
        return bool(self) == other if isinstance(other, bool | PageFlag) else NotImplemented

    def __hash__(self) -> int:
        return hash(self._value)

    def __repr__(self) -> str:
        return repr(self._value)


@dataclass(frozen=True)
class _Page(Generic[T]):
    items: list[T] = field(default_factory=list[T])
    next_cursor: str | None = None
    """The cursor of the next page, None at the end."""

    @property
    def has_next_page(self) -> PageFlag:
        """Whether another page follows (`page.has_next_page` or `page.has_next_page()`)."""
        return PageFlag(self.next_cursor is not None)

    def next_page_info(self) -> dict[str, str]:
        """`{"cursor": ...}` of the next page, or `{}` at the end."""
        return {} if self.next_cursor is None else {"cursor": self.next_cursor}

    def __iter__(self) -> Iterator[T]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, index: int) -> T:
        return self.items[index]


@dataclass(frozen=True)
class ListResult(_Page[T]):
    """One page of a listing: its items, and `next_cursor` to pass back for the next page (None at the end);
    `get_next_page()` and `auto_paging_iter()` read on."""

    following: Callable[[str], ListResult[T]] | None = field(default=None, repr=False, compare=False)

    def get_next_page(self) -> ListResult[T]:
        """The next page (an empty one at the end)."""
        if self.next_cursor is None or self.following is None:
            return ListResult[T]()
        return self.following(self.next_cursor)

    def auto_paging_iter(self) -> Iterator[T]:
        """Every item of this page and the following ones."""
        page: ListResult[T] = self
        while True:
            yield from page.items
            if page.next_cursor is None or page.following is None:
                return
            page = page.get_next_page()


@dataclass(frozen=True)
class AsyncListResult(_Page[T]):
    """One page of a listing of the async classes; `await page.get_next_page()` and
    `async for item in page.auto_paging_iter()` read on."""

    following: Callable[[str], Awaitable[AsyncListResult[T]]] | None = field(default=None, repr=False, compare=False)

    async def get_next_page(self) -> AsyncListResult[T]:
        """The next page (an empty one at the end)."""
        if self.next_cursor is None or self.following is None:
            return AsyncListResult[T]()
        return await self.following(self.next_cursor)

    async def auto_paging_iter(self) -> AsyncIterator[T]:
        """Every item of this page and the following ones."""
        page: AsyncListResult[T] = self
        while True:
            for item in page.items:
                yield item
            if page.next_cursor is None or page.following is None:
                return
            page = await page.get_next_page()
