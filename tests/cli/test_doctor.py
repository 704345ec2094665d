"""`doctor` says whether the server is ready and what to fix, without a secret; `config` prints each registration."""

from __future__ import annotations

import json
import secrets
import tomllib
from collections.abc import AsyncGenerator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from cursor_cloud_agents.api import CursorClient
from cursor_cloud_agents.cli.doctor import diagnose
from cursor_cloud_agents.cli.main import open_client
from cursor_cloud_agents.clients import CLIENTS, snippet
from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.simulator import SIMULATED_API_KEY, ManualClock, World, serve

COMMAND = "/opt/tools/bin/cursor-cloud-agents"


async def run_doctor(env: dict[str, str]) -> tuple[int, str]:
    lines: list[str] = []
    code = await diagnose(env, open_client, lines.append)
    return code, "".join(lines)


@pytest.mark.anyio
async def test_doctor_is_ready_with_a_key_that_works(tmp_path: Path) -> None:
    """A real read with the user's settings; the key itself never appears."""
    async with serve(World(ManualClock())) as sim:
        env = {"CURSOR_API_KEY": SIMULATED_API_KEY, "CURSOR_API_BASE_URL": sim.base_url}
        code, out = await run_doctor(env | {"CURSOR_MCP_STATE_DIR": str(tmp_path)})
    assert code == 0 and "Ready." in out
    assert "GET /v1/me: key 'Simulated API Key'" in out
    assert SIMULATED_API_KEY not in out


@pytest.mark.anyio
async def test_doctor_names_a_refused_key_without_showing_it() -> None:
    """A key Cursor refuses: the line says AUTHENTICATION and what to fix, never the value."""
    key = f"canary_{secrets.token_hex(16)}"
    async with serve(World(ManualClock())) as sim:
        code, out = await run_doctor({"CURSOR_API_KEY": key, "CURSOR_API_BASE_URL": sim.base_url})
    assert code == 1 and "AUTHENTICATION" in out and "CURSOR_API_KEY" in out
    assert key not in out and key[:12] not in out


async def doctor_offline(environ: dict[str, str]) -> tuple[int, str, list[Settings]]:
    """`doctor` with a client opener that records every attempt to open one (none is expected)."""
    opened: list[Settings] = []

    @asynccontextmanager
    async def never(settings: Settings) -> AsyncGenerator[CursorClient, None]:
        opened.append(settings)
        raise AssertionError("no client should be opened without a usable key")
        yield  # pragma: no cover  # unreachable: makes this an async generator

    lines: list[str] = []
    code = await diagnose(environ, never, lines.append)
    return code, "".join(lines), opened


@pytest.mark.anyio
async def test_doctor_without_a_key_makes_no_call_and_says_which_variable() -> None:
    """Reference: the key is read only from the server's environment."""
    code, out, opened = await doctor_offline({})
    assert code == 1 and opened == []
    assert "FAIL  CURSOR_API_KEY is not set" in out


@pytest.mark.anyio
async def test_doctor_names_a_key_with_a_space_in_one_line_without_a_call_or_a_traceback() -> None:
    """doctor used to end in the client's ValueError traceback instead of its FAIL line."""
    code, out, opened = await doctor_offline({"CURSOR_API_KEY": "Bearer key_0123456789abcdef"})
    assert code == 1 and opened == []
    assert "FAIL  CURSOR_API_KEY" in out and "key_0123456789abcdef" not in out


@pytest.mark.anyio
async def test_doctor_reports_an_unusable_setting_by_name() -> None:
    """Settings: an unusable tuning value is named, and nothing else is tried."""
    code, out = await run_doctor({"CURSOR_MCP_MAX_CALL_SECONDS": "soon"})
    assert code == 1 and "CURSOR_MCP_MAX_CALL_SECONDS" in out


@pytest.mark.parametrize("client", CLIENTS)
def test_config_prints_a_registration_each_client_can_read_with_writes_off_and_no_key(client: str) -> None:
    """docs/clients.md: how to register the server in each client; the snippet parses and holds no key value."""
    found = snippet(client, COMMAND)
    parsed = tomllib.loads(found.text) if client == "codex" else json.loads(found.text)
    text = json.dumps(parsed)
    assert COMMAND in text and '"CURSOR_MCP_ALLOW_WRITES": "0"' in text and found.check
    # Issue 44: no key, not even a placeholder the client would expand: the server finds it (login).
    assert "${" not in text and "{env:" not in text
    assert "CURSOR_API_KEY" not in text or client == "codex"


def test_codex_passes_the_key_or_where_login_stored_it_through_env_vars() -> None:
    """docs/clients.md (Codex): Codex passes only the variables it lists (and HOME): an exported key, and the
    XDG folder and the desktop's keychain bus where `login` may have stored one (issue 44)."""
    parsed = tomllib.loads(snippet("codex", COMMAND).text)
    passed = ["CURSOR_API_KEY", "XDG_CONFIG_HOME", "DBUS_SESSION_BUS_ADDRESS"]
    assert parsed["mcp_servers"]["cursor"]["env_vars"] == passed


def test_an_unknown_client_is_refused() -> None:
    """Only the four clients we document."""
    with pytest.raises(ValueError, match="unknown client"):
        snippet("emacs", COMMAND)
