"""How each client registers this server: the one source of `cursor-cloud-agents config CLIENT` and of the
registration blocks of docs/clients.md and the README (`scripts/devkit/readme.py` renders them; a test holds
the pages to them).

Each snippet names the server by the absolute path of this command when `config` prints it (a client started
from a desktop launcher may not have the shell's PATH; the docs show the bare name), holds no key (the server
uses `CURSOR_API_KEY` when the client's environment has it, else the key `cursor-cloud-agents login` stored:
issue 44), and starts with writes off: the user turns them on knowingly. What each setting is for was
measured with the real clients (docs/clients.md, scripts/clients/).
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

SERVER_NAME = "cursor"
COMMAND = "cursor-cloud-agents"
PLUGIN = "cursor-cloud-agents"
"""The Claude Code plugin's name, and its marketplace's (`.claude-plugin/`)."""
PLUGIN_ID = f"{PLUGIN}@{PLUGIN}"
PLUGIN_SERVER_NAME = f"plugin:{PLUGIN}:{SERVER_NAME}"
"""What Claude Code names the plugin's server: its hooks match this name, not `cursor`."""
CLAUDE_PERMISSION = f"mcp__{SERVER_NAME}"
"""The permission rule for every tool of the server registered as `cursor` (`.mcp.json`, `claude mcp add`)."""
PLUGIN_PERMISSION = f"mcp__plugin_{PLUGIN}_{SERVER_NAME}"
"""The same for the plugin's server: without it `claude -p` refuses even `cursor_list_agents`."""
CLAUDE_PRINT_WAIT_ENV = {"MCP_CONNECTION_NONBLOCKING": "0", "MCP_CONNECT_TIMEOUT_MS": "20000"}
"""What makes `claude -p` connect its MCP servers before the first model request (by default it starts at
once, and a call to a server still starting waits for it): blocking start-up, for at most 20 s instead of 5 s
(Claude Code 2.1.332, read in its code and driven: docs/clients.md)."""
HOOK_MATCHER = f"^({SERVER_NAME}|{PLUGIN_SERVER_NAME})$"
"""An `Elicitation` hook's matcher for both ways of installing: Claude Code compares a matcher of letters,
digits, `_`, `|`, `,`, `-` and spaces with the server's name as a list of names, and reads any other as a
regular expression (searched, hence anchored); the plugin's server name holds `:`, so one expression names
both exactly (`:` and `-` stand for themselves outside brackets)."""
_YES = {"hookSpecificOutput": {"hookEventName": "Elicitation", "action": "accept", "content": {"confirm": True}}}
WRITES_OFF = {"CURSOR_MCP_ALLOW_WRITES": "0"}


@dataclass(frozen=True)
class Snippet:
    """Where a client's configuration goes, what to put there, how to check it took, and notes (the why)."""

    where: str
    text: str
    check: str
    notes: tuple[str, ...] = ()

    def printed(self) -> str:
        """As `config` prints it: the where, the text to paste, the check and the notes as comments."""
        notes = "".join(f"# {note}\n" for note in self.notes)
        return f"# {self.where}\n{self.text}\n# then check: {self.check}\n{notes}"


def command_path() -> str:
    """The absolute path of this command, as a client should start it."""
    found = shutil.which(COMMAND)
    if found:
        return str(Path(found).absolute())
    # Run as `python -m cursor_cloud_agents`, argv[0] is the module's __main__.py, which no client can start;
    # the console script installed beside this interpreter is the same program.
    beside = Path(sys.executable).with_name(COMMAND)
    if beside.is_file():
        return str(beside.absolute())
    return str(Path(sys.argv[0]).absolute())


def _json(data: object) -> str:
    return json.dumps(data, indent=2)


