"""A reader that went away (`diff | head -1`): every command ends as a shell command killed by SIGPIPE would, 141.

Rich's console answers a closed pipe by exiting 1 (`Console.on_broken_pipe`), which a script cannot tell from a
failure; our consoles raise `BrokenPipeError` instead, and `cli.main` turns it into 141 (with stdout pointed at
/dev/null so that the exit's own flush stays quiet). A closed pipe met inside a task group reaches
`run_command` grouped, and is handed on ungrouped (`unwrapped`).
"""

from __future__ import annotations

from rich.console import Console


class PipeConsole(Console):
    """A console whose closed pipe is a `BrokenPipeError` for `cli.main` (exit 141), not rich's exit 1."""

    def on_broken_pipe(self) -> None:
        self.quiet = True  # nothing more is written to a reader that is gone
        raise BrokenPipeError


def unwrapped(group: BaseExceptionGroup[BaseException]) -> BaseException:
    """The exception to raise for `group`: a closed pipe among them wins (the reader is gone, nothing else can
    be said), else the group itself."""
    return BrokenPipeError() if group.subgroup(BrokenPipeError) is not None else group
