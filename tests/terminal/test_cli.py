"""The terminal commands from the command line: help with examples, start-up without the MCP SDK, exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cursor_cloud_agents.cli.commands import COMMANDS
from cursor_cloud_agents.cli.main import main
from cursor_cloud_agents.simulator.images import png

PROBE = """
import sys
from cursor_cloud_agents.cli.main import main
from cursor_cloud_agents.simulator.images import png
code = main(sys.argv[1:])
sys.stderr.write("loaded mcp: %s\\n" % ("mcp" in sys.modules or "mcp_types" in sys.modules))
raise SystemExit(code)
"""


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        # Each --simulated command here is its own world (no lasting one started in the runner's state directory).
        env={"PATH": os.defpath, "CURSOR_MCP_STATE_DIR": "memory"} | (env or {}),
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_the_help_of_the_program_and_of_each_command_shows_an_example(
    command: str | None, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 14: `--help` and each subcommand's help show an example."""
    with pytest.raises(SystemExit) as exited:
        main([command, "--help"] if command else ["--help"])
    out = capsys.readouterr().out
    assert exited.value.code == 0
    assert "example:\n  " in out and f"cursor-cloud-agents {command or ''}" in out.split("example:")[1]


def test_agents_simulated_json_answers_without_loading_the_mcp_sdk() -> None:
    """Issue 14: a subcommand starts without the MCP SDK, and its JSON parses."""
    done = cli("agents", "--simulated", "--json")
    assert done.returncode == 0, done.stderr
    listed = json.loads(done.stdout)["agents"]
    assert listed and all(agent["agent_id"].startswith("bc-") for agent in listed)
    assert "loaded mcp: False" in done.stderr


def test_run_with_an_image_and_followup_start_without_loading_the_mcp_sdk(tmp_path: Path) -> None:
    """The paid commands check images and follow-ups with the server's own checks, without the MCP SDK."""
    image = tmp_path / "shot.png"
    image.write_bytes(png(4, 3))
    started = cli("run", "Fix it", "--image", str(image), "--yes", "--simulated", "--json")
    assert started.returncode == 0, started.stderr
    assert json.loads(started.stdout)["agent_id"].startswith("bc-") and "loaded mcp: False" in started.stderr
    refused = cli("followup", "bc-00000000-0000-4000-8000-000000000000", "More", "--yes", "--simulated")
    assert refused.returncode == 1 and "NOT_FOUND" in refused.stderr and "loaded mcp: False" in refused.stderr


def test_a_refusal_in_simulated_mode_is_one_line_and_exit_1_not_a_traceback() -> None:
    """Regression: the embedded simulator serves from a task group; an API refusal inside a command still
    ends as the one masked line and exit 1, as it does against the real API."""
    done = cli("usage", "bc-00000000-0000-4000-8000-000000000000", "--simulated")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith("cursor-cloud-agents: NOT_FOUND: ")


def test_without_a_key_a_command_exits_2_naming_the_variable_and_sends_nothing() -> None:
    """Issue 14: the key only from CURSOR_API_KEY; without it, a configuration error (2) that says what to set."""
    done = cli("agents")
    assert done.returncode == 2 and "CURSOR_API_KEY" in done.stderr and done.stdout == ""


def test_a_malformed_agent_id_is_a_usage_error() -> None:
    """Exit codes: 2 for a usage error, before anything is opened."""
    done = cli("watch", "not-an-agent", "--simulated")
    assert done.returncode == 2 and "not an agent id" in done.stderr


def test_the_key_is_never_an_argument() -> None:
    """Issue 14: there is no option to pass the key on the command line (it would land in shell history)."""
    done = cli("agents", "--api-key", "secret")
    assert done.returncode == 2 and "unrecognized arguments" in done.stderr


def test_the_scenarios_the_commands_offer_are_the_simulators() -> None:
    """The parser repeats the names (so that parsing loads no simulator); they must not drift apart."""
    from cursor_cloud_agents.simulator.scenarios import NAMES
    from cursor_cloud_agents.terminal.options import SCENARIOS

    assert sorted(SCENARIOS) == sorted(NAMES)


@pytest.mark.parametrize(
    "args",
    [
        ["agents", "--name", "fix\x1b]0;x\x07", "--simulated"],
        ["agents", "--name", "ni\u202ethgly", "--simulated"],
        ["run", "Fix it", "--model", "composer\r\n2", "--simulated", "--yes"],
    ],
)
def test_a_read_option_with_a_hidden_character_is_a_usage_error(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """P-10 (issue 23): `--name` and `--model` take the server's rules (one line; visible ASCII): exit 2 at parsing,
    before anything is opened."""
    with pytest.raises(SystemExit) as exited:
        main(args)
    assert exited.value.code == 2 and "U+" in capsys.readouterr().err
