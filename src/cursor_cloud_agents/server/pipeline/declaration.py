"""What a tool declares beside its function: title, access, budget, what to ask for when too large, and
whether (and how long) its call may become a task.

A tool is a module-level `async def` whose parameters are of two kinds: the model's (typed with
`Annotated[..., Field(...)]`, judged strictly and listed in its schema) and what the toolkit hands in by type
(the server's state, the call in progress: `PROVIDED`), left out of the schema. Each tool module keeps
its tools in a `Catalogue`, in the order they are listed: `@catalogue.tool(title=..., budget=..., task=...)`
above the function declares it, and a function taking `state: ServerState` and `call: ToolCall` before the
model's parameters is handed both.

The function stays a plain function: a test imports it by name and calls it with a state and a call.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from mcp_types import Tool, ToolAnnotations

from cursor_cloud_agents.server.pipeline.arguments import StrictArguments
from cursor_cloud_agents.server.pipeline.state import ServerState
from cursor_cloud_agents.server.pipeline.toolcall import ToolCall

ToolFn = Callable[..., Awaitable[Any]]
PROVIDED: tuple[type, ...] = (ServerState, ToolCall)
"""What a tool may ask for by type, handed in by the toolkit and left out of its schema."""
Budget = Callable[[Mapping[str, Any]], float]
"""Seconds a call may take, from its judged arguments (the toolkit caps it at CURSOR_MCP_MAX_CALL_SECONDS)."""


class Access(Enum):
    """What a tool may do; it sets the annotations and the gates."""

    READ = "read"
    WRITE = "write"  # creates or changes state (paid), not destructive
    DESTRUCTIVE = "destructive"  # cancels or hides work
    DELETE = "delete"  # irreversible: a second switch and a confirmation
    LOCAL = "local"  # runs the person's own configured command on this machine: no Cursor state, not read-only


_HINTS = {
    Access.READ: (True, False),
    Access.WRITE: (False, False),
    Access.DESTRUCTIVE: (False, True),
    Access.DELETE: (False, True),
    Access.LOCAL: (False, False),
}
CHANGES_NOTHING_AT_CURSOR = (Access.READ, Access.LOCAL)
"""Tools without a write gate, whose stop at the budget is a plain `TIMEOUT` (nothing sent that could land)."""


@dataclass(frozen=True)
class TaskRule:
    """A tool whose call may be answered with an MCP task (`tasks.py`): when its work is waiting, and how its
    typed answer says the wait's condition does not hold yet (the task then runs the same call again)."""

    waits: Callable[[Mapping[str, Any]], bool]
    """Whether waiting is the work of a call with these (raw) arguments."""
    still_waiting: Callable[[Any], bool]
    """Whether the tool's answer says to ask again."""


@dataclass(frozen=True)
class ToolSpec:
    """A declared tool: the function and what the toolkit needs to know to run it."""

    fn: ToolFn
    title: str
    access: Access
    idempotent: bool
    budget: Budget | None
    shrink_hint: str
    arguments: StrictArguments
    task: TaskRule | None = None

    @property
    def name(self) -> str:
        return self.fn.__name__

    def annotations(self) -> ToolAnnotations:
        read_only, destructive = _HINTS[self.access]
        return ToolAnnotations(
            title=self.title,
            read_only_hint=read_only,
            destructive_hint=destructive,
            idempotent_hint=self.idempotent,
            open_world_hint=True,
        )

    def listed(self, schema: dict[str, Any] | None) -> Tool:
        """The tool as `tools/list` shows it (the title travels in the annotations, where clients read it)."""
        return Tool(
            name=self.name,
            description=" ".join((self.fn.__doc__ or "").split()),
            input_schema=schema if schema is not None else self.arguments.schema(),
            annotations=self.annotations(),
        )

    def may_become_task(self, arguments: Mapping[str, Any]) -> bool:
        """Whether this call's work is waiting (then a client declaring Tasks gets a task)."""
        return self.task is not None and self.task.waits(arguments)

    def still_waiting(self, answer: Any) -> bool:
        """Whether the tool's typed answer says its wait goes on (a task asks again)."""
        return self.task is not None and self.task.still_waiting(answer)


SHRINK_HINT = "ask for less (a smaller limit or a narrower filter)"


class Catalogue:
    """Tools declared in order; `tool(...)` declares one and leaves the function as it is."""

    def __init__(self, *parts: Catalogue) -> None:
        self.specs: list[ToolSpec] = [spec for part in parts for spec in part.specs]
        """The tools of `parts`, in their order, then those declared here."""

    def tool(
        self,
        *,
        title: str,
        access: Access = Access.READ,
        idempotent: bool | None = None,
        budget: Budget | None = None,
        shrink_hint: str = SHRINK_HINT,
        task: TaskRule | None = None,
    ) -> Callable[[ToolFn], ToolFn]:
        """Declare a tool; its name is the function's, its description the docstring."""

        def declare(fn: ToolFn) -> ToolFn:
            is_idempotent = access in (Access.READ, Access.DELETE) if idempotent is None else idempotent
            arguments = StrictArguments(fn, PROVIDED)
            self.specs.append(ToolSpec(fn, title, access, is_idempotent, budget, shrink_hint, arguments, task))
            return fn

        return declare
