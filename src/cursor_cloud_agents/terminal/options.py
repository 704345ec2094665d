"""The terminal commands' argument types (an agent id or its PR, a run id, a prompt under the tools' rules...)
and the options every command shares (`--json`, `--simulated`, `--scenario`, `--speed`), in one parent parser.

Each command declares its own arguments beside its code (`terminal/commands/`) with these types. This module
is imported on every start that builds the parser (the bare server included), so it imports nothing but
argparse and the id and text checks: the commands themselves, rich and the client load only when one of them
runs (`dispatch.py`).
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable

from cursor_cloud_agents.api import ids, text
from cursor_cloud_agents.core import texts

SCENARIOS = ("demo", "fleet", "long-run", "huge", "failing", "images", "changes", "empty")
"""The simulator's worlds (`simulator.scenarios.NAMES`), repeated so that parsing loads no simulator."""


def agent(value: str) -> str:
    """An agent id, or the agent's PR (`https://github.com/o/r/pull/7`, `o/r#7`): `terminal/targets.py` resolves it."""
    from cursor_cloud_agents.github.refs import pull_ref  # light: no HTTP stack

    if pull_ref(value) is not None:
        return value.strip()
    try:
        return ids.agent_id(value)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{value!r} is not an agent id (bc-<uuid>; `agents` lists them) nor its PR (https://github.com/o/r/pull/7 "
            "or o/r#7)"
        ) from None


def commit_id(value: str) -> str:
    if re.fullmatch(r"[0-9a-fA-F]{40}|[0-9a-fA-F]{64}", value) is None:
        raise argparse.ArgumentTypeError(f"{value!r} is not a full commit id (40 hex digits, as `diff` prints it)")
    return value.lower()


def run_id(value: str) -> str:
    try:
        return ids.run_id(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a run id (run-<uuid>)") from None


def target(value: str) -> tuple[str, str | None]:
    from cursor_cloud_agents.github.refs import pull_ref

    if pull_ref(value) is not None:
        return value.strip(), None  # a PR names its agent's latest run
    named, _, run = value.partition(":")
    return agent(named), (run_id(run) if run else None)


def wait_target(value: str) -> tuple[str, str | None]:
    """`wait`'s: a run, an agent, or a group of attempts (as `cursor_wait` takes one)."""
    from cursor_cloud_agents.core import GROUP_PATTERN

    if GROUP_PATTERN.fullmatch(value.strip().lower()):
        return value.strip().lower(), None
    return target(value)


def one_line(value: str) -> str:
    try:
        return texts.one_line(value, "the text", texts.QUERY_MAX_CHARS)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def prompt(value: str) -> str:
    """A prompt under the rule set of the tools (`core.texts.prompt`): an argument that was not UTF-8 reaches
    Python as lone surrogates, which are refused here instead of sent."""
    try:
        return texts.prompt(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def token(value: str) -> str:
    try:
        return text.token(value, "the value")
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def model_list(value: str) -> tuple[str, ...]:
    from cursor_cloud_agents.terminal.attempts import models_of

    try:
        return tuple(token(model) for model in models_of(value))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def group(value: str) -> str:
    from cursor_cloud_agents.core import GROUP_PATTERN

    if not GROUP_PATTERN.fullmatch(value.strip().lower()):
        raise argparse.ArgumentTypeError(f"{value!r} is not a group id (grp-<uuid>, as `run --models` printed)")
    return value.strip().lower()


def positive(kind: Callable[[str], float]) -> Callable[[str], float]:
    def parse(value: str) -> float:
        try:
            number = kind(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{value!r} is not a number") from None
        if number <= 0:
            raise argparse.ArgumentTypeError(f"{value!r} must be above 0")
        return number

    return parse


def shared_options() -> argparse.ArgumentParser:
    """The options every terminal command takes, one parent parser for them all."""
    shared = argparse.ArgumentParser(add_help=False)
    shared.add_argument("--json", action="store_true", help="one JSON document (JSON lines for streams), for scripts")
    shared.add_argument(
        "--simulated", action="store_true", help="run against an embedded simulator: nothing real, nothing billed"
    )
    shared.add_argument(
        "--scenario", choices=SCENARIOS, help="simulated world to start from (default: demo, or the running one's)"
    )
    shared.add_argument(
        "--speed",
        type=positive(float),
        help="how many times faster than real time simulated runs move (default: 1, or the running world's)",
    )
    return shared


def count(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number") from None
    if not 0 <= number <= 50:
        raise argparse.ArgumentTypeError(f"{value!r} must be between 0 and 50")
    return number


def add_notify(parser: argparse.ArgumentParser) -> None:
    """`--notify`, as `wait` and `events` take it."""
    parser.add_argument(
        "--notify", action="store_true", help="a desktop notification per ended run (else the terminal's bell)"
    )
