"""Settings.from_env: the reference's variables and semantics, and ours."""

from __future__ import annotations

from pathlib import Path

import pytest

from cursor_cloud_agents.api import CursorClient
from cursor_cloud_agents.config import ConfigError, Secret, Settings


def test_defaults_without_any_variable_start_read_only_against_the_real_api() -> None:
    """Reference: writes and deletion are off by default; a missing key does not stop the server."""
    settings = Settings.from_env({"HOME": "/home/u"})
    assert settings.api_key is None
    assert settings.key_problem is not None and "CURSOR_API_KEY" in settings.key_problem
    assert (settings.allow_writes, settings.allow_delete, settings.simulated) == (False, False, False)
    assert settings.base_url == "https://api.cursor.com"
    assert (settings.max_call_seconds, settings.max_result_bytes) == (55.0, 38_000)
    assert settings.artifact_hosts == (".amazonaws.com",)
    assert settings.state_dir == Path("/home/u/.local/state/cursor-cloud-agents")


@pytest.mark.parametrize("value", ["", "   ", "${CURSOR_API_KEY}", "{env:CURSOR_API_KEY}", "x${KEY}"])
def test_an_empty_or_uninterpolated_key_is_refused_without_being_quoted(value: str) -> None:
    """Reference: empty, ${...} and {env:...} values are refused without being logged."""
    settings = Settings.from_env({"CURSOR_API_KEY": value})
    assert settings.api_key is None
    assert settings.key_problem is not None
    assert value.strip() == "" or value not in settings.key_problem


def test_the_key_is_a_secret_that_never_shows_in_a_repr() -> None:
    """docs/reliability.md SL-05: repr(Settings) shows ***."""
    settings = Settings.from_env({"CURSOR_API_KEY": "key_abcdefghijklmnop"})
    assert settings.api_key == Secret("key_abcdefghijklmnop")
    assert "key_abcdefghijklmnop" not in repr(settings)
    assert "key_abcdefghijklmnop" not in str(settings.api_key)


def test_switches_accept_exactly_zero_or_one() -> None:
    """Reference: writes and delete are on only when set to 1."""
    assert Settings.from_env({"CURSOR_MCP_ALLOW_WRITES": "1", "CURSOR_MCP_ALLOW_DELETE": "1"}).allow_delete
    with pytest.raises(ConfigError, match="CURSOR_MCP_ALLOW_WRITES"):
        Settings.from_env({"CURSOR_MCP_ALLOW_WRITES": "yes"})


def test_simulated_mode_with_a_real_key_is_refused() -> None:
    """Reference: CURSOR_MCP_FIXTURE=1 with a real key prevents any call."""
    settings = Settings.from_env({"CURSOR_MCP_FIXTURE": "1", "CURSOR_API_KEY": "key_abcdefghijklmnop"})
    assert settings.simulated and settings.api_key is None
    assert settings.key_problem is not None and "CURSOR_MCP_FIXTURE" in settings.key_problem


def test_forward_env_reads_only_the_named_variables_and_reports_missing_ones() -> None:
    """Reference: forward_env may read only the names listed in CURSOR_MCP_FORWARD_ENV."""
    env = {"CURSOR_MCP_FORWARD_ENV": "DB_URL, TOKEN ,EMPTY", "DB_URL": "postgres://x", "EMPTY": "", "OTHER": "o"}
    settings = Settings.from_env(env)
    assert dict(settings.forward_env) == {"DB_URL": Secret("postgres://x")}
    assert set(settings.forward_problems) == {"TOKEN", "EMPTY"}
    assert "postgres://x" in settings.secrets()


def test_forward_env_refuses_cursor_prefixed_names() -> None:
    """docs/api-contract.md §3.6: env var names may not start with CURSOR_."""
    with pytest.raises(ConfigError):
        Settings.from_env({"CURSOR_MCP_FORWARD_ENV": "CURSOR_API_KEY"})


@pytest.mark.parametrize(
    ("url", "accepted"),
    [
        ("https://api.cursor.com", True),
        ("http://127.0.0.1:8080", True),
        ("http://localhost:9", True),
        ("http://[::1]:9", True),
        ("http://api.cursor.com", False),
        ("https://user:pw@api.cursor.com", False),
        ("ftp://api.cursor.com", False),
    ],
)
def test_the_base_url_must_be_https_except_for_loopback(url: str, accepted: bool) -> None:
    """Ours: CURSOR_API_BASE_URL, https required except for loopback hosts."""
    if accepted:
        assert Settings.from_env({"CURSOR_API_BASE_URL": url + "/"}).base_url == url
    else:
        with pytest.raises(ConfigError, match="CURSOR_API_BASE_URL"):
            Settings.from_env({"CURSOR_API_BASE_URL": url})


