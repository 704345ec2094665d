"""The check's settings (issue 42): CURSOR_MCP_CHECK_ENV, CURSOR_MCP_CHECKS_AT_ONCE, CURSOR_MCP_CHECK_SANDBOX."""

from __future__ import annotations

import pytest

from cursor_cloud_agents.config import ConfigError, Settings
from cursor_cloud_agents.core.review.checks import CheckRules


def test_by_default_the_check_gets_no_extra_variable_two_at_once_and_the_sandbox_where_it_works() -> None:
    """H-62: the defaults, and the rules the core reads from them."""
    settings = Settings.from_env({})
    assert (settings.check_env, settings.checks_at_once, settings.check_sandbox) == ((), 2, "auto")
    assert CheckRules.of(settings) == CheckRules()


def test_listed_names_are_read_trimmed_and_once() -> None:
    """H-62: names only, spaces around them ignored, a repeated one kept once."""
    settings = Settings.from_env({"CURSOR_MCP_CHECK_ENV": " GH_TOKEN, NPM_TOKEN ,,GH_TOKEN", "GH_TOKEN": "x"})
    assert settings.check_env == ("GH_TOKEN", "NPM_TOKEN")


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("CURSOR_API_KEY", "the Cursor key above all, even listed"),
        ("GH_TOKEN,cursor_team_id", "no CURSOR_* variable reaches a check"),
        ("HOME", "its own throwaway HOME and TMPDIR"),
        ("TMPDIR", "its own throwaway HOME and TMPDIR"),
        ("GH_TOKEN=gho_secret", "not a variable name"),
        ("", "is empty"),
    ],
)
def test_a_cursor_name_our_own_name_or_a_value_is_refused_with_what_to_change_h_62(value: str, said: str) -> None:
    """H-62: the Cursor key never reaches a check, even listed; HOME and TMPDIR are always the throwaway's; a
    `NAME=value` entry is refused without quoting the value."""
    with pytest.raises(ConfigError, match="CURSOR_MCP_CHECK_ENV") as refused:
        Settings.from_env({"CURSOR_MCP_CHECK_ENV": value})
    assert said in str(refused.value) and "gho_secret" not in str(refused.value)


@pytest.mark.parametrize(("value", "said"), [("0", "between 1 and 16"), ("17", "between 1 and 16"), ("1.5", "whole")])
def test_checks_at_once_is_a_whole_number_from_1_to_16(value: str, said: str) -> None:
    with pytest.raises(ConfigError, match=f"CURSOR_MCP_CHECKS_AT_ONCE must be.*{said}"):
        Settings.from_env({"CURSOR_MCP_CHECKS_AT_ONCE": value})


def test_the_sandbox_setting_takes_auto_off_or_require() -> None:
    assert Settings.from_env({"CURSOR_MCP_CHECK_SANDBOX": "Require"}).check_sandbox == "require"
    with pytest.raises(ConfigError, match="CURSOR_MCP_CHECK_SANDBOX must be one of auto, off, require"):
        Settings.from_env({"CURSOR_MCP_CHECK_SANDBOX": "yes"})
