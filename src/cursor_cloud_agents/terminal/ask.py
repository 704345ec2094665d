"""Asking the person a question before something is spent: on stderr, so stdout stays the command's output.

The terminal's paid commands and `verify --spend` share it. This module imports nothing but `sys`
(`cli.py` loads it on every start). Without a terminal on stdin (a pipe, a closed stdin) nothing is
read and the answer is no; so is the end of input (Ctrl-D). Only the words asked for are a yes (`y` or
`yes`, any case, spaces around them ignored): "yes please", "true" or "ok" are not, and the refusal says
in a few words what was typed (printable characters only, clipped), as the server's questions do.
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


HEARD_CHARS = 24
"""How much of a refused answer the refusal shows."""


def is_yes(answer: str, words: tuple[str, ...] = ("y", "yes")) -> bool:
    """Whether `answer` is one of the `words` that confirm, and nothing else."""
    return answer.strip().lower() in words


def heard(answer: str) -> str:
    """What the person typed, in a few words: printable characters only, clipped; `nothing` when empty."""
    typed = "".join(char for char in answer.strip() if char.isprintable())
    if not typed:
        return "nothing"
    return repr(typed if len(typed) <= HEARD_CHARS else typed[: HEARD_CHARS - 1] + "…")