@pytest.mark.parametrize(
    "env",
    [
        {"CURSOR_MCP_MAX_CALL_SECONDS": "abc"},
        {"CURSOR_MCP_MAX_CALL_SECONDS": "1"},
        {"CURSOR_MCP_MAX_RESULT_BYTES": "10"},
        {"CURSOR_MCP_LOG_LEVEL": "LOUD"},
        {"CURSOR_MCP_ARTIFACT_HOSTS": " , "},
        {"CURSOR_MCP_LOG_LEVEL": "${LEVEL}"},
    ],
)
def test_unusable_tuning_values_stop_the_server_with_the_variable_named(env: dict[str, str]) -> None:
    """Ours: a tuning value the server cannot run with is a start-up error naming its variable."""
    with pytest.raises(ConfigError, match=next(iter(env))):
        Settings.from_env(env)


def test_tuning_values_are_read() -> None:
    """Ours: the call budget, result cap, artifact hosts and state folder can be set."""
    settings = Settings.from_env(
        {
            "CURSOR_MCP_MAX_CALL_SECONDS": "30",
            "CURSOR_MCP_MAX_RESULT_BYTES": "20000",
            "CURSOR_MCP_ARTIFACT_HOSTS": ".amazonaws.com, .example.org",
            "CURSOR_MCP_STATE_DIR": "/tmp/state",
            "CURSOR_MCP_LOG_LEVEL": "debug",
        }
    )
    assert (settings.max_call_seconds, settings.max_result_bytes) == (30.0, 20_000)
    assert settings.artifact_hosts == (".amazonaws.com", ".example.org")
    assert settings.state_dir == Path("/tmp/state")
    assert settings.log_level == "DEBUG"


@pytest.mark.parametrize(
    "url", ["https://api.cursor.com", "http://127.0.0.1:8080", "http://127.0.0.2:9", "http://[::1]:9"]
)
def test_every_base_url_the_settings_accept_the_client_accepts_too(url: str) -> None:
    """One loopback rule (net.is_loopback_host): a setting accepted at start-up never fails when the client opens."""
    settings = Settings.from_env({"CURSOR_API_BASE_URL": url})
    CursorClient(settings.base_url, None)  # raises ValueError for a URL the client refuses


@pytest.mark.parametrize(
    ("value", "expected"), [(None, 1_000_000), ("0", 0), ("5000000", 5_000_000)], ids=["default", "never", "highest"]
)
def test_the_image_limit_of_artifacts_defaults_to_a_million_bytes(value: str | None, expected: int) -> None:
    """Issue 12: CURSOR_MCP_MAX_IMAGE_BYTES, default 1,000,000; 0 never sends an image."""
    env = {} if value is None else {"CURSOR_MCP_MAX_IMAGE_BYTES": value}
    assert Settings.from_env(env).max_image_bytes == expected


@pytest.mark.parametrize("value", ["-1", "5000001", "lots"])
def test_an_image_limit_beyond_what_is_downloaded_is_refused_naming_the_variable(value: str) -> None:
    """Issue 12: artifacts are downloaded up to 5 MiB, so a higher image limit could never be met."""
    with pytest.raises(ConfigError, match="CURSOR_MCP_MAX_IMAGE_BYTES"):
        Settings.from_env({"CURSOR_MCP_MAX_IMAGE_BYTES": value})


@pytest.mark.parametrize(("env", "plugin"), [({"CLAUDE_PLUGIN_ROOT": "/p/cursor-cloud-agents/0.1"}, True), ({}, False)])
def test_a_server_claude_code_started_as_its_plugin_knows_it(env: dict[str, str], plugin: bool) -> None:
    """D-92: Claude Code sets CLAUDE_PLUGIN_ROOT for a plugin's server (2.1.332): the name its hooks match."""
    assert Settings.from_env(env).claude_plugin is plugin


@pytest.mark.parametrize(
    ("value", "expected"),
    [(None, ("github.com",)), ("GitLab.example.com, github.com", ("gitlab.example.com", "github.com"))],
)
def test_the_git_cache_hosts_default_to_github_and_are_read_as_a_list_h_08(
    value: str | None, expected: tuple[str, ...]
) -> None:
    """H-08: CURSOR_MCP_GIT_HOSTS, the hosts the git cache may fetch from besides those of the person's clones."""
    env = {} if value is None else {"CURSOR_MCP_GIT_HOSTS": value}
    assert Settings.from_env(env).git_hosts == expected


@pytest.mark.parametrize("value", [" , ", "github.com/org", "a b"])
def test_unusable_git_cache_hosts_stop_the_server_naming_the_variable(value: str) -> None:
    with pytest.raises(ConfigError, match="CURSOR_MCP_GIT_HOSTS"):
        Settings.from_env({"CURSOR_MCP_GIT_HOSTS": value})
