"""What a person configures: every unusable value is one clear line naming its variable, never a traceback,
a silent default or a quoted secret; `config` prints a registration its client can read."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from cursor_cloud_agents import clients
from cursor_cloud_agents.clients import snippet
from cursor_cloud_agents.config import ConfigError, Settings


@pytest.mark.parametrize(
    "key",
    [
        "Bearer key_0123456789abcdef",
        "key_0123456789\nabcdef",
        "key_0123456789\tabcdef",
        "kéy_0123456789abcdef",
        "key_0123456789abcdef\u200b",
    ],
    ids=["bearer-prefix", "newline", "tab", "non-ascii", "zero-width-space"],
)
def test_a_key_that_cannot_travel_in_a_header_is_a_key_problem_that_never_quotes_it(key: str) -> None:
    """Such a key made the client refuse to open: the server died at start-up, or answered INTERNAL to every call."""
    settings = Settings.from_env({"CURSOR_API_KEY": key})
    assert settings.api_key is None
    assert settings.key_problem is not None and "CURSOR_API_KEY" in settings.key_problem
    assert key not in settings.key_problem and "0123456789" not in settings.key_problem


@pytest.mark.parametrize(
    "url",
    [
        "https://[api.cursor.com",
        "https://api.cursor.com:abc",
        "https://api.cursor.com:99999",
        "https://api cursor.com",
        "https://api.\tcursor.com",
    ],
    ids=["unclosed-bracket", "port-not-a-number", "port-out-of-range", "space-in-host", "tab-that-urlsplit-drops"],
)
def test_an_unreadable_base_url_is_refused_at_start_up_naming_the_variable(url: str) -> None:
    """These crashed the command with a traceback (ValueError) or at the first call (InvalidURL, OverflowError)."""
    with pytest.raises(ConfigError, match="CURSOR_API_BASE_URL"):
        Settings.from_env({"CURSOR_API_BASE_URL": url})


@pytest.mark.parametrize(
    "name",
    [
        "CURSOR_MCP_MAX_NEW_AGENTS",
        "CURSOR_MCP_MAX_ACTIVE_AGENTS",
        "CURSOR_MCP_MAX_RESULT_BYTES",
        "CURSOR_MCP_MAX_IMAGE_BYTES",
    ],
)
def test_a_count_with_a_fraction_is_refused_rather_than_rounded_down(name: str) -> None:
    """`CURSOR_MCP_MAX_NEW_AGENTS=0.5` silently meant 0, `CURSOR_MCP_MAX_ACTIVE_AGENTS=2.9` meant 2."""
    with pytest.raises(ConfigError, match=f"{name} must be a whole number"):
        Settings.from_env({name: "4000.5"})


def test_a_whole_count_written_with_a_decimal_point_or_an_exponent_is_read() -> None:
    """Only a fraction is refused: `25.0` and `2e1` are whole numbers."""
    settings = Settings.from_env({"CURSOR_MCP_MAX_NEW_AGENTS": "25.0", "CURSOR_MCP_MAX_ACTIVE_AGENTS": "2e1"})
    assert (settings.max_new_agents, settings.max_active_agents) == (25, 20)


def test_a_range_error_names_its_bounds_as_a_person_writes_them() -> None:
    """The spend limit's upper bound was printed `1e+08`."""
    with pytest.raises(ConfigError, match="between 0 and 100000000$"):
        Settings.from_env({"CURSOR_MCP_MAX_SPEND_CENTS": "-1"})


def test_a_value_written_into_the_forward_list_is_never_quoted_back() -> None:
    """`CURSOR_MCP_FORWARD_ENV=GITHUB_TOKEN=ghp_...` printed the token on stderr and in doctor's report."""
    with pytest.raises(ConfigError, match="CURSOR_MCP_FORWARD_ENV") as raised:
        Settings.from_env({"CURSOR_MCP_FORWARD_ENV": "DB_URL, GITHUB_TOKEN=ghp_canary0123456789"})
    assert "ghp_canary0123456789" not in str(raised.value) and "names only" in str(raised.value)


def test_a_reserved_name_in_the_forward_list_is_still_named() -> None:
    """A name is no secret: the user learns which entry to remove."""
    with pytest.raises(ConfigError, match="CURSOR_API_KEY"):
        Settings.from_env({"CURSOR_MCP_FORWARD_ENV": "CURSOR_API_KEY"})


