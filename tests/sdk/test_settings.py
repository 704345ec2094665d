"""The SDK's settings (`sdk/_settings.py`): the product's variables, the arguments laid over them."""

from __future__ import annotations

from pathlib import Path

import pytest

from cursor_cloud_agents.config import ConfigError
from cursor_cloud_agents.sdk._settings import Overrides, sdk_settings


def test_an_argument_overrides_its_variable_and_is_checked_by_the_same_parser() -> None:
    env = {"CURSOR_API_KEY": "key_from_env_1234", "CURSOR_MCP_MAX_NEW_AGENTS": "5"}
    settings = sdk_settings(Overrides(api_key="key_from_code_5678", max_new_agents=2), simulated=False, environment=env)
    assert settings.api_key is not None and settings.api_key.reveal() == "key_from_code_5678"
    assert settings.max_new_agents == 2
    with pytest.raises(ConfigError, match="CURSOR_MCP_MAX_NEW_AGENTS"):
        sdk_settings(Overrides(max_new_agents=-1), simulated=False, environment={})
    with pytest.raises(ConfigError, match="CURSOR_API_BASE_URL"):
        sdk_settings(Overrides(base_url="http://api.example.com"), simulated=False, environment={})


def test_the_state_dir_and_limits_come_from_the_environment_when_no_argument_is_given(tmp_path: Path) -> None:
    env = {"CURSOR_MCP_STATE_DIR": str(tmp_path), "CURSOR_MCP_MAX_SPEND_CENTS": "150"}
    settings = sdk_settings(Overrides(), simulated=False, environment=env)
    assert (settings.state_dir, settings.max_spend_cents) == (tmp_path, 150.0)


def test_simulated_reads_no_key_keeps_the_store_in_memory_and_ignores_the_fixture_variable() -> None:
    env = {"CURSOR_API_KEY": "key_real_0123456789", "CURSOR_MCP_STATE_DIR": "/tmp/elsewhere"}
    simulated = sdk_settings(Overrides(), simulated=True, environment=env)
    assert simulated.simulated and simulated.api_key is None and simulated.state_dir is None
    real = sdk_settings(Overrides(), simulated=False, environment=env | {"CURSOR_MCP_FIXTURE": "1"})
    assert not real.simulated and real.api_key is not None


def test_a_limit_of_true_is_refused_rather_than_read_as_one() -> None:
    with pytest.raises(ConfigError):
        sdk_settings(Overrides(max_new_agents=True), simulated=False, environment={})


def test_the_writes_switch_is_not_needed_by_a_program() -> None:
    """A program is its own author: creations work with CURSOR_MCP_ALLOW_WRITES unset (tested end to end in
    test_agent.py); the settings keep the variable's default."""
    assert not sdk_settings(Overrides(), simulated=True, environment={}).allow_writes
