"""Logging to stderr, through the redactor: stdout is the MCP protocol and must carry nothing else."""

from __future__ import annotations

import logging
import sys

from cursor_cloud_agents.redact import RedactingFormatter, Redactor

# Libraries whose INFO lines would repeat every request (and could carry URLs): quiet unless DEBUG.
_CHATTY = ("httpx2", "httpcore2", "mcp", "uvicorn", "uvicorn.access", "uvicorn.error")


def setup_logging(level: str, redactor: Redactor) -> None:
    """Send every log record to stderr, masked, replacing any handler installed before.

    Installing ours on the root logger before the MCP server is built also keeps the SDK's own
    `basicConfig` from adding an unmasked handler (it does nothing when the root has one).
    """
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(RedactingFormatter(redactor))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    for name in _CHATTY:
        logging.getLogger(name).setLevel(level if level == "DEBUG" else "WARNING")
