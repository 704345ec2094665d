"""Running one terminal command: its `Term` from the real process, its coroutine, and its exit code.

`cli.py` calls `run_command` for the commands of `options.COMMANDS`. The key comes only from
`CURSOR_API_KEY` (through `Settings.from_env`), never from an argument. Every failure ends here as a
line on stderr (masked) and an exit code (`exits.py`); Ctrl-C leaves what runs at Cursor running and
says how to come back to it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import AsyncGenerator, Awaitable, Callable, Mapping
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import replace
from functools import partial
from pathlib import Path

import anyio
from rich.console import Console

from cursor_cloud_agents.api import CursorClient, CursorError
from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.core.failures import ToolFailure
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.terminal.exits import INTERRUPTED, USAGE, UsageError, exit_code, failure_of
from cursor_cloud_agents.terminal.term import OpenSession, Session, Term, say

ClientFactory = Callable[[Settings], AbstractAsyncContextManager[CursorClient]]
Command = Callable[[Term], Awaitable[int]]


def _command(args: argparse.Namespace, env: Mapping[str, str]) -> Command:
    """The coroutine of the chosen command, with its arguments bound (each module loaded only when used)."""
    build = _GETTING_WORK_BACK.get(args.command)
    return _classic(args) if build is None else build(args, env)


def _classic(args: argparse.Namespace) -> Command:
    name = args.command
    if name == "agents":
        from cursor_cloud_agents.terminal.agents import agents

        return partial(agents, limit=args.limit, name=args.name, archived=args.all)
    if name == "watch":
        from cursor_cloud_agents.terminal.watch import watch

        return partial(watch, agent_id=args.agent, run_id=args.run)
    if name == "fleet":
        from cursor_cloud_agents.terminal.fleet import fleet

        return partial(fleet, interval=args.interval)
    if name in ("run", "followup"):
        from cursor_cloud_agents.terminal import paid

        if name == "run":
            order = paid.Order(args.prompt, args.repo, args.ref, args.model, tuple(args.images), args.yes)
            return partial(paid.run, order=order, then="watch" if args.watch else "wait" if args.wait else None)
        return partial(paid.followup, agent_id=args.agent, prompt=args.prompt, confirmed=args.yes)
    from cursor_cloud_agents.terminal import actions

    if name == "cancel":
        return partial(actions.cancel, agent_id=args.agent, run_id=args.run)
    if name == "archive":
        return partial(actions.archive, agent_id=args.agent)
    if name == "usage":
        return partial(actions.usage, agent_id=args.agent)
    return partial(actions.artifacts, agent_id=args.agent, path=args.get, output=args.output)


def _wait(args: argparse.Namespace, env: Mapping[str, str]) -> Command:
    del env
    from cursor_cloud_agents.terminal.wait import Target, wait

    targets = [Target(agent, run) for agent, run in args.targets]
    return partial(wait, targets=targets, active=args.active, until=args.until, timeout=args.timeout)


def _checkout(args: argparse.Namespace, env: Mapping[str, str]) -> Command:
    from cursor_cloud_agents.terminal.checkout import Where, checkout
    from cursor_cloud_agents.terminal.git import git_environment

    where = Where(args.worktree, args.branch, args.remote)
    git_env = git_environment(env, interactive=sys.stdin.isatty())
    return partial(checkout, agent_id=args.agent, where=where, cwd=Path.cwd(), env=git_env)


def _status() -> Command:
    from cursor_cloud_agents.terminal.status import status

    return status


_GETTING_WORK_BACK: dict[str, Callable[[argparse.Namespace, Mapping[str, str]], Command]] = {
    "wait": _wait,
    "checkout": _checkout,
    "status": lambda _args, _env: _status(),
}
"""The commands of issue 24, each built from its arguments and the environment (git's, without the key)."""


def _opener(settings: Settings, args: argparse.Namespace, open_client: ClientFactory) -> OpenSession:
    if args.simulated:
        from cursor_cloud_agents.terminal.simulated import simulated_session

        return partial(simulated_session, args.scenario, args.speed)

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
        raise UsageError(f"{settings.key_problem} (or try the command with --simulated)")
    return settings


def build_term(args: argparse.Namespace, env: Mapping[str, str], open_client: ClientFactory) -> Term:
    """The `Term` of this process: stdout and stderr, the settings from `env`, and how to open the API."""
    settings = _settings(env, args.simulated)
    return Term(
        settings=settings,
        open_session=_opener(settings, args, open_client),
        out=Console(highlight=False, soft_wrap=not sys.stdout.isatty()),  # piped: whole lines, never re-wrapped
        err=Console(stderr=True, highlight=False),
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
        term.notice(f"cursor-cloud-agents: {failure.code}: {failure.message}", style="red")
        return exit_code(failure)


def run_command(args: argparse.Namespace, env: Mapping[str, str], open_client: ClientFactory) -> int:
    """Run the terminal command `args.command`; returns the process exit code."""
    try:
        term = build_term(args, env, open_client)
    except UsageError as exc:
        say(Console(stderr=True), Redactor().mask, f"cursor-cloud-agents: {exc}", "red")
        return USAGE
    try:
        return anyio.run(execute, term, _command(args, env))
    except KeyboardInterrupt:
        term.notice("Interrupted." + (f" {term.come_back}" if term.come_back else ""), style="yellow")
        return INTERRUPTED
