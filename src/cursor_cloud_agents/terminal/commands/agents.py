"""`agents`: its declaration (help, example, arguments); its code is `terminal/agents.py`."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from functools import partial

from cursor_cloud_agents.terminal import options
from cursor_cloud_agents.terminal.declaration import Coroutine, on_terminal


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--all", action="store_true", help="include archived agents")
    parser.add_argument(
        "--name", type=options.one_line, help="only agents whose name contains TEXT (case-insensitive)", metavar="TEXT"
    )
    parser.add_argument(
        "--limit", type=options.positive(int), default=20, help="at most N agents (default 20)", metavar="N"
    )


def _bind(args: argparse.Namespace, _: Mapping[str, str]) -> Coroutine:
    from cursor_cloud_agents.terminal.agents import agents

    return partial(agents, limit=args.limit, name=args.name, archived=args.all)


AGENTS = on_terminal(
    "agents",
    "list agents: latest run, repository, branch or PR, age, idle time, URL",
    "--name login --limit 5",
    _bind,
    _arguments,
)
