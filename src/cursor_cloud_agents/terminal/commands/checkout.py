"""`checkout`: its declaration (help, example, arguments); its code is `terminal/checkout.py`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from functools import partial
from pathlib import Path

from cursor_cloud_agents.terminal import options
from cursor_cloud_agents.terminal.declaration import AGENT_HELP, EXAMPLE_AGENT, Coroutine, on_terminal


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("agent", type=options.agent, help=AGENT_HELP)
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--worktree", metavar="DIR", help="the new worktree's folder (default: beside this one)")
    where.add_argument(
        "--branch", action="store_true", help="create the local branch and switch to it here, instead of a worktree"
    )
    parser.add_argument(
        "--remote", metavar="NAME", help="the remote to fetch from (default: the one of the agent's repository)"
    )
    parser.add_argument(
        "--check",
        metavar="CMD",
        help="first run CMD (your tests: code the agent wrote) in a throwaway clone of the branch's commit, with an "
        "allow-listed environment (CURSOR_MCP_CHECK_ENV); if it fails nothing is checked out and the exit is 1 "
        "(CURSOR_MCP_CHECK_COMMAND is not used here)",
    )
    parser.add_argument(
        "--anyway", action="store_true", help="with --check: check the branch out even if the check fails (exit 1)"
    )


def _bind(args: argparse.Namespace, env: Mapping[str, str]) -> Coroutine:
    from cursor_cloud_agents.core import git_environment
    from cursor_cloud_agents.terminal.checkout import Where, checkout

    where = Where(args.worktree, args.branch, args.remote)
    git_env = git_environment(env, interactive=sys.stdin.isatty())  # git's own environment, without the key
    return partial(
        checkout, agent_id=args.agent, where=where, cwd=Path.cwd(), env=git_env, check=args.check, anyway=args.anyway
    )


CHECKOUT = on_terminal(
    "checkout",
    "put an agent's branch in a new worktree of this repository (or a local branch)",
    f"{EXAMPLE_AGENT} --check 'python3 -m pytest -q'",
    _bind,
    _arguments,
)
