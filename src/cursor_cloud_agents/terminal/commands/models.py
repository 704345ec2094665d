"""`models`: its declaration (help, example); its code is `terminal/models.py`."""

from __future__ import annotations

import argparse
from collections.abc import Mapping

from cursor_cloud_agents.terminal.declaration import Coroutine, on_terminal


def _bind(_: argparse.Namespace, __: Mapping[str, str]) -> Coroutine:
    from cursor_cloud_agents.terminal.models import models

    return models


MODELS = on_terminal("models", "list the model ids --model and --models take, with their aliases", "--json", _bind)
