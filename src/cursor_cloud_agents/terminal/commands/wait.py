"""`wait`: its declaration (help, example, arguments); its code is `terminal/wait.py`."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from functools import partial

from cursor_cloud_agents.terminal import options
from cursor_cloud_agents.terminal.declaration import EXAMPLE_AGENT, Coroutine, on_terminal


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "targets",
        type=options.wait_target,
        nargs="*",
        metavar="AGENT[:RUN]|GROUP",
        help="a run, an agent for its latest run, or a group (grp-<uuid>) for its attempts",
    )
    parser.add_argument("--active", action="store_true", help="wait on every running agent of the key")
    until = parser.add_mutually_exclusive_group()
    until.add_argument("--any", dest="until", action="store_const", const="any", help="until one run ends (default)")
    until.add_argument("--all", dest="until", action="store_const", const="all", help="until every run has ended")
    parser.set_defaults(until="any")
    parser.add_argument(
        "--timeout", type=options.positive(float), metavar="S", help="give up after S seconds (exit 124); default: none"
    )
    options.add_notify(parser)


def _bind(args: argparse.Namespace, _: Mapping[str, str]) -> Coroutine:
    from cursor_cloud_agents.terminal.wait import Target, wait

    targets = [Target(agent, run) for agent, run in args.targets]
    return partial(
        wait, targets=targets, active=args.active, until=args.until, timeout=args.timeout, notify=args.notify
    )


WAIT = on_terminal(
    "wait",
    "block until any (or all) of the runs end, then report each: for a coding agent's background shell",
    f"{EXAMPLE_AGENT} --timeout 3600",
    _bind,
    _arguments,
)
