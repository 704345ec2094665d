"""`tidy`: its declaration (help, example, arguments); its code is `terminal/tidy.py`."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from functools import partial

from cursor_cloud_agents.terminal import options
from cursor_cloud_agents.terminal.declaration import Coroutine, on_terminal


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dry-run", action="store_true", help="show what would be archived, archive nothing")
    parser.add_argument("--yes", action="store_true", help="archive without asking for confirmation")
    parser.add_argument(
        "--idle-days",
        type=options.positive(float),
        default=7.0,
        metavar="D",
        help="an agent whose last run ended more than D days ago is picked (default 7)",
    )


def _bind(args: argparse.Namespace, env: Mapping[str, str]) -> Coroutine:
    from cursor_cloud_agents.terminal.tidy import tidy

    return partial(tidy, dry_run=args.dry_run, confirmed=args.yes, idle_days=args.idle_days, env=env)


TIDY = on_terminal(
    "tidy",
    "archive agents whose PR merged or closed, or idle for days, their work saved first",
    "--dry-run",
    _bind,
    _arguments,
)
