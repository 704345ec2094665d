"""Running one terminal command: its `Term` from the real process, its coroutine, and its exit code.

A command declared with `declaration.on_terminal` binds its coroutine and hands it to `run_command`. The
key comes only from `CURSOR_API_KEY` (through `Settings.from_env`), never from an argument. Every failure
ends here as a line on stderr (masked) and an exit code (`exits.py`); Ctrl-C leaves what runs at Cursor
running and says how to come back to it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import AsyncGenerator, Awaitable, Callable, Mapping
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import replace

import anyio
from rich.console import Console

from cursor_cloud_agents.api import CursorClient, CursorError
from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.core import ToolFailure
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.terminal.exits import INTERRUPTED, USAGE, UsageError, exit_code, failure_of
from cursor_cloud_agents.terminal.pipes import PipeConsole, unwrapped
from cursor_cloud_agents.terminal.term import OpenSession, Session, Term, say
from cursor_cloud_agents.terminal.words import for_person, key_problem

ClientFactory = Callable[[Settings], AbstractAsyncContextManager[CursorClient]]
Command = Callable[[Term], Awaitable[int]]


def _opener(settings: Settings, open_client: ClientFactory) -> OpenSession:
    @asynccontextmanager
    async def real() -> AsyncGenerator[Session, None]:
        async with open_client(settings) as api:
            yield Session(api)

    return real


def _settings(env: Mapping[str, str], simulated: bool) -> Settings:
    settings = Settings.from_env(env)
    if simulated:
        return replace(settings, simulated=True, api_key=None, key_problem=None)
    if settings.simulated:
        return settings  # CURSOR_MCP_FIXTURE=1: the CLI's own embedded simulator
    if settings.key_problem is not None:
        raise UsageError(f"{key_problem(settings.key_problem)} (or try the command with --simulated)")
    return settings


def build_term(args: argparse.Namespace, env: Mapping[str, str], open_client: ClientFactory) -> Term:
    """The `Term` of this process: stdout and stderr, the settings from `env`, and how to open the API."""
    settings = _settings(env, args.simulated)
    if args.simulated:
        from cursor_cloud_agents.terminal.simulated import simulated_opener  # the lasting world, or one of its own

        opener = simulated_opener(settings, args.scenario, args.speed, env)
    else:
        opener = _opener(settings, open_client)
    return Term(
        settings=settings,
        open_session=opener,
        out=PipeConsole(highlight=False, soft_wrap=not sys.stdout.isatty()),  # piped: whole lines, never re-wrapped
        err=PipeConsole(stderr=True, highlight=False),
        write=sys.stdout.write,
        json=args.json,
        interactive=sys.stdin.isatty(),
        redactor=Redactor(settings.secrets()),
    )


async def execute(term: Term, command: Command) -> int:
    """Run `command`; a refusal or a failure becomes a masked line on stderr and its exit code."""
    try:
        return await command(term)
    except UsageError as exc:
        term.notice(f"cursor-cloud-agents: {exc}", style="red")
        return USAGE
    except (CursorError, ToolFailure) as exc:
        failure = failure_of(exc)
        term.notice(f"cursor-cloud-agents: {failure.code}: {for_person(failure)}", style="red")
        return exit_code(failure)


def run_command(args: argparse.Namespace, env: Mapping[str, str], open_client: ClientFactory, command: Command) -> int:
    """Run `command`, the bound coroutine of the terminal command `args.command`; returns the exit code."""
    try:
        term = build_term(args, env, open_client)
    except UsageError as exc:
        say(Console(stderr=True), Redactor().mask, f"cursor-cloud-agents: {exc}", "red")
        return USAGE
    try:
        return anyio.run(execute, term, command)
    except BaseExceptionGroup as group:  # a closed pipe met inside a task group: 141, as anywhere else
        raise unwrapped(group) from None
    except KeyboardInterrupt:
        term.notice("Interrupted." + (f" {term.come_back}" if term.come_back else ""), style="yellow")
        return INTERRUPTED
