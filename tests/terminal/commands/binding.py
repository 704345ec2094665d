"""What the declaration tests share: the program's real parser, and the keywords a bind gave its coroutine."""

from __future__ import annotations

import argparse
from functools import partial
from typing import Any, cast

from cursor_cloud_agents.cli import main as cli
from cursor_cloud_agents.terminal.declaration import Coroutine

AGENT = "bc-00000000-0000-4000-8000-000000000001"
RUN = "run-00000000-0000-4000-8000-000000000002"
GROUP = "grp-00000000-0000-4000-8000-000000000003"
ENV = {"PATH": "/usr/bin:/bin"}


def parsed(*argv: str) -> argparse.Namespace:
    """`argv` as the command line parses it (the parser every declaration is added to)."""
    return cli._parser().parse_args(list(argv))  # pyright: ignore[reportPrivateUsage]  # the real parser


def bound(made: Coroutine) -> tuple[Any, dict[str, Any]]:
    """The coroutine function a bind chose, and the keywords it bound."""
    assert isinstance(made, partial)
    made = cast("partial[Any]", made)
    return made.func, dict(made.keywords)
