"""`events`: its declaration (help, example, arguments); its code is `terminal/events.py`."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from functools import partial

from cursor_cloud_agents.terminal import options
from cursor_cloud_agents.terminal.declaration import Coroutine, on_terminal


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "agents", type=options.agent, nargs="*", metavar="AGENT", help="agents to follow (default: the fleet)"
    )
    parser.add_argument("--name", help="follow the agents whose name contains this text (a group)")
    parser.add_argument(
        "--until", choices=("any", "all"), help="stop once one run (every run followed) ended; default: never"
    )
    options.add_notify(parser)


def _bind(args: argparse.Namespace, _: Mapping[str, str]) -> Coroutine:
    from cursor_cloud_agents.terminal.events import events

    return partial(events, agent_ids=args.agents, name=args.name, until=args.until, notify=args.notify)


EVENTS = on_terminal(
    "events",
    "one JSON line per change across the agents (started, ended, stuck, PR, follow-up sent): for a Monitor",
    "--until any --notify",
    _bind,
    _arguments,
)
