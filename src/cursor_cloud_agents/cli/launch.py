"""The console script's entry point: `status` answered from its cache before anything heavy loads, else `cli.main`.

A status bar runs `cursor-cloud-agents status` many times a minute. Loading the command line (the API
client, pydantic, httpx2, rich) takes about half a second; the cached line needs only `statuscache` and
`config`. So this module imports nothing at its top, answers a fresh cached line itself, and hands every
other case (a stale or missing cache, any other command) to `cli.main`. Like `cli.py`, it hands the process
environment on and reads nothing of it itself.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args in (["status"], ["status", "--json"]):
        # Imported here, not at the top: this path must not load what the rest of the program needs.
        from cursor_cloud_agents.statuscache import answer_if_fresh

        if answer_if_fresh(os.environ, "--json" in args, time.time(), sys.stdout.write):
            return 0
    from cursor_cloud_agents.cli.main import main as cli_main

    return cli_main(args)
