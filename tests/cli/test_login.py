"""`login` checks the key with one read before storing it, and `logout` removes it (issue 44)."""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest

from cursor_cloud_agents import keystore
from cursor_cloud_agents.cli.login import Out, login, logout
from cursor_cloud_agents.cli.main import open_client
from cursor_cloud_agents.simulator import SIMULATED_API_KEY, ManualClock, World, serve


class Lines:
    def __init__(self) -> None:
        self.said: list[str] = []
        self.warned: list[str] = []
        self.out = Out(say=self.said.append, warn=self.warned.append)

    def text(self) -> str:
        return "".join(self.said + self.warned)


@pytest.mark.anyio
async def test_login_checks_the_key_then_stores_it_and_names_its_owner(tmp_path: Path) -> None:
    lines = Lines()
    async with serve(World(ManualClock())) as sim:
        env = {"HOME": str(tmp_path), "CURSOR_API_BASE_URL": sim.base_url}
        code = await login(env, open_client, SIMULATED_API_KEY + "\n", lines.out)
    assert code == 0 and "key 'Simulated API Key' of developer@example.com" in lines.text()
    assert SIMULATED_API_KEY not in lines.text()
    stored = keystore.find(env)
    assert stored is not None and stored.value == SIMULATED_API_KEY


@pytest.mark.anyio
async def test_a_key_cursor_refuses_is_not_stored_i_06(tmp_path: Path) -> None:
    """I-06: a mistyped key is refused by the one read and never stored (the next start would only fail)."""
    key = f"canary_{secrets.token_hex(16)}"
    lines = Lines()
    async with serve(World(ManualClock())) as sim:
        env = {"HOME": str(tmp_path), "CURSOR_API_BASE_URL": sim.base_url}
        code = await login(env, open_client, key, lines.out)
    assert code == 1 and "AUTHENTICATION" in lines.text() and "nothing stored" in lines.text()
    assert key not in lines.text() and keystore.find(env) is None


@pytest.mark.anyio
@pytest.mark.parametrize("given", ["", "  \n", "Bearer key_0123", "key\x00zero", "k" * 5000])
async def test_no_key_or_a_malformed_one_makes_no_call_and_stores_nothing(tmp_path: Path, given: str) -> None:
    lines = Lines()

    def never(*_: object) -> None:
        raise AssertionError("no call without a usable key")

    code = await login({"HOME": str(tmp_path)}, never, given, lines.out)  # pyright: ignore[reportArgumentType]
    assert code == 2 and "nothing stored" in lines.text() and keystore.find({"HOME": str(tmp_path)}) is None


def test_logout_removes_the_key_and_says_when_there_was_none(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path)}
    keystore.save(env, "key_0123456789")
    first, second = Lines(), Lines()
    assert logout(env, first.out) == 0 and "Removed the stored key from the file" in first.text()
    assert logout(env, second.out) == 0 and second.said == ["No stored key to remove.\n"]
    assert keystore.find(env) is None


def test_logout_says_when_the_variable_still_holds_a_key(tmp_path: Path) -> None:
    lines = Lines()
    logout({"HOME": str(tmp_path), "CURSOR_API_KEY": "key_1"}, lines.out)
    assert "CURSOR_API_KEY is still set" in lines.text()


@pytest.mark.anyio
async def test_after_login_doctor_names_where_the_key_came_from_and_the_sdk_finds_it(tmp_path: Path) -> None:
    """Every face finds the stored key; doctor says which source it used, never the key."""
    from cursor_cloud_agents.cli.doctor import diagnose
    from cursor_cloud_agents.sdk._settings import Overrides, sdk_settings

    async with serve(World(ManualClock())) as sim:
        env = {"HOME": str(tmp_path), "CURSOR_API_BASE_URL": sim.base_url, "CURSOR_MCP_STATE_DIR": str(tmp_path)}
        assert await login(env, open_client, SIMULATED_API_KEY, Lines().out) == 0
        lines: list[str] = []
        code = await diagnose(env, open_client, lines.append)
    text = "".join(lines)
    assert code == 0 and f"the key stored in the file {tmp_path}/.config/cursor-cloud-agents/api-key" in text
    assert SIMULATED_API_KEY not in text
    settings = sdk_settings(Overrides(), simulated=False, environment=env)
    assert settings.api_key is not None and settings.api_key.reveal() == SIMULATED_API_KEY
