"""A command's declaration: the parser it adds (help, description, examples, epilog, the shared options)."""

from __future__ import annotations

import argparse
from collections.abc import Mapping

import pytest

from cursor_cloud_agents.terminal.declaration import Coroutine, Declaration, Root, on_terminal
from cursor_cloud_agents.terminal.options import shared_options


def _never(_: argparse.Namespace, __: Root) -> int:
    raise AssertionError("parsing never runs a command")


def _parser(*declarations: Declaration) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cursor-cloud-agents")
    commands = parser.add_subparsers(dest="command")
    shared = shared_options()
    for declared in declarations:
        declared.add_to(commands, shared)
    return parser


def _bind_never(_: argparse.Namespace, __: Mapping[str, str]) -> Coroutine:
    raise AssertionError("declaring never binds a command")


def _with_a_count(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--count", type=int, default=1)


def test_a_commands_help_says_its_description_then_its_examples_then_its_epilog(
    capsys: pytest.CaptureFixture[str],
) -> None:
    examples = ("cursor-cloud-agents greet", "x greet --count 2")
    declared = Declaration("greet", "say hello", examples, _never, _with_a_count, epilog="\n\nexit: 0")
    with pytest.raises(SystemExit):
        _parser(declared).parse_args(["greet", "--help"])
    help_text = capsys.readouterr().out
    assert help_text.index("say hello") < help_text.index("example:\n  cursor-cloud-agents greet\n  x greet --count 2")
    assert help_text.endswith("x greet --count 2\n\nexit: 0\n")


def test_only_a_shared_command_takes_the_terminals_shared_options(capsys: pytest.CaptureFixture[str]) -> None:
    own = Declaration("own", "its own options only", ("cursor-cloud-agents own",), _never, _with_a_count)
    shared = Declaration("shared", "the terminal's too", ("cursor-cloud-agents shared",), _never, shared=True)
    parser = _parser(own, shared)
    assert parser.parse_args(["shared", "--json", "--simulated"]).json is True
    assert parser.parse_args(["own", "--count", "3"]).count == 3
    with pytest.raises(SystemExit) as exited:
        parser.parse_args(["own", "--json"])
    assert exited.value.code == 2 and "unrecognized arguments: --json" in capsys.readouterr().err


def test_a_terminal_command_is_described_by_its_help_capitalised_with_its_example_after_the_program() -> None:
    declared = on_terminal("greet", "say hello to an agent", "bc-1 --json", _bind_never)
    assert declared.description == "Say hello to an agent."
    assert declared.examples == ("cursor-cloud-agents greet bc-1 --json",)
    assert declared.shared
