"""The command table: every command's `--help`, argument names and defaults kept byte for byte (issue 45).

`tests/snapshots/help.txt` holds the program's `--help` and each command's, recorded before the commands were
declared beside their code; a change to any of them shows here as a diff. After a deliberate change, rewrite it:
`.venv/bin/python -c "from tests.cli.test_commands import write; write()"`.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path
from typing import Any

import pytest

from cursor_cloud_agents.cli import main as cli

SNAPSHOT = Path(__file__).parent.parent / "snapshots" / "help.txt"
WIDTH = "100"
"""argparse wraps help to $COLUMNS: fixed, so that the snapshot does not depend on the terminal."""


def _subcommands() -> list[str]:
    parser = cli._parser()  # pyright: ignore[reportPrivateUsage]  # the parser is what is recorded
    actions: list[Any] = parser._actions  # pyright: ignore[reportPrivateUsage]  # argparse lists subcommands only there
    return list(next(action.choices for action in actions if action.dest == "command"))


def _help(argv: list[str]) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as exited:
        cli.main([*argv, "--help"])
    assert exited.value.code == 0
    return out.getvalue()


def every_help() -> str:
    """The program's help, then each command's in the parser's order, each under a header line."""
    pages = [("cursor-cloud-agents", [])] + [(name, [name]) for name in _subcommands()]
    return "".join(f"===== {title}\n{_help(argv)}" for title, argv in pages)


def write() -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("COLUMNS", WIDTH)
        SNAPSHOT.write_text(every_help(), encoding="utf-8")


def test_every_commands_help_is_the_recorded_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """N-60: the top-level `--help` and each command's (usage, arguments, defaults, help, example) as recorded."""
    monkeypatch.setenv("COLUMNS", WIDTH)
    assert every_help() == SNAPSHOT.read_text(encoding="utf-8")
