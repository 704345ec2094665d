"""The terminal commands' argparse side: each subcommand, its options, its help and its example.

This module is imported by `cli.py` on every start (the bare server included), so it imports nothing
but argparse and the id and text checks: the commands themselves, rich and the client load only when one of
them runs (`dispatch.py`). The options every command shares (`--json`, `--simulated`, `--scenario`,
`--speed`) live in one parent parser.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from typing import Any

from cursor_cloud_agents.api import ids, text
from cursor_cloud_agents.core import texts

SCENARIOS = ("demo", "fleet", "long-run", "huge", "failing", "images", "changes", "empty")
"""The simulator's worlds (`simulator.scenarios.NAMES`), repeated so that parsing loads no simulator."""

Subparsers = Any  # argparse's `_SubParsersAction` is private; its `add_parser` is all we use


_EXAMPLE_AGENT = "bc-00000000-0000-4000-8000-000000000000"
_EXAMPLE_GROUP = "grp-00000000-0000-4000-8000-000000000000"
# Each command: its one-line help, and its example's arguments.
_HELP: dict[str, tuple[str, str]] = {
    "agents": ("list agents: latest run, repository, branch or PR, age, idle time, URL", "--name login --limit 5"),
    "watch": ("follow a run live: its text, tool calls, summary and result", _EXAMPLE_AGENT),
    "fleet": ("a refreshing dashboard of the active agents, those needing you first", "--interval 15"),
    "run": (
        "start a paid agent, after showing what will be paid for",
        "'Fix the flaky login test' --repo https://github.com/org/repo --watch",
    ),
    "compare": (
        "the attempts of a group side by side: status, time, cost, change, result",
        "grp-" + _EXAMPLE_AGENT[3:],
    ),
    "keep": (
        "keep one attempt of a group and archive the others (reversible)",
        f"grp-{_EXAMPLE_AGENT[3:]} 2",
    ),
    "followup": (
        "send a follow-up prompt: a new paid run of the same agent (--queue for a busy one, --drop to unqueue it)",
        f"{_EXAMPLE_AGENT} 'Also add tests' --yes",
    ),
    "models": ("list the model ids --model and --models take, with their aliases", "--json"),
    "cancel": ("cancel a run (default: the agent's latest)", _EXAMPLE_AGENT),
    "archive": ("archive an agent (reversible in Cursor's web app)", _EXAMPLE_AGENT),
    "usage": ("tokens and cost of an agent, per run", f"{_EXAMPLE_AGENT} --json"),
    "artifacts": (
        "list an agent's files under artifacts/, or download one",
        f"{_EXAMPLE_AGENT} --get artifacts/report.md",
    ),
    "wait": (
        "block until any (or all) of the runs end, then report each: for a coding agent's background shell",
        f"{_EXAMPLE_AGENT} --timeout 3600",
    ),
    "events": (
        "one JSON line per change across the agents (started, ended, stuck, PR, follow-up sent): for a Monitor",
        "--until any --notify",
    ),
    "checkout": (
        "put an agent's branch in a new worktree of this repository (or a local branch)",
        f"{_EXAMPLE_AGENT} --check 'python3 -m pytest -q'",
    ),
    "diff": ("show what an agent changed: its files and the diff against where its run started", _EXAMPLE_AGENT),
    "apply": (
        "apply an agent's commits onto the current branch (fast-forward, --merge or --cherry-pick)",
        _EXAMPLE_AGENT,
    ),
    "status": ("one line for a status bar: agents running, ended unread, cents today, new agents", "--json"),
    "pr": ("an agent's pull request: checks on its head, reviews, mergeable, fixes sent", "your-org/your-repo#7"),
    "tidy": ("archive agents whose PR merged or closed, or idle for days, their work saved first", "--dry-run"),
    "babysit": (
        "watch an agent's PR until it merges: a fix sent when CI fails or a trusted reviewer asks",
        f"{_EXAMPLE_AGENT} --max-fixes 3 --json",
    ),
}


def _agent(value: str) -> str:
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


def _commit(value: str) -> str:
    if re.fullmatch(r"[0-9a-fA-F]{40}|[0-9a-fA-F]{64}", value) is None:
        raise argparse.ArgumentTypeError(f"{value!r} is not a full commit id (40 hex digits, as `diff` prints it)")
    return value.lower()


