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
    pages: list[tuple[str, list[str]]] = [("cursor-cloud-agents", []), *((name, [name]) for name in _subcommands())]
    return "".join(f"===== {title}\n{_help(argv)}" for title, argv in pages)


def write() -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("COLUMNS", WIDTH)
        SNAPSHOT.write_text(every_help(), encoding="utf-8")


def test_every_commands_help_is_the_recorded_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """N-60: the top-level `--help` and each command's (usage, arguments, defaults, help, example) as recorded."""
    monkeypatch.setenv("COLUMNS", WIDTH)
    assert every_help() == SNAPSHOT.read_text(encoding="utf-8")


def test_the_table_of_runs_and_the_parser_derive_from_one_list_of_declarations_n_61() -> None:
    """N-61: each command is declared once; the parser's commands, in `--help`'s order, and the runs are the
    declarations', so no two can share a name and none can be parsed without its code."""
    from cursor_cloud_agents.cli.commands import COMMANDS, DECLARATIONS

    names = [declared.name for declared in DECLARATIONS]
    assert len(set(names)) == len(names)
    assert _subcommands() == names == list(COMMANDS)
    assert all(COMMANDS[declared.name] is declared.run for declared in DECLARATIONS)


def test_building_the_parser_loads_no_command_code_nor_rich_n_62() -> None:
    """N-62: the declarations are light: `--help` and the bare server's start load none of the terminal's
    command modules, rich, the client or the MCP SDK."""
    import subprocess
    import sys

    probe = (
        "import sys\n"
        "from cursor_cloud_agents.cli import main\n"
        "main._parser()\n"
        "heavy = [name for name in sys.modules if name.split('.')[0] in ('rich', 'mcp', 'httpx2')\n"
        "         or name in ('cursor_cloud_agents.terminal.dispatch', 'cursor_cloud_agents.terminal.agents',\n"
        "                     'cursor_cloud_agents.terminal.paid', 'cursor_cloud_agents.terminal.pr',\n"
        "                     'cursor_cloud_agents.api.client')]\n"
        "print(heavy)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.strip() == "[]", done.stdout
