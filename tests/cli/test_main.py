"""The command line: version, help, the terminal hint, configuration errors, and both ways to reach a simulator."""

from __future__ import annotations

import os
import pty
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client

from cursor_cloud_agents import __version__
from cursor_cloud_agents.cli.main import main, open_client
from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.server.app import build_server
from cursor_cloud_agents.simulator import SIMULATED_API_KEY, Fault, ManualClock, World, serve
from tests.tool_harness import reply_of

COMMAND = [sys.executable, "-m", "cursor_cloud_agents"]


def test_version_prints_the_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 2: `--version`."""
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert __version__ in capsys.readouterr().out


def test_help_lists_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 2: `--help` names demo and simulate."""
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "demo" in out and "simulate" in out


def test_an_unusable_setting_stops_the_server_with_its_name_on_stderr() -> None:
    """Settings: a tuning value the server cannot run with is a start-up error (exit 2), never a silent default."""
    env = {"PATH": os.defpath, "CURSOR_MCP_MAX_CALL_SECONDS": "abc"}
    done = subprocess.run(COMMAND, env=env, capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    assert "CURSOR_MCP_MAX_CALL_SECONDS" in done.stderr
    assert done.stdout == ""


def test_started_from_a_terminal_the_server_prints_a_one_line_hint_on_stderr() -> None:
    """Issue 2: a person who runs the bare command in a terminal learns what it is, on stderr only."""
    controller, terminal = pty.openpty()
    env = {"PATH": os.defpath, "CURSOR_MCP_LOG_LEVEL": "ERROR"}
    with subprocess.Popen(COMMAND, env=env, stdin=terminal, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as child:
        os.close(terminal)
        assert child.stderr is not None
        hint = child.stderr.readline().decode()
        child.terminate()
        out, _ = child.communicate(timeout=30)
    os.close(controller)
    assert "MCP" in hint and "README" in hint
    assert out == b""


@pytest.mark.anyio
async def test_simulated_mode_serves_the_tools_from_an_embedded_simulator() -> None:
    """Issue 2: simulated mode (CURSOR_MCP_FIXTURE=1) starts the simulator in-process and points the client at it."""
    settings = Settings.from_env({"CURSOR_MCP_FIXTURE": "1"})
    server = build_server(settings, Redactor(), lambda: open_client(settings))
    with anyio.fail_after(20):
        async with Client(server, mode="legacy") as client:
            assert client.instructions and "SIMULATED MODE" in client.instructions
            reply = reply_of(await client.call_tool("cursor_get_account", {}))
    assert not reply.is_error
    assert reply.data["server"]["simulated"] is True


@pytest.mark.anyio
async def test_a_loopback_base_url_points_the_server_at_a_running_simulator() -> None:
    """Issue 2: CURSOR_API_BASE_URL (http allowed for loopback) with the simulator's key."""
    async with serve(World(ManualClock())) as sim:
        settings = Settings.from_env({"CURSOR_API_BASE_URL": sim.base_url, "CURSOR_API_KEY": SIMULATED_API_KEY})
        server = build_server(settings, Redactor(settings.secrets()), lambda: open_client(settings))
        with anyio.fail_after(20):
            async with Client(server, mode="legacy") as client:
                reply = reply_of(await client.call_tool("cursor_get_account", {}))
        # The key, then the agents read for the running-agents limit the account reports.
        assert [record.path for record in sim.faults.requests] == ["/v1/me", "/v1/agents"]
    assert not reply.is_error
    assert "simulated" not in reply.data["server"]


def test_simulate_prints_a_base_url_and_a_key_that_its_me_endpoint_accepts() -> None:
    """docs/simulated.md, `simulate`: the printed `export` line is enough to point a client at `simulate`."""
    command = [*COMMAND, "simulate", "--scenario", "empty"]
    env = {"PATH": os.defpath}
    out, err = subprocess.PIPE, subprocess.PIPE
    with subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=err, text=True) as child:
        assert child.stdout is not None
        try:
            banner, export = child.stdout.readline(), child.stdout.readline()
            word, *assignments = shlex.split(export)
            exported = dict(assignment.split("=", 1) for assignment in assignments)
            with httpx2.Client(base_url=exported["CURSOR_API_BASE_URL"], timeout=10) as http:
                accepted = http.get("/v1/me", headers={"Authorization": f"Bearer {exported['CURSOR_API_KEY']}"})
                refused = http.get("/v1/me", headers={"Authorization": f"Bearer wrong-{exported['CURSOR_API_KEY']}"})
        finally:
            child.terminate()
            child.communicate(timeout=30)
    assert word == "export" and set(exported) == {"CURSOR_API_BASE_URL", "CURSOR_API_KEY"}
    assert exported["CURSOR_API_BASE_URL"].startswith("http://127.0.0.1:") and exported["CURSOR_API_BASE_URL"] in banner
    assert accepted.status_code == 200 and accepted.json()["apiKeyName"] == "Simulated API Key"
    assert refused.status_code == 401


def test_verify_spend_never_takes_its_yes_from_a_pipe(monkeypatch: pytest.MonkeyPatch) -> None:
    """`verify --spend` asks the person: without a terminal (a pipe, closed stdin) the answer is no, and
    only --yes spends; a closed stdin is no traceback."""
    import io

    from cursor_cloud_agents.terminal.ask import ask_on_terminal

    monkeypatch.setattr("sys.stdin", io.StringIO("yes\n"))
    assert ask_on_terminal("Create it? ") == ""


@pytest.mark.anyio
async def test_a_per_call_env_vars_value_never_appears_in_the_recording(tmp_path: Path) -> None:
    """Review: the recorder had its own redactor, blind to the `env_vars` values each create adds to the
    server's; an API error quoting such a value was written as is."""
    canary = "canary-per-call-value-5f1c9e"
    async with serve(World(ManualClock())) as sim:
        env = {"CURSOR_API_BASE_URL": sim.base_url, "CURSOR_API_KEY": SIMULATED_API_KEY}
        env |= {"CURSOR_MCP_ALLOW_WRITES": "1", "CURSOR_MCP_RECORD_DIR": str(tmp_path)}
        settings = Settings.from_env(env)
        redactor = Redactor(settings.secrets())
        sim.faults.inject("POST", "/v1/agents", Fault.error(400, "validation_error", f"envVars value {canary} refused"))
        # The wiring of `_serve`: the server's redactor goes to the recorder.
        server = build_server(settings, redactor, lambda: open_client(settings, redactor=redactor))
        with anyio.fail_after(20):
            async with Client(server, mode="legacy") as client:
                arguments = {"prompt": "export", "name": "nightly", "env_vars": {"TOKEN": canary}}
                reply = reply_of(await client.call_tool("cursor_create_agent", arguments))
    recorded = "".join(path.read_text() for path in tmp_path.glob("trace-*.jsonl"))
    assert reply.is_error and "validation_error" in recorded
    assert canary not in recorded


def test_every_command_the_parser_knows_has_its_row_in_the_one_table() -> None:
    """Issue 20: `commands.COMMANDS` is the one table of commands; a command parsed without a row would
    serve MCP on stdio instead of running, and a row without a parser could never be reached."""
    from cursor_cloud_agents.cli import main as cli
    from cursor_cloud_agents.cli.commands import COMMANDS

    parser = cli._parser()  # pyright: ignore[reportPrivateUsage]  # the parser is what the table must match
    actions: list[Any] = parser._actions  # pyright: ignore[reportPrivateUsage]  # argparse lists subcommands only there
    subcommands: dict[str, Any] = next(action.choices for action in actions if action.dest == "command")
    assert set(subcommands) == set(COMMANDS)
