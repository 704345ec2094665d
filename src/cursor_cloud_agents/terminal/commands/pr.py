"""`pr` and `babysit`: their declarations (help, example, arguments); their code is `terminal/pr.py`. Both
resolve an agent named by its PR themselves, after checking GitHub access and before any request."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from functools import partial

from cursor_cloud_agents.terminal import options
from cursor_cloud_agents.terminal.declaration import EXAMPLE_AGENT, Coroutine, on_terminal

_AGENT_HELP = "the agent (bc-<uuid>) or its PR (https://github.com/o/r/pull/7 or o/r#7)"


def _pr_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("agent", type=options.agent, help=_AGENT_HELP)


def _pr(args: argparse.Namespace, env: Mapping[str, str]) -> Coroutine:
    from cursor_cloud_agents.terminal.pr import pr

    return partial(pr, target=args.agent, env=env)


def _babysit_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("agent", type=options.agent, help=_AGENT_HELP)
    parser.add_argument(
        "--max-fixes",
        type=options.count,
        default=3,
        metavar="N",
        help="follow-ups sent at most, then escalated (default 3)",
    )
    parser.add_argument(
        "--interval",
        type=options.positive(float),
        default=60.0,
        metavar="SECONDS",
        help="seconds between looks at the PR (default 60)",
    )
    parser.add_argument(
        "--resolve-conflicts",
        action="store_true",
        help="on a merge conflict, ask the agent to merge the base and resolve it (default: only report it)",
    )


def _babysit(args: argparse.Namespace, env: Mapping[str, str]) -> Coroutine:
    from cursor_cloud_agents.terminal.pr import Watching, babysit

    watching = Watching(args.max_fixes, args.interval, args.resolve_conflicts)
    return partial(babysit, target=args.agent, watching=watching, env=env)


PR = on_terminal(
    "pr",
    "an agent's pull request: checks on its head, reviews, mergeable, fixes sent",
    "your-org/your-repo#7",
    _pr,
    _pr_arguments,
    own_pr=True,
)
BABYSIT = on_terminal(
    "babysit",
    "watch an agent's PR until it merges: a fix sent when CI fails or a trusted reviewer asks",
    f"{EXAMPLE_AGENT} --max-fixes 3 --json",
    _babysit,
    _babysit_arguments,
    own_pr=True,
    epilog="\n\nStarting it is your consent to up to --max-fixes paid follow-ups to the agent (within your limits).\n"
    "GitHub access: GH_TOKEN, else GITHUB_TOKEN, else `gh auth token`.\n"
    "exit: 0 the PR was merged or closed; 2 no GitHub access or a usage error (nothing sent); "
    "3 the watch cannot go on (the PR or the agent can no longer be read); 130 interrupted",
)