def _toml_string(text: str) -> str:
    """`text` as a TOML basic string. Not json.dumps: it writes a character beyond U+FFFF as a surrogate
    pair, which TOML refuses, so a path with an emoji made the whole config.toml unreadable."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + re.sub(r"[\x00-\x1f\x7f]", lambda match: f"\\u{ord(match.group()):04x}", escaped) + '"'


def claude_mcp_add(command: str) -> str:
    """The `claude mcp add` line: for every project of this user; the key comes from Claude Code's environment
    (a stdio server inherits it), so it is never written into `~/.claude.json`. The name goes before `-e`,
    whose list would otherwise swallow it."""
    writes = " ".join(f"-e {name}={value}" for name, value in WRITES_OFF.items())
    return f"claude mcp add --scope user {SERVER_NAME} {writes} -- {shlex.quote(command)}"


def claude_print(permission: str) -> str:
    """`claude -p` as a script runs it: this server's tools allowed, the start waited for."""
    wait = " ".join(f"{name}={value}" for name, value in CLAUDE_PRINT_WAIT_ENV.items())
    return f"{wait} claude -p 'List my Cursor agents' --allowedTools {permission}"


def elicitation_hook() -> str:
    """`settings.json`'s hook that answers yes to every question of this server, installed either way."""
    command = f"printf '%s' '{json.dumps(_YES, separators=(',', ':'))}'"
    hook = {"matcher": HOOK_MATCHER, "hooks": [{"type": "command", "command": command}]}
    return _json({"hooks": {"Elicitation": [hook]}})


def plugin_permissions() -> str:
    """`settings.json`'s rule that lets the plugin's tools run without a prompt (what `-p` needs)."""
    return _json({"permissions": {"allow": [PLUGIN_PERMISSION]}})


def _claude(command: str) -> Snippet:
    server = {"type": "stdio", "command": command, "env": WRITES_OFF}
    notes = (
        f"or, for all your projects: {claude_mcp_add(command)}",
        f"in scripts: {claude_print(CLAUDE_PERMISSION)}",
    )
    text = _json({"mcpServers": {SERVER_NAME: server}})
    return Snippet(".mcp.json in your project (merge into mcpServers)", text, "claude mcp list, then /mcp", notes)


def _codex(command: str) -> Snippet:
    text = (
        f"[mcp_servers.{SERVER_NAME}]\ncommand = {_toml_string(command)}\n"
        "# Codex passes only the variables listed here (when set): a key exported in the shell, and where\n"
        "# `cursor-cloud-agents login` stored one (its config folder; the Linux desktop's keychain)\n"
        'env_vars = ["CURSOR_API_KEY", "XDG_CONFIG_HOME", "DBUS_SESSION_BUS_ADDRESS"]\n'
        'env = { CURSOR_MCP_ALLOW_WRITES = "0" }\ntool_timeout_sec = 100\n'
        "# Wait for this server before the first model request (without it, on a slow start, the model gets\n"
        "# none of its tools), and give up after 30 s: it answered in 1 to 14 s on a busy machine.\n"
        "required = true\nstartup_timeout_sec = 30\n"
        '# default_tools_approval_mode = "approve"  # lets `codex exec` run the write tools without asking\n'
    )
    return Snippet("~/.codex/config.toml", text, "codex mcp list")


def _opencode(command: str) -> Snippet:
    server = {
        "type": "local",
        "command": [command],
        "enabled": True,
        "timeout": 100_000,
        "environment": WRITES_OFF,
    }
    data = {"$schema": "https://opencode.ai/config.json", "mcp": {SERVER_NAME: server}}
    return Snippet("opencode.json in your project (merge into mcp)", _json(data), "opencode debug config")


def _cursor(command: str) -> Snippet:
    server = {"command": command, "env": WRITES_OFF}
    text = _json({"mcpServers": {SERVER_NAME: server}})
    check = f"cursor-agent mcp enable {SERVER_NAME} && cursor-agent mcp list-tools {SERVER_NAME}"
    return Snippet(".cursor/mcp.json in your project (merge into mcpServers)", text, check)


_SNIPPETS = {"claude": _claude, "codex": _codex, "opencode": _opencode, "cursor": _cursor}
CLIENTS = tuple(_SNIPPETS)


def snippet(client: str, command: str) -> Snippet:
    """The registration of this server for `client` (claude, codex, opencode or cursor)."""
    make = _SNIPPETS.get(client)
    if make is None:
        raise ValueError(f"unknown client {client!r}: claude, codex, opencode or cursor")
    return make(command)
