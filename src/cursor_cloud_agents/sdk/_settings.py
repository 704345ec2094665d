"""The SDK's settings: the product's own variables, with what a program passes in code laid over them.

A program that imports the SDK is its own entry point (no `cli.py` hands it `os.environ`), so this is the
one SDK module that reads the environment, and only to give it to `Settings.from_env`. A value passed in
code is written over the variable it stands for and read by the same parser, so it is checked exactly as
the variable would be (`ConfigError` names the variable). The writes switch (`CURSOR_MCP_ALLOW_WRITES`) is
not read here: it is the MCP server's gate on a model; a program is its own author.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from cursor_cloud_agents.config import MEMORY_STATE, ConfigError, Settings
from cursor_cloud_agents.sdk._errors import SettingsError, in_sdk_words


@dataclass(frozen=True)
class Overrides:
    """What a program passed in code; None leaves the variable as the environment has it."""

    api_key: str | None = None
    base_url: str | None = None
    state_dir: Path | str | None = None
    max_new_agents: int | None = None
    max_spend_cents: float | None = None
    max_active_agents: int | None = None
    team_id: str | None = None

    def variables(self) -> dict[str, str]:
        """The overrides as the variables they stand for."""
        given = {
            "CURSOR_API_KEY": self.api_key,
            "CURSOR_API_BASE_URL": self.base_url,
            "CURSOR_MCP_STATE_DIR": None if self.state_dir is None else str(self.state_dir),
            "CURSOR_MCP_MAX_NEW_AGENTS": _number(self.max_new_agents),
            "CURSOR_MCP_MAX_SPEND_CENTS": _number(self.max_spend_cents),
            "CURSOR_MCP_MAX_ACTIVE_AGENTS": _number(self.max_active_agents),
            "CURSOR_TEAM_ID": self.team_id,
        }
        return {name: value for name, value in given.items() if value is not None}


def _number(value: float | None) -> str | None:
    if isinstance(value, bool):
        raise ConfigError("a limit is a number, not True or False")
    return None if value is None else repr(value)


def sdk_settings(overrides: Overrides, *, simulated: bool, environment: Mapping[str, str] | None = None) -> Settings:
    """The settings of one `Cursor`: the environment (`os.environ` unless given), the overrides over it.

    Simulated, no key is read or kept and the store of paid acts stays in memory (simulated agents never count
    against real ones, as in the server's simulated mode).

    Raises:
        ConfigError: a value cannot be used; the message names the variable (never its value).
    """
    try:
        env = dict(os.environ if environment is None else environment) | overrides.variables()
        return _settings_of(env, simulated=simulated)
    except ConfigError as bad:
        if isinstance(bad, SettingsError):
            raise
        raise SettingsError(f"{bad} (or pass its argument to Cursor(...)).") from None


def _settings_of(env: dict[str, str], *, simulated: bool) -> Settings:
    if simulated:
        env = {name: value for name, value in env.items() if name != "CURSOR_API_KEY"}
        env |= {"CURSOR_MCP_FIXTURE": "1", "CURSOR_MCP_STATE_DIR": MEMORY_STATE}
    else:
        env.pop("CURSOR_MCP_FIXTURE", None)  # simulated is the argument's to say, not a variable's
    return Settings.from_env(env)


def key_advice(problem: str) -> str:
    """What a program reads when its key cannot be used (`Settings.key_problem`, said in the SDK's words)."""
    why = in_sdk_words(problem).replace("CURSOR_API_KEY ", "the key ")
    return (
        f"No usable API key: {why}. Pass Cursor(api_key=...) or set CURSOR_API_KEY in the program's environment "
        "(Cursor(simulated=True) runs without a key). Nothing was sent."
    )


def program_environment() -> dict[str, str]:
    """The program's environment, for the git this SDK runs to read an attempt's change (`core.GitPlaces` gives
    git none of the `CURSOR_*` variables)."""
    return dict(os.environ)
