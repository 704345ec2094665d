"""`compare` and `keep`: their declarations (help, example, arguments); their code is `terminal/attempts.py`."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from functools import partial
from pathlib import Path

from cursor_cloud_agents.terminal import options
from cursor_cloud_agents.terminal.declaration import EXAMPLE_GROUP, Coroutine, on_terminal

_GROUP_HELP = "the group (grp-<uuid>)"


def _compare_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("group", type=options.group, help=_GROUP_HELP)


def _compare(args: argparse.Namespace, env: Mapping[str, str]) -> Coroutine:
    from cursor_cloud_agents.terminal import attempts

    return partial(attempts.compare_group, group=args.group, cwd=Path.cwd(), env=env)


def _keep_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("group", type=options.group, help=_GROUP_HELP)
    parser.add_argument(
        "agent", metavar="ATTEMPT", help="the attempt to keep: its number in `compare`, its agent id, or an id prefix"
    )


def _keep(args: argparse.Namespace, _: Mapping[str, str]) -> Coroutine:
    from cursor_cloud_agents.terminal import attempts

    return partial(attempts.keep_attempt, group=args.group, agent_id=args.agent)


COMPARE = on_terminal(
    "compare",
    "the attempts of a group side by side: status, time, cost, change, result",
    EXAMPLE_GROUP,
    _compare,
    _compare_arguments,
)
KEEP = on_terminal(
    "keep",
    "keep one attempt of a group and archive the others (reversible)",
    f"{EXAMPLE_GROUP} 2",
    _keep,
    _keep_arguments,
)
