"""A rig for terminal command tests: a recording console and a `Term` against the simulator on its manual clock.

Human output is read back with rich's own export (`rig.text()`), JSON from what was written
(`rig.documents()`). Pauses of the commands advance the manual clock instead of sleeping; a running
run moves on when a test advances the clock from a concurrent task (`rig.drive`).
"""

from __future__ import annotations

import io
import json
from collections.abc import AsyncGenerator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

import anyio
import pytest
from rich.console import Console

from cursor_cloud_agents.api import CursorClient
from cursor_cloud_agents.config import Secret, Settings
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.simulator import SIMULATED_API_KEY, Faults, ManualClock, RunningSimulator, World, serve
from cursor_cloud_agents.terminal.term import MaskedStream, Session, Term, fixed_session
from tests.clock import while_time_passes

T = TypeVar("T")
WIDTH = 120


@dataclass
class Rig:
    """The pieces of one terminal test."""

    clock: ManualClock
    world: World
    sim: RunningSimulator
    term: Term
    session: Session
    written: list[str] = field(default_factory=list[str])
    asked: list[str] = field(default_factory=list[str])

    def text(self) -> str:
        """Everything printed for the person (stdout), as plain text."""
        return self.term.out.export_text(clear=False)

    def screen(self) -> str:
        """What reached stdout itself (masked, control codes of a live display included)."""
        stream = self.term.out.file
        assert isinstance(stream, MaskedStream) and isinstance(stream.stream, io.StringIO)
        return stream.stream.getvalue()

    def errors(self) -> str:
        """Everything printed on stderr, as plain text."""
        return self.term.err.export_text(clear=False)

    def documents(self) -> list[Any]:
        """Every JSON document (or JSON line) written, parsed."""
        return [json.loads(line) for line in "".join(self.written).splitlines() if line.strip()]

    def requests(self, method: str | None = None) -> list[Any]:
        """What the simulator received (optionally one method only)."""
        return [record for record in self.sim.requests if method is None or record.method == method]

    async def drive(self, command: Awaitable[T], step: float = 5.0) -> T:
        """Run `command` while the clock moves on by `step` seconds whenever everything else is waiting."""
        with anyio.fail_after(30):
            return await while_time_passes(self.clock, command, step=step, turns=30)


def recording_console(*, terminal: bool = False) -> Console:
    return Console(record=True, file=io.StringIO(), width=WIDTH, force_terminal=terminal, color_system=None)


@asynccontextmanager
async def open_rig(
    world: World | None = None,
    *,
    faults: Faults | None = None,
    json_output: bool = False,
    interactive: bool = False,
    terminal: bool = False,
    answers: list[str] | None = None,
    silence_scale: float = 1.0,
    **settings: Any,
) -> AsyncGenerator[Rig, None]:
    """A rig over `world` (a fresh one by default); `settings` override Settings fields; `terminal`: stdout is one;
    `silence_scale`: the replay walks' silences in real time (`CursorClient`)."""
    clock = world.clock if world is not None else ManualClock()
    assert isinstance(clock, ManualClock)
    world = world if world is not None else World(clock)
    options: dict[str, Any] = {"api_key": Secret(SIMULATED_API_KEY)} | settings
    config = Settings(**options)
    replies = list(answers or [])

    async def advance(seconds: float) -> None:
        clock.advance(seconds)
        await anyio.lowlevel.checkpoint()

    async with serve(world, faults=faults) as sim:
        api = CursorClient(
            sim.base_url,
            SIMULATED_API_KEY,
            allow_loopback_artifacts=True,
            clock=clock.now,
            wall_clock=clock.now,
            sleep=advance,
            silence_scale=silence_scale,
        )
        async with api:
            written: list[str] = []
            asked: list[str] = []

            def ask(question: str) -> str:
                asked.append(question)
                return replies.pop(0) if replies else ""

            session = Session(api, now=clock.now, sleep=advance)
            term = Term(
                settings=config,
                open_session=fixed_session(session),
                out=recording_console(terminal=terminal),
                err=recording_console(),
                write=written.append,
                json=json_output,
                interactive=interactive,
                ask=ask,
                redactor=Redactor(config.secrets()),
            )
            yield Rig(clock, world, sim, term, session, written, asked)


RigFactory = Callable[..., Any]


@pytest.fixture
def rig_factory() -> RigFactory:
    """`async with rig_factory(world, json_output=True) as rig:`."""
    return open_rig
