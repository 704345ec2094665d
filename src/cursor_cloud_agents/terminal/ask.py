"""Asking the person a question before something is spent: on stderr, so stdout stays the command's output.

The terminal's paid commands and `verify --spend` share it. This module imports nothing but `sys`
(`cli.py` loads it on every start). Without a terminal on stdin (a pipe, a closed stdin) nothing is
read and the answer is no; so is the end of input (Ctrl-D).
"""

from __future__ import annotations

import sys


def ask_on_terminal(question: str) -> str:
    """The person's answer to `question`, asked on stderr; empty (no) without a terminal or at end of input."""
    if not sys.stdin.isatty():
        sys.stderr.write(f"{question}no terminal to ask on: pass --yes to confirm\n")
        return ""
    sys.stderr.write(question)
    sys.stderr.flush()
    return sys.stdin.readline()  # "" at the end of input
