"""`cursor-cloud-agents login` and `logout`: keep the API key once, for every client and every face (issue 44).

`login` reads the key without echoing it (or from stdin, for scripts), checks it with one read (`GET /v1/me`,
as `doctor` does) and stores it where `keystore` keeps it; a key Cursor refuses, or one that could not be
checked, is not stored. `logout` removes it. Neither ever prints the key: the lines name the key's name and
owner, as Cursor answers them, and where the key went.
"""

from __future__ import annotations

import getpass
import sys
from collections.abc import Callable, Mapping
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass

from cursor_cloud_agents import keystore
from cursor_cloud_agents.api import CursorClient
from cursor_cloud_agents.cli.doctor import read_me
from cursor_cloud_agents.config import Settings, checked_key
from cursor_cloud_agents.core import ToolFailure
from cursor_cloud_agents.core.timing import DOCTOR_CALL_SECONDS as CALL_SECONDS
from cursor_cloud_agents.redact import Redactor

ClientFactory = Callable[[Settings], AbstractAsyncContextManager[CursorClient]]
PROMPT = "Cursor API key (typing is hidden; create one at cursor.com/dashboard, Integrations): "


@dataclass(frozen=True)
class Out:
    """Where the lines go: what happened to stdout, what went wrong to stderr."""

    say: Callable[[str], object]
    warn: Callable[[str], object]


def read_key(from_stdin: bool) -> str:
    """The key as the person gives it: typed without echo at a terminal, else the first line of stdin."""
    if from_stdin or not sys.stdin.isatty():
        return sys.stdin.readline(keystore.MAX_KEY_BYTES + 1)
    return getpass.getpass(PROMPT)


async def login(env: Mapping[str, str], open_client: ClientFactory, given: str, out: Out) -> int:
    """Check `given` with one read, then store it; 0 once stored, 1 when refused or not stored, 2 for no key."""
    key, problem = checked_key(given, "the key given") if given.strip() else (None, "no key given")
    if len(given.strip()) > keystore.MAX_KEY_BYTES:  # not a key (a file piped by mistake): never stored
        key, problem = None, f"the input is longer than {keystore.MAX_KEY_BYTES} characters, not a key"
    if key is None:
        out.warn(f"login: {problem}: nothing stored\n")
        return 2
    settings = Settings.from_env({**env, "CURSOR_API_KEY": key.reveal()})
    mask = Redactor(settings.secrets()).mask
    if settings.key_problem is not None:  # CURSOR_MCP_FIXTURE=1: simulated mode takes no real key
        out.warn(f"login: {mask(settings.key_problem)}: nothing stored\n")
        return 1
    me = await read_me(settings, open_client)
    if isinstance(me, ToolFailure):
        why = "Cursor refused this key (check it was copied whole)" if me.code == "AUTHENTICATION" else me.message
        out.warn(mask(f"login: GET /v1/me: {me.code}: {why}; nothing stored\n"))
        return 1
    if me is None:
        out.warn(f"login: GET /v1/me did not answer within {CALL_SECONDS:g} s: nothing stored\n")
        return 1
    try:
        place = keystore.save(env, key.reveal())
    except keystore.KeyStoreError as exc:
        out.warn(f"login: {exc}\n")
        return 1
    owner = me.user_email or "a service account"
    out.say(mask(f"Logged in: key {me.api_key_name!r} of {owner}, stored in {place}.\n"))
    if env.get("CURSOR_API_KEY") is not None:
        out.say("CURSOR_API_KEY is set in this environment and is used first: unset it to use the stored key.\n")
    return 0


def logout(env: Mapping[str, str], out: Out) -> int:
    """Remove the stored key from every place it may be; 0 whether or not there was one."""
    try:
        removed = keystore.remove(env)
    except keystore.KeyStoreError as exc:
        out.warn(f"logout: {exc}\n")
        return 1
    out.say(f"Removed the stored key from {' and '.join(removed)}.\n" if removed else "No stored key to remove.\n")
    if env.get("CURSOR_API_KEY") is not None:
        out.say("CURSOR_API_KEY is still set in this environment: unset it too to log out everywhere.\n")
    return 0
