"""`cursor-cloud-agents doctor`: is this server ready to work, and if not, what to fix.

It reads the same settings the server would, checks each one, then makes one real read (`GET
/v1/me`) with them. Every line goes through the redactor: it names variables, never their values.
It is a command for a person, so it prints to stdout; it is not the server.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from contextlib import AbstractAsyncContextManager

import anyio

from cursor_cloud_agents.api import CursorClient, CursorError, Me, deadline_after
from cursor_cloud_agents.config import ASK_ACTS, ConfigError, Settings
from cursor_cloud_agents.core.failures import ToolFailure, from_api_error
from cursor_cloud_agents.core.spend.ledger import use_of
from cursor_cloud_agents.core.spend.origins import acts_directory
from cursor_cloud_agents.core.store import Store, StoreUnusable
from cursor_cloud_agents.core.timing import DOCTOR_CALL_SECONDS as CALL_SECONDS
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.terminal.words import for_person, key_problem

ClientFactory = Callable[[Settings], AbstractAsyncContextManager[CursorClient]]


class Diagnosis:
    """The lines of a diagnosis, masked, and whether any of them failed."""

    def __init__(self, redactor: Redactor, write: Callable[[str], object]) -> None:
        self.redactor = redactor
        self.write = write
        self.failed = False

    def line(self, verdict: str, text: str) -> None:
        self.failed |= verdict == "FAIL"
        self.write(f"{verdict:<4}  {self.redactor.mask(text)}\n")


def _settings_lines(settings: Settings, report: Diagnosis) -> None:
    if settings.simulated:
        report.line("ok", "simulated mode (CURSOR_MCP_FIXTURE=1): nothing real, nothing billed")
    elif settings.key_problem is not None:
        report.line("FAIL", key_problem(settings.key_problem))
    else:
        source = settings.key_source or ""
        where = f"from {source}" if source == "CURSOR_API_KEY" else source  # else "stored in ..." (login)
        report.line("ok", f"the key {where}; API at {settings.base_url}")
    writes = "on" if settings.allow_writes else "off (set CURSOR_MCP_ALLOW_WRITES=1 to create and steer agents)"
    report.line("ok", f"writes {writes}; delete {'on' if settings.allow_delete else 'off'}")
    for name in sorted(settings.forward_env):
        report.line("ok", f"forward_env may pass {name}")
    for problem in settings.forward_problems.values():
        report.line("warn", f"CURSOR_MCP_FORWARD_ENV: {problem}")
    report.line("ok", f"limits: {settings.max_call_seconds:g} s per call, {settings.max_result_bytes} bytes per result")


async def _state_line(settings: Settings, report: Diagnosis) -> None:
    folder = settings.state_dir
    if folder is None or settings.simulated:
        return  # simulated mode (or CURSOR_MCP_STATE_DIR=memory) keeps its acts in memory
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder):
            pass
        now = time.time()
        used, _ = use_of(await Store(acts_directory(settings)).read(now), now)
    except (OSError, StoreUnusable) as exc:
        why = exc.why if isinstance(exc, StoreUnusable) else f"{folder} is not writable ({type(exc).__name__})"
        report.line(
            "warn",
            f"state folder: {why}: creations and follow-ups will be refused; make "
            "CURSOR_MCP_STATE_DIR a writable folder",
        )
        return
    report.line("ok", f"state folder {folder} is writable (the store of paid acts)")
    report.line("ok", f"new agents: {used} of {settings.max_new_agents} in the last 24 h (CURSOR_MCP_MAX_NEW_AGENTS)")


def _limit_lines(settings: Settings, report: Diagnosis) -> None:
    report.line("ok", f"agents running at once: at most {settings.max_active_agents} (CURSOR_MCP_MAX_ACTIVE_AGENTS)")
    spend = settings.max_spend_cents
    report.line(
        "ok",
        "spend: no limit (CURSOR_MCP_MAX_SPEND_CENTS not set)"
        if spend is None
        else f"spend: at most {spend:.0f} cents per 24 h (CURSOR_MCP_MAX_SPEND_CENTS)",
    )
    asked = ", ".join(act for act in ASK_ACTS if act in settings.ask) or "nothing (none)"
    report.line("ok", f"the user is asked before: {asked}, when the client can ask (CURSOR_MCP_ASK)")


async def read_me(settings: Settings, open_client: ClientFactory) -> Me | ToolFailure | None:
    """One read of the key's owner (`GET /v1/me`), bounded: its answer, Cursor's refusal, or None for no answer
    in time (`doctor`, and `login` before it stores a key)."""
    try:
        with anyio.fail_after(CALL_SECONDS + 5), deadline_after(CALL_SECONDS):
            async with open_client(settings) as client:
                return await client.me()
    except CursorError as exc:
        return from_api_error(exc)
    except TimeoutError:
        return None


async def _api_line(settings: Settings, open_client: ClientFactory, report: Diagnosis) -> None:
    if settings.key_problem is not None and not settings.simulated:
        report.line("FAIL", "no call made to Cursor: fix the key first")
        return
    me = await read_me(settings, open_client)
    if isinstance(me, ToolFailure):
        report.line("FAIL", f"GET /v1/me: {me.code}: {for_person(me)}")
    elif me is None:
        report.line("FAIL", f"GET /v1/me did not answer within {CALL_SECONDS:g} s")
    else:
        report.line("ok", f"GET /v1/me: key {me.api_key_name!r} of {me.user_email or 'a service account'}")


async def diagnose(env: Mapping[str, str], open_client: ClientFactory, write: Callable[[str], object]) -> int:
    """Check the settings in `env` and one read with them; 0 when the server is ready, 1 otherwise."""
    try:
        settings = Settings.from_env(env)
    except ConfigError as exc:
        Diagnosis(Redactor(), write).line("FAIL", str(exc))
        return 1
    report = Diagnosis(Redactor(settings.secrets()), write)
    report.line("ok", f"Python {sys.version.split()[0]}")
    _settings_lines(settings, report)
    await _state_line(settings, report)
    _limit_lines(settings, report)
    await _api_line(settings, open_client, report)
    report.write("\nReady.\n" if not report.failed else "\nNot ready: fix the FAIL lines above.\n")
    return 1 if report.failed else 0
