"""The person at the terminal, as the core's paid door sees them (`core.call.Call`).

The core checks the limits, words the question (with its "limits used" line) and asks; this only answers:
the question is shown on stderr, then `y` or `yes` confirms, anything else is a no. With `--yes` the question
is still shown (what will be paid for) and answered yes; with no terminal to ask on and no `--yes`, the door
refuses before any request (DECLINED, said in the terminal's words by `terminal/words.py`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from rich.text import Text

from cursor_cloud_agents.api import Deadline
from cursor_cloud_agents.core import consent
from cursor_cloud_agents.core.call import Question
from cursor_cloud_agents.core.timing import CallTime
from cursor_cloud_agents.terminal.ask import heard, is_yes
from cursor_cloud_agents.terminal.clean import agent_text
from cursor_cloud_agents.terminal.exits import UsageError
from cursor_cloud_agents.terminal.term import Term


@dataclass
class Person:
    """One command's person: `confirmed` is `--yes`."""

    term: Term
    confirmed: bool
    time: CallTime = field(default_factory=lambda: CallTime(Deadline(math.inf)))

    @property
    def asks(self) -> frozenset[str]:
        """Every paid act is put to the person (shown, and answered by `--yes` when given)."""
        return consent.PAID_ACTS

    @property
    def can_ask(self) -> bool:
        return self.confirmed or self.term.interactive

    def cannot_ask_now(self, act: str, unsent: str) -> None:
        """The answer "cannot ask", given before any request (the door would give it after the reads it needs):
        no `--yes` and no terminal to ask on."""
        if not self.can_ask:
            raise consent.cannot_ask(act, unsent)

    async def progress(self, message: str) -> None:
        del message  # a command's own progress line says the steps

    async def roots(self) -> list[Path] | None:
        return [Path.cwd()]

    async def confirm(self, question: Question, unsent: str) -> None:
        """Show the core's question; go on on `--yes` or a typed y/yes, else a usage error naming the answer."""
        self.term.err.print(agent_text(question.message))
        if self.confirmed:
            return
        answer = self.term.ask("Go ahead? [y/N] ")
        if not is_yes(answer):
            raise UsageError(f"not confirmed (the answer was {heard(answer)}; only y or yes confirms); {unsent}")


def shown(term: Term, lines: list[tuple[str, Text]]) -> None:
    """Facts shown before the door asks (a set's price hint): one labelled line each."""
    for label, value in lines:
        term.err.print(Text(f"{label:>10}  ", style="bold").append_text(value))