def _run(value: str) -> str:
    try:
        return ids.run_id(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a run id (run-<uuid>)") from None


def _target(value: str) -> tuple[str, str | None]:
    from cursor_cloud_agents.github.refs import pull_ref

    if pull_ref(value) is not None:
        return value.strip(), None  # a PR names its agent's latest run
    agent, _, run = value.partition(":")
    return _agent(agent), (_run(run) if run else None)


def _wait_target(value: str) -> tuple[str, str | None]:
    """`wait`'s: a run, an agent, or a group of attempts (as `cursor_wait` takes one)."""
    from cursor_cloud_agents.core import GROUP_PATTERN

    if GROUP_PATTERN.fullmatch(value.strip().lower()):
        return value.strip().lower(), None
    return _target(value)


def _one_line(value: str) -> str:
    try:
        return texts.one_line(value, "the text", texts.QUERY_MAX_CHARS)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _prompt(value: str) -> str:
    """A prompt under the rule set of the tools (`core.texts.prompt`): an argument that was not UTF-8 reaches
    Python as lone surrogates, which are refused here instead of sent."""
    try:
        return texts.prompt(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _token(value: str) -> str:
    try:
        return text.token(value, "the value")
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _models(value: str) -> tuple[str, ...]:
    from cursor_cloud_agents.terminal.attempts import models_of

    try:
        return tuple(_token(model) for model in models_of(value))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _group(value: str) -> str:
    from cursor_cloud_agents.core import GROUP_PATTERN

    if not GROUP_PATTERN.fullmatch(value.strip().lower()):
        raise argparse.ArgumentTypeError(f"{value!r} is not a group id (grp-<uuid>, as `run --models` printed)")
    return value.strip().lower()


def _positive(kind: Callable[[str], float]) -> Callable[[str], float]:
    def parse(value: str) -> float:
        try:
            number = kind(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{value!r} is not a number") from None
        if number <= 0:
            raise argparse.ArgumentTypeError(f"{value!r} must be above 0")
        return number

    return parse


def _shared() -> argparse.ArgumentParser:
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
        type=_positive(float),
        help="how many times faster than real time simulated runs move (default: 1, or the running world's)",
    )
    return shared


def subcommand(
    commands: Subparsers,
    name: str,
    help_: str,
    *examples: str,
    description: str | None = None,
    parents: tuple[argparse.ArgumentParser, ...] = (),
) -> argparse.ArgumentParser:
    """A subcommand whose help ends with its examples (every command of the program, `cli.py`'s too)."""
    parser: argparse.ArgumentParser = commands.add_parser(
        name,
        parents=list(parents),
        help=help_,
        description=description or help_,
        epilog="example:\n" + "\n".join(f"  {line}" for line in examples),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    return parser


def _add(commands: Subparsers, shared: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    help_, example = _HELP[name]
    description = help_[0].upper() + help_[1:] + "."
    return subcommand(
        commands, name, help_, f"cursor-cloud-agents {name} {example}", description=description, parents=(shared,)
    )


def _agents(commands: Subparsers, shared: argparse.ArgumentParser) -> None:
    parser = _add(commands, shared, "agents")
    parser.add_argument("--all", action="store_true", help="include archived agents")
    parser.add_argument(
        "--name", type=_one_line, help="only agents whose name contains TEXT (case-insensitive)", metavar="TEXT"
    )
    parser.add_argument("--limit", type=_positive(int), default=20, help="at most N agents (default 20)", metavar="N")


def _watch(commands: Subparsers, shared: argparse.ArgumentParser) -> None:
    parser = _add(commands, shared, "watch")
    parser.add_argument("agent", type=_agent, help="the agent (bc-<uuid>)")
    parser.add_argument("run", type=_run, nargs="?", help="the run (default: the agent's latest)")


def _fleet(commands: Subparsers, shared: argparse.ArgumentParser) -> None:
    parser = _add(commands, shared, "fleet")
    parser.add_argument(
        "--interval", type=_positive(float), default=10.0, help="seconds between refreshes (default 10)", metavar="S"
    )


def _run_command(commands: Subparsers, shared: argparse.ArgumentParser) -> None:
    parser = _add(commands, shared, "run")
    parser.add_argument("prompt", type=_prompt, help="what the agent should do")
    parser.add_argument("--repo", help="repository URL (https://github.com/OWNER/REPO)", metavar="URL")
    parser.add_argument("--ref", help="branch or full commit SHA to start from (with --repo)", metavar="REF")
    models = parser.add_mutually_exclusive_group()
    models.add_argument("--model", type=_token, help="model id (default: the account's default model)", metavar="ID")
    models.add_argument(
        "--models",
        type=_models,
        help="2 to 8 model ids: one paid agent each on the same task, compared with `compare GROUP`",
        metavar="A,B,C",
    )
    parser.add_argument(
        "--image", action="append", default=[], help="attach an image file (up to 5)", metavar="PATH", dest="images"
    )
    parser.add_argument("--yes", action="store_true", help="start without asking for confirmation")
    parser.add_argument(
        "--max-minutes",
        type=_positive(float),
        metavar="M",
        help="cancel the run once it is M minutes old (waits for it meanwhile; exit 124 when cancelled)",
    )
    then = parser.add_mutually_exclusive_group()
    then.add_argument("--wait", action="store_true", help="show a progress line until the run ends")
    then.add_argument("--watch", action="store_true", help="follow the run live until it ends")


def _followup(commands: Subparsers, shared: argparse.ArgumentParser) -> None:
    parser = _add(commands, shared, "followup")
    parser.add_argument("agent", type=_agent, help="the agent (bc-<uuid>)")
    parser.add_argument("prompt", type=_prompt, nargs="?", help="what the agent should do next")
    parser.add_argument("--yes", action="store_true", help="send without asking for confirmation")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--queue", action="store_true", help="if the agent is busy, send it right after its run ends")
    what.add_argument("--drop", action="store_true", help="take the follow-up queued for the agent out of the queue")


def _simple(commands: Subparsers, shared: argparse.ArgumentParser) -> None:
    parsers = {name: _add(commands, shared, name) for name in ("cancel", "archive", "usage", "artifacts")}
    for parser in parsers.values():
        parser.add_argument("agent", type=_agent, help="the agent (bc-<uuid>)")
    parsers["cancel"].add_argument("run", type=_run, nargs="?", help="the run (default: the agent's latest)")
    artifacts = parsers["artifacts"]
    artifacts.add_argument("--get", help="download this artifact to a file", metavar="PATH")
    artifacts.add_argument(
        "--output", "-o", metavar="FILE", help="the file to write (default: the artifact's name); never a terminal"
    )


def _wait(commands: Subparsers, shared: argparse.ArgumentParser) -> None:
    parser = _add(commands, shared, "wait")
    parser.add_argument(
        "targets",
        type=_wait_target,
        nargs="*",
        metavar="AGENT[:RUN]|GROUP",
        help="a run, an agent for its latest run, or a group (grp-<uuid>) for its attempts",
    )
    parser.add_argument("--active", action="store_true", help="wait on every running agent of the key")
    until = parser.add_mutually_exclusive_group()
    until.add_argument("--any", dest="until", action="store_const", const="any", help="until one run ends (default)")
    until.add_argument("--all", dest="until", action="store_const", const="all", help="until every run has ended")
    parser.set_defaults(until="any")
    parser.add_argument(
        "--timeout", type=_positive(float), metavar="S", help="give up after S seconds (exit 124); default: none"
    )
    _notify(parser)


def _notify(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--notify", action="store_true", help="a desktop notification per ended run (else the terminal's bell)"
    )


def _events(commands: Subparsers, shared: argparse.ArgumentParser) -> None:
    parser = _add(commands, shared, "events")
    parser.add_argument("agents", type=_agent, nargs="*", metavar="AGENT", help="agents to follow (default: the fleet)")
    parser.add_argument("--name", help="follow the agents whose name contains this text (a group)")
    parser.add_argument(
        "--until", choices=("any", "all"), help="stop once one run (every run followed) ended; default: never"
    )
    _notify(parser)


def _checkout(commands: Subparsers, shared: argparse.ArgumentParser) -> None:
    parser = _add(commands, shared, "checkout")
    parser.add_argument("agent", type=_agent, help="the agent (bc-<uuid>)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--worktree", metavar="DIR", help="the new worktree's folder (default: beside this one)")
    where.add_argument(
        "--branch", action="store_true", help="create the local branch and switch to it here, instead of a worktree"
    )
    parser.add_argument(
        "--remote", metavar="NAME", help="the remote to fetch from (default: the one of the agent's repository)"
    )
    parser.add_argument(
        "--check",
        metavar="CMD",
        help="first run CMD (your tests: code the agent wrote) in a throwaway clone of the branch's commit, with an "
        "allow-listed environment (CURSOR_MCP_CHECK_ENV); if it fails nothing is checked out and the exit is 1 "
        "(CURSOR_MCP_CHECK_COMMAND is not used here)",
    )
    parser.add_argument(
        "--anyway", action="store_true", help="with --check: check the branch out even if the check fails (exit 1)"
    )


def _changes(commands: Subparsers, shared: argparse.ArgumentParser) -> None:
    diff = _add(commands, shared, "diff")
    diff.add_argument("agent", type=_target, metavar="AGENT[:RUN]", help="the agent (its latest run), or one run")
    diff.add_argument("paths", nargs="*", metavar="PATH", help="only these files or folders")
    apply = _add(commands, shared, "apply")
    apply.add_argument("agent", type=_agent, help="the agent (bc-<uuid>): its latest run's branch")
    mode = apply.add_mutually_exclusive_group()
    mode.add_argument("--merge", dest="mode", action="store_const", const="merge", help="make a merge commit")
    mode.add_argument(
        "--cherry-pick", dest="mode", action="store_const", const="cherry-pick", help="copy the agent's commits"
    )
    apply.set_defaults(mode="fast-forward")
    apply.add_argument("--yes", action="store_true", help="apply without asking (for scripts)")
    apply.add_argument(
        "--remote", metavar="NAME", help="the remote to fetch from (default: the one of the agent's repository)"
    )
    apply.add_argument(
        "--commit",
        metavar="SHA",
        type=_commit,
        help="the commit you reviewed (default: the one `diff` showed last); refused if the branch moved since",
    )


def _attempts(commands: Subparsers, shared: argparse.ArgumentParser) -> None:
    compare = _add(commands, shared, "compare")
    compare.add_argument("group", type=_group, help="the group (grp-<uuid>)")
    keep = _add(commands, shared, "keep")
    keep.add_argument("group", type=_group, help="the group (grp-<uuid>)")
    keep.add_argument(
        "agent", metavar="ATTEMPT", help="the attempt to keep: its number in `compare`, its agent id, or an id prefix"
    )


def _status(commands: Subparsers, shared: argparse.ArgumentParser) -> None:
    _add(commands, shared, "status")
    _add(commands, shared, "models")


def _pull_requests(commands: Subparsers, shared: argparse.ArgumentParser) -> None:
    agent_help = "the agent (bc-<uuid>) or its PR (https://github.com/o/r/pull/7 or o/r#7)"
    _add(commands, shared, "pr").add_argument("agent", type=_agent, help=agent_help)
    babysit = _add(commands, shared, "babysit")
    babysit.epilog = (babysit.epilog or "") + (
        "\n\nStarting it is your consent to up to --max-fixes paid follow-ups to the agent (within your limits).\n"
        "GitHub access: GH_TOKEN, else GITHUB_TOKEN, else `gh auth token`.\n"
        "exit: 0 the PR was merged or closed; 2 no GitHub access or a usage error (nothing sent); "
        "3 the watch cannot go on (the PR or the agent can no longer be read); 130 interrupted"
    )
    babysit.add_argument("agent", type=_agent, help=agent_help)
    babysit.add_argument(
        "--max-fixes", type=_count, default=3, metavar="N", help="follow-ups sent at most, then escalated (default 3)"
    )
    babysit.add_argument(
        "--interval",
        type=_positive(float),
        default=60.0,
        metavar="SECONDS",
        help="seconds between looks at the PR (default 60)",
    )
    babysit.add_argument(
        "--resolve-conflicts",
        action="store_true",
        help="on a merge conflict, ask the agent to merge the base and resolve it (default: only report it)",
    )


def _tidy(commands: Subparsers, shared: argparse.ArgumentParser) -> None:
    parser = _add(commands, shared, "tidy")
    parser.add_argument("--dry-run", action="store_true", help="show what would be archived, archive nothing")
    parser.add_argument("--yes", action="store_true", help="archive without asking for confirmation")
    parser.add_argument(
        "--idle-days",
        type=_positive(float),
        default=7.0,
        metavar="D",
        help="an agent whose last run ended more than D days ago is picked (default 7)",
    )


def _count(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number") from None
    if not 0 <= number <= 50:
        raise argparse.ArgumentTypeError(f"{value!r} must be between 0 and 50")
    return number


COMMANDS = tuple(_HELP)


def add_commands(commands: Subparsers) -> None:
    """Add every terminal command to the `cursor-cloud-agents` subparsers."""
    shared = _shared()
    for add in (
        _agents,
        _watch,
        _fleet,
        _run_command,
        _followup,
        _attempts,
        _simple,
        _wait,
        _events,
        _checkout,
        _changes,
        _status,
        _pull_requests,
        _tidy,
    ):
        add(commands, shared)
