"""Every command of `cursor-cloud-agents` in one list of declarations; the parser and the table of runs derive from it.

Each command is a `terminal.declaration.Declaration` beside its code: the terminal's in `terminal/commands/`,
the command line's own (`demo`, `doctor`, `config`, `login`, `logout`, `simulate`, `verify`) here. `cli.main`
adds every declaration to its parser (`add_commands`, in the order of `DECLARATIONS`, the order of `--help`)
and runs the chosen command's `COMMANDS` row (no command: it serves MCP on stdio). Each row imports only what
its command needs, so that the bare server starts without rich, the simulator, the MCP client or the commands.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import anyio

from cursor_cloud_agents.cli.logs import setup_logging
from cursor_cloud_agents.clients import CLIENTS
from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.terminal.commands import (
    actions,
    agents,
    attempts,
    changes,
    checkout,
    events,
    fleet,
    models,
    paid,
    pr,
    status,
    tidy,
    wait,
    watch,
)
from cursor_cloud_agents.terminal.declaration import Declaration, Root, Run, Subparsers
from cursor_cloud_agents.terminal.options import shared_options


def _demo(args: argparse.Namespace, _: Root) -> int:
    from cursor_cloud_agents.cli.demo import run_demo  # only the demo needs the MCP client

    return run_demo(base_url=args.base_url, record=args.record, agent_id=args.agent_id)


def _doctor(_: argparse.Namespace, root: Root) -> int:
    from cursor_cloud_agents.cli.doctor import diagnose  # the commands load what only they need

    return anyio.run(diagnose, root.env, root.open_client, sys.stdout.write)


def _config(args: argparse.Namespace, _: Root) -> int:
    from cursor_cloud_agents.clients import command_path, snippet

    sys.stdout.write(snippet(args.client, command_path()).printed())
    return 0


def _login(args: argparse.Namespace, root: Root) -> int:
    from cursor_cloud_agents.cli.login import Out, login, read_key  # keystore's keyring is loaded only here

    out = Out(say=sys.stdout.write, warn=sys.stderr.write)
    return anyio.run(login, root.env, root.open_client, read_key(args.stdin), out)


def _logout(_: argparse.Namespace, root: Root) -> int:
    from cursor_cloud_agents.cli.login import Out, logout

    return logout(root.env, Out(say=sys.stdout.write, warn=sys.stderr.write))


def _verify(args: argparse.Namespace, root: Root) -> int:
    from cursor_cloud_agents.terminal.ask import ask_on_terminal
    from cursor_cloud_agents.verify import Io, Options, run_verify  # loaded by verify alone

    options = Options(args.spend, args.yes, args.record, args.keep_text, args.show_identities)
    io = Io(write=lambda text: (sys.stdout.write(text), sys.stdout.flush()), ask=ask_on_terminal)
    return anyio.run(run_verify, root.env, options, root.open_client, io)


def _simulate(args: argparse.Namespace, root: Root) -> int:
    if args.stop:
        from cursor_cloud_agents.terminal.lasting import stop_command

        return stop_command(Settings.from_env(root.env).state_dir, sys.stdout.write)
    from cursor_cloud_agents.embedded import simulator_folder, stand_in_remote_folder
    from cursor_cloud_agents.simulator import SIMULATED_API_KEY, StandInRemote, run_simulator

    port: int = args.port
    scenario: str = args.scenario
    replay: Path | None = args.replay
    setup_logging("INFO", Redactor())
    remote = None if replay is not None else StandInRemote(stand_in_remote_folder(simulator_folder()))

    def ready(base_url: str) -> None:
        # The second line is for a shell: `GET /v1/me` with that key answers 200, any other key 401.
        sys.stdout.write(
            f"Cursor API simulator ({scenario if replay is None else f'replay of {replay}'}) at {base_url}"
            "  (Ctrl-C to stop)\n"
            f"export CURSOR_API_BASE_URL={base_url} CURSOR_API_KEY={SIMULATED_API_KEY}\n"
            f"GitHub stand-in (the simulated agents' PRs, for pr and babysit): "
            f"export GITHUB_API_URL={base_url}/github GH_TOKEN=simulated\n"
        )
        if remote is not None:
            # The agents' branches are real commits in a bare repository standing in for GitHub.
            sys.stdout.write(
                f"stand-in GitHub remote (the agents' branches): {remote.folder}\nclone it: {remote.clone_command()}\n"
            )
        sys.stdout.flush()

    anyio.run(
        lambda: run_simulator(
            port=port or None, scenario=scenario, speed=args.speed, ready=ready, replay=replay, remote=remote
        )
    )
    return 0


def _demo_arguments(demo: argparse.ArgumentParser) -> None:
    demo.add_argument("--base-url", help="walk against this loopback simulator (`simulate`) instead of an embedded one")
    demo.add_argument("--record", type=Path, metavar="DIR", help="record the server's exchanges (text kept) into DIR")
    demo.add_argument("--agent-id", help="create the demo's agent with this id (bc-<uuid>), e.g. to replay a trace")


def _config_arguments(config: argparse.ArgumentParser) -> None:
    config.add_argument("client", choices=CLIENTS, help="the client to register the server in")


def _login_arguments(login: argparse.ArgumentParser) -> None:
    login.add_argument("--stdin", action="store_true", help="read the key from stdin (the default when not a terminal)")


def _simulate_arguments(simulate: argparse.ArgumentParser) -> None:
    simulate.add_argument("--port", type=int, default=0, help="port to listen on (default: any free port)")
    simulate.add_argument(
        "--scenario", default="demo", help="world to start from: demo, fleet, long-run, huge, failing, images"
    )
    simulate.add_argument("--speed", type=float, default=1.0, help="how many times faster than real time runs move")
    simulate.add_argument("--replay", type=Path, metavar="DIR", help="serve a trace recorded with --record instead")
    simulate.add_argument("--stop", action="store_true", help="end the lasting world that --simulated commands share")


def _verify_arguments(verify: argparse.ArgumentParser) -> None:
    verify.add_argument("--spend", action="store_true", help="also create, follow, cancel and delete one small agent")
    verify.add_argument("--yes", action="store_true", help="with --spend: do not ask before spending")
    verify.add_argument("--record", type=Path, metavar="DIR", help="write every exchange, redacted, into DIR")
    verify.add_argument("--keep-text", action="store_true", help="with --record: keep prompts and agent text")
    verify.add_argument("--show-identities", action="store_true", help="do not mask e-mail, names and repository URLs")


DEMO = Declaration(
    "demo",
    "walk the tools through a real MCP client against the embedded simulator",
    ("cursor-cloud-agents demo",),
    _demo,
    _demo_arguments,
)
DOCTOR = Declaration(
    "doctor",
    "check the settings and one call to Cursor; prints no secret",
    ("CURSOR_API_KEY=... cursor-cloud-agents doctor",),
    _doctor,
)
CONFIG = Declaration(
    "config",
    "print the registration of this server for an MCP client",
    ("cursor-cloud-agents config claude",),
    _config,
    _config_arguments,
)
LOGIN = Declaration(
    "login",
    "check your Cursor API key and store it for every client (the system keychain, or a file only you read)",
    ("cursor-cloud-agents login", "cursor-cloud-agents login --stdin < key.txt"),
    _login,
    _login_arguments,
)
LOGOUT = Declaration("logout", "remove the key `login` stored", ("cursor-cloud-agents logout",), _logout)
SIMULATE = Declaration(
    "simulate",
    "serve the Cursor API simulator on 127.0.0.1 until interrupted",
    (
        "cursor-cloud-agents simulate --scenario fleet --speed 20",
        "cursor-cloud-agents simulate --replay traces/",
        "cursor-cloud-agents simulate --stop",
    ),
    _simulate,
    _simulate_arguments,
)
VERIFY = Declaration(
    "verify",
    "check the Cursor API contract with your key (read-only unless --spend)",
    ("CURSOR_API_KEY=... cursor-cloud-agents verify --record traces/",),
    _verify,
    _verify_arguments,
)

DECLARATIONS: tuple[Declaration, ...] = (
    DEMO,
    DOCTOR,
    CONFIG,
    LOGIN,
    LOGOUT,
    SIMULATE,
    VERIFY,
    agents.AGENTS,
    watch.WATCH,
    fleet.FLEET,
    paid.RUN,
    paid.FOLLOWUP,
    attempts.COMPARE,
    attempts.KEEP,
    actions.CANCEL,
    actions.ARCHIVE,
    actions.USAGE,
    actions.ARTIFACTS,
    wait.WAIT,
    events.EVENTS,
    checkout.CHECKOUT,
    changes.DIFF,
    changes.APPLY,
    status.STATUS,
    models.MODELS,
    pr.PR,
    pr.BABYSIT,
    tidy.TIDY,
)
"""Every command, in the order `--help` lists them."""

COMMANDS: dict[str, Run] = {declared.name: declared.run for declared in DECLARATIONS}
"""Every command's code by name, derived from `DECLARATIONS` (as the parser is)."""


def add_commands(commands: Subparsers) -> None:
    """Add every declared command to the program's subparsers, the terminal's with their shared options."""
    shared = shared_options()
    for declared in DECLARATIONS:
        declared.add_to(commands, shared)
