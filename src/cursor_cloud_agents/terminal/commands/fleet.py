"""`fleet`: its declaration (help, example, arguments); its code is `terminal/fleet.py`."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from functools import partial

from cursor_cloud_agents.terminal import options
from cursor_cloud_agents.terminal.declaration import Coroutine, on_terminal


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--interval",
        type=options.positive(float),
        default=10.0,
        help="seconds between refreshes (default 10)",
        metavar="S",
    )


def _bind(args: argparse.Namespace, _: Mapping[str, str]) -> Coroutine:
    from cursor_cloud_agents.terminal.fleet import fleet

    return partial(fleet, interval=args.interval)


FLEET = on_terminal(
    "fleet", "a refreshing dashboard of the active agents, those needing you first", "--interval 15", _bind, _arguments
)
