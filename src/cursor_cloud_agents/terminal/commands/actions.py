"""`cancel`, `archive`, `usage` and `artifacts`: their declarations (help, example, arguments); their code is
`terminal/actions.py`."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from functools import partial

from cursor_cloud_agents.terminal import options
from cursor_cloud_agents.terminal.declaration import AGENT_HELP, EXAMPLE_AGENT, Coroutine, on_terminal


def _agent(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("agent", type=options.agent, help=AGENT_HELP)


def _cancel_arguments(parser: argparse.ArgumentParser) -> None:
    _agent(parser)
    parser.add_argument("run", type=options.run_id, nargs="?", help="the run (default: the agent's latest)")


def _artifacts_arguments(parser: argparse.ArgumentParser) -> None:
    _agent(parser)
    parser.add_argument("--get", help="download this artifact to a file", metavar="PATH")
    parser.add_argument(
        "--output", "-o", metavar="FILE", help="the file to write (default: the artifact's name); never a terminal"
    )


def _cancel(args: argparse.Namespace, _: Mapping[str, str]) -> Coroutine:
    from cursor_cloud_agents.terminal import actions

    return partial(actions.cancel, agent_id=args.agent, run_id=args.run)


def _archive(args: argparse.Namespace, _: Mapping[str, str]) -> Coroutine:
    from cursor_cloud_agents.terminal import actions

    return partial(actions.archive, agent_id=args.agent)


def _usage(args: argparse.Namespace, _: Mapping[str, str]) -> Coroutine:
    from cursor_cloud_agents.terminal import actions

    return partial(actions.usage, agent_id=args.agent)


def _artifacts(args: argparse.Namespace, _: Mapping[str, str]) -> Coroutine:
    from cursor_cloud_agents.terminal import actions

    return partial(actions.artifacts, agent_id=args.agent, path=args.get, output=args.output)


CANCEL = on_terminal("cancel", "cancel a run (default: the agent's latest)", EXAMPLE_AGENT, _cancel, _cancel_arguments)
ARCHIVE = on_terminal("archive", "archive an agent (reversible in Cursor's web app)", EXAMPLE_AGENT, _archive, _agent)
USAGE = on_terminal("usage", "tokens and cost of an agent, per run", f"{EXAMPLE_AGENT} --json", _usage, _agent)
ARTIFACTS = on_terminal(
    "artifacts",
    "list an agent's files under artifacts/, or download one",
    f"{EXAMPLE_AGENT} --get artifacts/report.md",
    _artifacts,
    _artifacts_arguments,
)
