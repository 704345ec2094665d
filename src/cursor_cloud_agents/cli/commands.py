"""Every command of `cursor-cloud-agents` in one table: its name and the function that runs it.

`cli.main` runs the row of the chosen command (no command: it serves MCP on stdio). A terminal command's
row binds its coroutine to its arguments and hands it to `terminal/dispatch.run_command`, which builds
the terminal and turns failures into exit codes. Each row imports only what its command needs, so that
the bare server starts without rich, the simulator, the MCP client or the commands.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import anyio

from cursor_cloud_agents.cli.logs import setup_logging
from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.redact import Redactor

if TYPE_CHECKING:
    from cursor_cloud_agents.api import CursorClient
    from cursor_cloud_agents.api.record import Observer
    from cursor_cloud_agents.terminal.dispatch import Command


class OpenClient(Protocol):
    """How a command opens the API for its settings, every exchange also shown to `observer`: `embedded.open_client`."""

    def __call__(
        self, settings: Settings, observer: Observer | None = None, /
    ) -> AbstractAsyncContextManager[CursorClient]: ...


@dataclass(frozen=True)
class Root:
    """What the composition root hands every command: the environment and how to open the API."""

    env: Mapping[str, str]
    open_client: OpenClient


Run = Callable[[argparse.Namespace, Root], int]
"""A command: its parsed arguments and the root in, its exit code out."""


def _demo(args: argparse.Namespace, _: Root) -> int:
    from cursor_cloud_agents.cli.demo import run_demo  # only the demo needs the MCP client

    return run_demo(base_url=args.base_url, record=args.record, agent_id=args.agent_id)


def _doctor(_: argparse.Namespace, root: Root) -> int:
    from cursor_cloud_agents.cli.doctor import diagnose  # the commands load what only they need

    return anyio.run(diagnose, root.env, root.open_client, sys.stdout.write)


def _config(args: argparse.Namespace, _: Root) -> int:
    from cursor_cloud_agents.clients import command_path, snippet

    sys.stdout.write(snippet(args.client, command_path()).printed())
    return 0


def _login(args: argparse.Namespace, root: Root) -> int:
    from cursor_cloud_agents.cli.login import Out, login, read_key  # keystore's keyring is loaded only here

    out = Out(say=sys.stdout.write, warn=sys.stderr.write)
    return anyio.run(login, root.env, root.open_client, read_key(args.stdin), out)


def _logout(_: argparse.Namespace, root: Root) -> int:
    from cursor_cloud_agents.cli.login import Out, logout

    return logout(root.env, Out(say=sys.stdout.write, warn=sys.stderr.write))


def _verify(args: argparse.Namespace, root: Root) -> int:
    from cursor_cloud_agents.terminal.ask import ask_on_terminal
    from cursor_cloud_agents.verify import Io, Options, run_verify  # loaded by verify alone

    options = Options(args.spend, args.yes, args.record, args.keep_text, args.show_identities)
    io = Io(write=lambda text: (sys.stdout.write(text), sys.stdout.flush()), ask=ask_on_terminal)
    return anyio.run(run_verify, root.env, options, root.open_client, io)


def _simulate(args: argparse.Namespace, _: Root) -> int:
    from cursor_cloud_agents.embedded import simulator_folder, stand_in_remote_folder
    from cursor_cloud_agents.simulator import SIMULATED_API_KEY, StandInRemote, run_simulator

    port: int = args.port
    scenario: str = args.scenario
    replay: Path | None = args.replay
    setup_logging("INFO", Redactor())
    remote = None if replay is not None else StandInRemote(stand_in_remote_folder(simulator_folder()))

    def ready(base_url: str) -> None:
        # The second line is for a shell: `GET /v1/me` with that key answers 200, any other key 401.
        sys.stdout.write(
            f"Cursor API simulator ({scenario if replay is None else f'replay of {replay}'}) at {base_url}"
            "  (Ctrl-C to stop)\n"
            f"export CURSOR_API_BASE_URL={base_url} CURSOR_API_KEY={SIMULATED_API_KEY}\n"
        )
        if remote is not None:
            # The agents' branches are real commits in a bare repository standing in for GitHub.
            sys.stdout.write(
                f"stand-in GitHub remote (the agents' branches): {remote.folder}\nclone it: {remote.clone_command()}\n"
            )
        sys.stdout.flush()

    anyio.run(
        lambda: run_simulator(
            port=port or None, scenario=scenario, speed=args.speed, ready=ready, replay=replay, remote=remote
        )
    )
    return 0


def _agents(args: argparse.Namespace) -> Command:
    from cursor_cloud_agents.terminal.agents import agents

    return partial(agents, limit=args.limit, name=args.name, archived=args.all)


def _watch(args: argparse.Namespace) -> Command:
    from cursor_cloud_agents.terminal.watch import watch

    return partial(watch, agent_id=args.agent, run_id=args.run)


def _fleet(args: argparse.Namespace) -> Command:
    from cursor_cloud_agents.terminal.fleet import fleet

    return partial(fleet, interval=args.interval)


def _run(args: argparse.Namespace) -> Command:
    from cursor_cloud_agents.terminal import paid

    order = paid.Order(args.prompt, args.repo, args.ref, args.model, tuple(args.images), args.yes)
    if args.models is not None:
        from cursor_cloud_agents.terminal import attempts

        return partial(attempts.run_attempts, order=order, models=args.models, waits=args.wait or args.watch)
    return partial(paid.run, order=order, then="watch" if args.watch else "wait" if args.wait else None)


def _compare(args: argparse.Namespace) -> Command:
    from cursor_cloud_agents.terminal import attempts

    return partial(attempts.compare_group, group=args.group)


def _keep(args: argparse.Namespace) -> Command:
    from cursor_cloud_agents.terminal import attempts

    return partial(attempts.keep_attempt, group=args.group, agent_id=args.agent)


def _followup(args: argparse.Namespace) -> Command:
    from cursor_cloud_agents.terminal import paid

    return partial(paid.followup, agent_id=args.agent, prompt=args.prompt, confirmed=args.yes, queue=args.queue)


def _cancel(args: argparse.Namespace) -> Command:
    from cursor_cloud_agents.terminal import actions

    return partial(actions.cancel, agent_id=args.agent, run_id=args.run)


def _archive(args: argparse.Namespace) -> Command:
    from cursor_cloud_agents.terminal import actions

    return partial(actions.archive, agent_id=args.agent)


def _usage(args: argparse.Namespace) -> Command:
    from cursor_cloud_agents.terminal import actions

    return partial(actions.usage, agent_id=args.agent)


def _artifacts(args: argparse.Namespace) -> Command:
    from cursor_cloud_agents.terminal import actions

    return partial(actions.artifacts, agent_id=args.agent, path=args.get, output=args.output)


def _wait(args: argparse.Namespace) -> Command:
    from cursor_cloud_agents.terminal.wait import Target, wait

    targets = [Target(agent, run) for agent, run in args.targets]
    return partial(
        wait, targets=targets, active=args.active, until=args.until, timeout=args.timeout, notify=args.notify
    )


def _events(args: argparse.Namespace) -> Command:
    from cursor_cloud_agents.terminal.events import events

    return partial(events, agent_ids=args.agents, name=args.name, until=args.until, notify=args.notify)


def _checkout(args: argparse.Namespace, env: Mapping[str, str]) -> Command:
    from cursor_cloud_agents.core import git_environment
    from cursor_cloud_agents.terminal.checkout import Where, checkout

    where = Where(args.worktree, args.branch, args.remote)
    git_env = git_environment(env, interactive=sys.stdin.isatty())  # git's own environment, without the key
    return partial(checkout, agent_id=args.agent, where=where, cwd=Path.cwd(), env=git_env, check=args.check)


def _diff(args: argparse.Namespace, env: Mapping[str, str]) -> Command:
    from cursor_cloud_agents.terminal.changes import diff_command

    agent, run = args.agent
    return partial(diff_command, agent_id=agent, run_id=run, paths=args.paths, cwd=Path.cwd(), env=env)


def _apply(args: argparse.Namespace, env: Mapping[str, str]) -> Command:
    from cursor_cloud_agents.terminal.changes import apply_command

    return partial(apply_command, agent_id=args.agent, mode=args.mode, remote=args.remote, cwd=Path.cwd(), env=env)


def _status(_: argparse.Namespace) -> Command:
    from cursor_cloud_agents.terminal.status import status

    return status


def _on_terminal(bind: Callable[[argparse.Namespace], Command]) -> Run:
    """The row of a terminal command: its coroutine, bound by `bind`, run on this process's terminal."""

    def run(args: argparse.Namespace, root: Root) -> int:
        from cursor_cloud_agents.terminal.dispatch import run_command  # rich and the commands load only here

        return run_command(args, root.env, root.open_client, bind(args))

    return run