@pytest.mark.parametrize("name", ["CURSOR_MCP_STATE_DIR", "CURSOR_MCP_RECORD_DIR"])
def test_a_relative_folder_is_refused_because_it_would_follow_each_clients_working_directory(name: str) -> None:
    """A relative state folder gave each project's server its own journal and its own 24-hour creation count."""
    with pytest.raises(ConfigError, match=f"{name} must be an absolute path"):
        Settings.from_env({name: "state/cursor"})


@pytest.mark.parametrize("name", ["CURSOR_MCP_STATE_DIR", "CURSOR_MCP_RECORD_DIR"])
def test_a_folder_under_the_home_directory_is_accepted(name: str) -> None:
    """`~` is an absolute place."""
    settings = Settings.from_env({name: "~/cursor-state"})
    folder = settings.state_dir if name == "CURSOR_MCP_STATE_DIR" else settings.record_dir
    assert folder is not None and folder.is_absolute()


@pytest.mark.parametrize("xdg", ["relative/state", ""])
def test_a_relative_or_empty_xdg_state_home_is_ignored_as_the_xdg_specification_says(xdg: str) -> None:
    """XDG Base Directory: a relative path in these variables is invalid and must be ignored."""
    settings = Settings.from_env({"HOME": "/home/u", "XDG_STATE_HOME": xdg})
    assert settings.state_dir == Path("/home/u/.local/state/cursor-cloud-agents")


def test_an_absolute_xdg_state_home_is_used() -> None:
    """The state folder follows XDG_STATE_HOME when it is usable."""
    settings = Settings.from_env({"HOME": "/home/u", "XDG_STATE_HOME": "/var/state"})
    assert settings.state_dir == Path("/var/state/cursor-cloud-agents")


@pytest.mark.parametrize(
    "command",
    ["/home/me 😀/bin/cursor-cloud-agents", '/opt/a "b"\\c/cursor-cloud-agents', "/opt/del\x7f/cursor-cloud-agents"],
    ids=["astral-character", "quotes-and-backslash", "delete-character"],
)
def test_the_codex_registration_is_valid_toml_for_any_path(command: str) -> None:
    """A JSON string is not a TOML string: an emoji became a surrogate pair TOML refuses."""
    parsed = tomllib.loads(snippet("codex", command).text)
    assert parsed["mcp_servers"]["cursor"]["command"] == command


def test_run_as_a_module_the_registration_names_the_command_not_the_modules_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`python -m cursor_cloud_agents config claude` registered `.../__main__.py`, which no client can start."""
    bin_dir = tmp_path / "venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "python").touch()
    (bin_dir / "cursor-cloud-agents").touch(mode=0o755)
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))  # no cursor-cloud-agents on PATH
    monkeypatch.setattr(sys, "executable", str(bin_dir / "python"))
    monkeypatch.setattr(sys, "argv", [str(tmp_path / "src" / "cursor_cloud_agents" / "__main__.py"), "config"])
    assert clients.command_path() == str(bin_dir / "cursor-cloud-agents")


@pytest.mark.parametrize("command", [["config", "claude"], ["doctor"]])
def test_a_reader_that_went_away_ends_the_command_quietly_with_the_sigpipe_status(command: list[str]) -> None:
    """`cursor-cloud-agents doctor | head -1` ended in a BrokenPipeError traceback (or Python's exit-time complaint)."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the first write: every write fails with EPIPE
    try:
        done = subprocess.run(
            [sys.executable, "-m", "cursor_cloud_agents", *command],
            stdin=subprocess.DEVNULL,
            stdout=write_end,
            stderr=subprocess.PIPE,
            env={"PATH": "/usr/bin:/bin", "CURSOR_MCP_FIXTURE": "1", "CURSOR_MCP_LOG_LEVEL": "ERROR"},
            timeout=60,
            check=False,
        )
    finally:
        os.close(write_end)
    assert (done.returncode, done.stderr.decode()) == (141, "")


@pytest.mark.parametrize("name", ["CURSOR_MCP_STATE_DIR", "CURSOR_MCP_RECORD_DIR"])
def test_a_folder_under_an_unknown_users_home_is_refused_naming_the_variable(name: str) -> None:
    """`~nosuchuser/state` ended in Python's RuntimeError traceback."""
    with pytest.raises(ConfigError, match=name):
        Settings.from_env({name: "~nosuchuser-0123456789/state"})
