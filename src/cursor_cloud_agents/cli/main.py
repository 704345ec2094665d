"""The command line and composition root: the only module that knows the server, the client and the simulator.

Bare, `cursor-cloud-agents` serves MCP on stdio (what clients start). `demo` walks the tools through a
real MCP client against the embedded simulator; `simulate` serves the simulator on loopback; `doctor`
checks the settings and one call; `config CLIENT` prints the registration for a client.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import tempfile
from collections.abc import Mapping, Sequence
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING

import anyio

from cursor_cloud_agents import __version__
from cursor_cloud_agents.cli.commands import COMMANDS, add_commands
from cursor_cloud_agents.cli.logs import setup_logging
from cursor_cloud_agents.config import ConfigError, Settings
from cursor_cloud_agents.embedded import open_client, stand_in_git_config
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.terminal.declaration import Root

if TYPE_CHECKING:
    from cursor_cloud_agents.core import GitPlaces

logger = logging.getLogger("cursor_cloud_agents")

_TERMINAL_HINT = (
    "cursor-cloud-agents speaks MCP on stdin/stdout and is meant to be started by an MCP client "
    "(Claude Code, Codex CLI, OpenCode, Cursor CLI): see the README. Try `cursor-cloud-agents demo`. Ctrl-C to quit.\n"
)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cursor-cloud-agents",
        description="Delegate work to Cursor Cloud Agents. Without a command: serve MCP on stdio.",
        epilog="example:\n  cursor-cloud-agents agents --simulated\n"
        "  cursor-cloud-agents run 'Fix the flaky login test' --repo https://github.com/org/repo --watch",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    add_commands(parser.add_subparsers(dest="command", metavar="COMMAND"))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit code."""
    args = _parser().parse_args(argv)
    try:
        run = COMMANDS.get(args.command)
        code = _serve() if run is None else run(args, Root(os.environ, open_client))
        sys.stdout.flush()  # here, so that a reader gone away is caught below rather than at exit
        return code
    except ConfigError as exc:
        sys.stderr.write(f"cursor-cloud-agents: {exc}\n")
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`doctor | head -1`): end quietly, as a shell command killed by SIGPIPE would.
        _stdout_to_devnull()
        return 141


def _stdout_to_devnull() -> None:
    """Point fd 1 at /dev/null, so that Python's own flush at exit does not fail again on the closed pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass  # stdout is not a file (an embedding, a test): nothing is flushed to fd 1 at exit


def _serve() -> int:
    # Imported here: the MCP SDK is the server's alone, and the terminal commands start without it.
    from cursor_cloud_agents.server import build_server, run_stdio

    settings = Settings.from_env(os.environ)
    redactor = Redactor(settings.secrets())
    setup_logging(settings.log_level, redactor)
    if sys.stdin.isatty():
        sys.stderr.write(_TERMINAL_HINT)
    _announce(settings)
    # Simulated mode: the world's runs push to a stand-in remote of this process's own, gone when it ends.
    with (
        tempfile.TemporaryDirectory(prefix="cursor-cloud-agents-sim-") if settings.simulated else nullcontext() as made
    ):
        folder = None if made is None else Path(made)
        places = git_places(settings, os.environ, folder)
        opener = lambda: open_client(settings, redactor=redactor, folder=folder)  # noqa: E731
        server = build_server(settings, redactor, opener, git_places=places)
        return anyio.run(run_stdio, server)


def git_places(settings: Settings, env: Mapping[str, str], folder: Path | None) -> GitPlaces:
    """Where the server's git works: the client's roots and the working directory, then a cache in the state
    folder; in simulated mode, with the stand-in remote of `folder` and a cache inside it (never the real one)."""
    from cursor_cloud_agents.core import GitPlaces, cache_dir_for  # what the first change read needs, not start-up

    if folder is None:
        return GitPlaces(env, cache_dir_for(settings.state_dir), working_dir=Path.cwd(), hosts=settings.git_hosts)
    return GitPlaces(
        env, folder / "cache", stand_in_git_config(folder), working_dir=Path.cwd(), hosts=settings.git_hosts
    )


def _announce(settings: Settings) -> None:
    if settings.simulated:
        logger.warning("SIMULATED MODE: tools talk to an embedded simulator; nothing is real or billed")
    if settings.key_problem and not settings.simulated:
        logger.warning("configuration: %s: run `cursor-cloud-agents login` or set CURSOR_API_KEY", settings.key_problem)
    for problem in settings.forward_problems.values():
        if problem and not settings.simulated:
            logger.warning("configuration: %s", problem)
