"""`diff` and `apply`: their declarations (help, example, arguments); their code is `terminal/changes.py`."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from functools import partial
from pathlib import Path

from cursor_cloud_agents.terminal import options
from cursor_cloud_agents.terminal.declaration import EXAMPLE_AGENT, Coroutine, on_terminal


def _diff_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "agent", type=options.target, metavar="AGENT[:RUN]", help="the agent (its latest run), or one run"
    )
    parser.add_argument("paths", nargs="*", metavar="PATH", help="only these files or folders")


def _diff(args: argparse.Namespace, env: Mapping[str, str]) -> Coroutine:
    from cursor_cloud_agents.terminal.changes import diff_command

    agent, run = args.agent
    return partial(diff_command, agent_id=agent, run_id=run, paths=args.paths, cwd=Path.cwd(), env=env)


def _apply_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("agent", type=options.agent, help="the agent (bc-<uuid>): its latest run's branch")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--merge", dest="mode", action="store_const", const="merge", help="make a merge commit")
    mode.add_argument(
        "--cherry-pick", dest="mode", action="store_const", const="cherry-pick", help="copy the agent's commits"
    )
    parser.set_defaults(mode="fast-forward")
    parser.add_argument("--yes", action="store_true", help="apply without asking (for scripts)")
    parser.add_argument(
        "--remote", metavar="NAME", help="the remote to fetch from (default: the one of the agent's repository)"
    )
    parser.add_argument(
        "--commit",
        metavar="SHA",
        type=options.commit_id,
        help="the commit you reviewed (default: the one `diff` showed last); refused if the branch moved since",
    )


def _apply(args: argparse.Namespace, env: Mapping[str, str]) -> Coroutine:
    from cursor_cloud_agents.terminal.changes import apply_command

    return partial(
        apply_command,
        agent_id=args.agent,
        mode=args.mode,
        remote=args.remote,
        cwd=Path.cwd(),
        env=env,
        commit=args.commit,
        confirmed=args.yes,
    )


DIFF = on_terminal(
    "diff",
    "show what an agent changed: its files and the diff against where its run started",
    EXAMPLE_AGENT,
    _diff,
    _diff_arguments,
)
APPLY = on_terminal(
    "apply",
    "apply an agent's commits onto the current branch (fast-forward, --merge or --cherry-pick)",
    EXAMPLE_AGENT,
    _apply,
    _apply_arguments,
)
