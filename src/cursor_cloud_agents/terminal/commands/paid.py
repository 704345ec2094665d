"""`run` and `followup`: their declarations (help, example, arguments); their code is `terminal/paid.py` (and
`terminal/attempts.py` for `run --models`, `terminal/queued.py` for `followup --drop`)."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from functools import partial
from pathlib import Path

from cursor_cloud_agents.terminal import options
from cursor_cloud_agents.terminal.declaration import AGENT_HELP, EXAMPLE_AGENT, Coroutine, on_terminal


def _run_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("prompt", type=options.prompt, help="what the agent should do")
    parser.add_argument("--repo", help="repository URL (https://github.com/OWNER/REPO)", metavar="URL")
    parser.add_argument("--ref", help="branch or full commit SHA to start from (with --repo)", metavar="REF")
    models = parser.add_mutually_exclusive_group()
    models.add_argument(
        "--model", type=options.token, help="model id (default: the account's default model)", metavar="ID"
    )
    models.add_argument(
        "--models",
        type=options.model_list,
        help="2 to 8 model ids: one paid agent each on the same task, compared with `compare GROUP`",
        metavar="A,B,C",
    )
    parser.add_argument(
        "--image", action="append", default=[], help="attach an image file (up to 5)", metavar="PATH", dest="images"
    )
    parser.add_argument("--yes", action="store_true", help="start without asking for confirmation")
    parser.add_argument(
        "--max-minutes",
        type=options.positive(float),
        metavar="M",
        help="cancel the run once it is M minutes old (waits for it meanwhile; exit 124 when cancelled)",
    )
    then = parser.add_mutually_exclusive_group()
    then.add_argument("--wait", action="store_true", help="show a progress line until the run ends")
    then.add_argument("--watch", action="store_true", help="follow the run live until it ends")


def _run(args: argparse.Namespace, env: Mapping[str, str]) -> Coroutine:
    from cursor_cloud_agents.terminal import paid
    from cursor_cloud_agents.terminal.ownrepo import Here

    here = Here(Path.cwd(), env)
    repo = here.default_repository(args.repo)  # inside a repository: its origin
    order = paid.Order(
        args.prompt, repo, args.ref, args.model, tuple(args.images), args.yes, here=here, max_minutes=args.max_minutes
    )
    if args.models is not None:
        from cursor_cloud_agents.terminal import attempts

        return partial(attempts.run_attempts, order=order, models=args.models, waits=args.wait or args.watch)
    return partial(paid.run, order=order, then="watch" if args.watch else "wait" if args.wait else None)


def _followup_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("agent", type=options.agent, help=AGENT_HELP)
    parser.add_argument("prompt", type=options.prompt, nargs="?", help="what the agent should do next")
    parser.add_argument("--yes", action="store_true", help="send without asking for confirmation")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--queue", action="store_true", help="if the agent is busy, send it right after its run ends")
    what.add_argument("--drop", action="store_true", help="take the follow-up queued for the agent out of the queue")


def _followup(args: argparse.Namespace, _: Mapping[str, str]) -> Coroutine:
    from cursor_cloud_agents.terminal import paid, queued

    if args.drop:
        return partial(queued.drop_followup, agent_id=args.agent, prompt=args.prompt)
    return partial(paid.followup, agent_id=args.agent, prompt=args.prompt or "", confirmed=args.yes, queue=args.queue)


RUN = on_terminal(
    "run",
    "start a paid agent, after showing what will be paid for",
    "'Fix the flaky login test' --repo https://github.com/org/repo --watch",
    _run,
    _run_arguments,
)
FOLLOWUP = on_terminal(
    "followup",
    "send a follow-up prompt: a new paid run of the same agent (--queue for a busy one, --drop to unqueue it)",
    f"{EXAMPLE_AGENT} 'Also add tests' --yes",
    _followup,
    _followup_arguments,
)
