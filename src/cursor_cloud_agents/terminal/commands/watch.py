"""`watch`: its declaration (help, example, arguments); its code is `terminal/watch.py`."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from functools import partial

from cursor_cloud_agents.terminal import options
from cursor_cloud_agents.terminal.declaration import AGENT_HELP, EXAMPLE_AGENT, Coroutine, on_terminal


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("agent", type=options.agent, help=AGENT_HELP)
    parser.add_argument("run", type=options.run_id, nargs="?", help="the run (default: the agent's latest)")


def _bind(args: argparse.Namespace, _: Mapping[str, str]) -> Coroutine:
    from cursor_cloud_agents.terminal.watch import watch

    return partial(watch, agent_id=args.agent, run_id=args.run)


WATCH = on_terminal(
    "watch", "follow a run live: its text, tool calls, summary and result", EXAMPLE_AGENT, _bind, _arguments
)