def _on_terminal_with(bind: Callable[[argparse.Namespace, Mapping[str, str]], Command]) -> Run:
    """The row of a terminal command whose coroutine also needs the environment (git's, for `checkout`)."""

    def run(args: argparse.Namespace, root: Root) -> int:
        from cursor_cloud_agents.terminal.dispatch import run_command

        return run_command(args, root.env, root.open_client, bind(args, root.env))

    return run


COMMANDS: dict[str, Run] = {
    "demo": _demo,
    "doctor": _doctor,
    "config": _config,
    "login": _login,
    "logout": _logout,
    "simulate": _simulate,
    "verify": _verify,
    "agents": _on_terminal(_agents),
    "watch": _on_terminal(_watch),
    "fleet": _on_terminal(_fleet),
    "run": _on_terminal(_run),
    "followup": _on_terminal(_followup),
    "compare": _on_terminal(_compare),
    "keep": _on_terminal(_keep),
    "cancel": _on_terminal(_cancel),
    "archive": _on_terminal(_archive),
    "usage": _on_terminal(_usage),
    "artifacts": _on_terminal(_artifacts),
    "wait": _on_terminal(_wait),
    "events": _on_terminal(_events),
    "checkout": _on_terminal_with(_checkout),
    "diff": _on_terminal_with(_diff),
    "apply": _on_terminal_with(_apply),
    "status": _on_terminal(_status),
}
"""Every command by name; the parser (`cli._parser`, `terminal/options.py`) declares their arguments."""
