"""`status`: its declaration (help, example); its code is `terminal/status.py`."""

from __future__ import annotations

import argparse
from collections.abc import Mapping

from cursor_cloud_agents.terminal.declaration import Coroutine, on_terminal


def _bind(_: argparse.Namespace, __: Mapping[str, str]) -> Coroutine:
    from cursor_cloud_agents.terminal.status import status

    return status


STATUS = on_terminal(
    "status", "one line for a status bar: agents running, ended unread, cents today, new agents", "--json", _bind
)
