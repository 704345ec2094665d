"""How a command of `cursor-cloud-agents` is declared: its name, help, examples, arguments and code, in one value.

Each command is one `Declaration` beside its code, as each tool is one entry of the catalogue: the terminal's
in `terminal/commands/` (light modules beside the heavy ones that run them, so that building the parser loads
neither rich nor the client), the command line's own in `cli/commands.py`. `cli/commands.py` lists them; the
parser and the table of what runs are both derived from that list, so a command cannot be parsed without code
to run, nor have code that no parser reaches.
"""

from __future__ import annotations

import argparse
from collections.abc import Awaitable, Callable, Mapping
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from cursor_cloud_agents.api import CursorClient
    from cursor_cloud_agents.api.record import Observer
    from cursor_cloud_agents.config import Settings
    from cursor_cloud_agents.terminal.term import Term

Subparsers = Any  # argparse's `_SubParsersAction` is private; its `add_parser` is all we use


class OpenClient(Protocol):
    """How a command opens the API for its settings, every exchange also shown to `observer`: `embedded.open_client`."""

    def __call__(
        self, settings: Settings, observer: Observer | None = None, /
    ) -> AbstractAsyncContextManager[CursorClient]: ...


@dataclass(frozen=True)
class Root:
    """What the composition root hands every command: the environment and how to open the API."""

    env: Mapping[str, str]
    open_client: OpenClient


Run = Callable[[argparse.Namespace, Root], int]
"""A command's code: its parsed arguments and the root in, its exit code out."""
Arguments = Callable[[argparse.ArgumentParser], None]
"""What adds a command's arguments to its parser."""
Coroutine = Callable[["Term"], Awaitable[int]]
"""A terminal command bound to its arguments, as `terminal/dispatch.run_command` runs it."""
Bind = Callable[[argparse.Namespace, Mapping[str, str]], Coroutine]
"""What binds a terminal command's coroutine to its parsed arguments and the environment."""


def no_arguments(_: argparse.ArgumentParser) -> None:
    """The arguments of a command that takes none (besides the terminal's shared options)."""


@dataclass(frozen=True)
class Declaration:
    """One command: the parser it adds (help, description, examples, arguments) and the code that runs it.

    `shared`: the command takes the terminal's shared options (`--json`, `--simulated`, `--scenario`, `--speed`);
    `epilog`: what its help says after its examples."""

    name: str
    help: str
    examples: tuple[str, ...]
    run: Run
    arguments: Arguments = no_arguments
    description: str | None = None
    epilog: str = ""
    shared: bool = False

    def add_to(self, commands: Subparsers, shared: argparse.ArgumentParser) -> argparse.ArgumentParser:
        """Add this command's parser to the program's subparsers; `shared` is the terminal's parent parser."""
        parser: argparse.ArgumentParser = commands.add_parser(
            self.name,
            parents=[shared] if self.shared else [],
            help=self.help,
            description=self.description or self.help,
            epilog="example:\n" + "\n".join(f"  {line}" for line in self.examples) + self.epilog,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        self.arguments(parser)
        return parser


def on_terminal(
    name: str,
    help_: str,
    example: str,
    bind: Bind,
    arguments: Arguments = no_arguments,
    *,
    own_pr: bool = False,
    epilog: str = "",
) -> Declaration:
    """A terminal command: its one-line help (its description, capitalised), one example's arguments, and its
    coroutine bound by `bind`, run on this process's terminal (`dispatch.run_command`). An agent named by its PR
    is resolved first, unless `own_pr`: the command resolves it itself (`pr`, `babysit`: after checking GitHub
    access, before any request)."""
    description = help_[0].upper() + help_[1:] + "."
    example_line = f"cursor-cloud-agents {name} {example}"
    run = _on_terminal(bind, own_pr=own_pr)
    return Declaration(name, help_, (example_line,), run, arguments, description, epilog, shared=True)


def _on_terminal(bind: Bind, *, own_pr: bool) -> Run:
    def run(args: argparse.Namespace, root: Root) -> int:
        from cursor_cloud_agents.terminal.dispatch import run_command  # rich and the commands load only here
        from cursor_cloud_agents.terminal.targets import resolving  # an agent named by its PR: resolved first

        command = bind(args, root.env) if own_pr else resolving(args, lambda parsed: bind(parsed, root.env))
        return run_command(args, root.env, root.open_client, command)

    return run


EXAMPLE_AGENT = "bc-00000000-0000-4000-8000-000000000000"
"""The agent the commands' examples name."""
EXAMPLE_GROUP = "grp-00000000-0000-4000-8000-000000000000"
"""The group of attempts the commands' examples name."""
AGENT_HELP = "the agent (bc-<uuid>)"
