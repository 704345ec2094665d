"""The generated sections of the README and the docs, rendered from the code that defines them, so that they
cannot drift.

`scripts/update_readme.py` (`make readme`) rewrites them; a test fails while a page differs from this rendering.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from cursor_cloud_agents import clients
from cursor_cloud_agents.config import VARIABLES, Settings
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.server.app import build_toolkit
from cursor_cloud_agents.server.pipeline.declaration import Access

_ACCESS_WORDS = {
    Access.READ: "read",
    Access.WRITE: "write",
    Access.DESTRUCTIVE: "write, destructive",
    Access.DELETE: "delete",
    Access.LOCAL: "runs your check command",
}


def variables_table() -> str:
    """The Markdown table of every environment variable the server reads."""
    rows = ["| Variable | Default | Meaning |", "|---|---|---|"]
    rows += [f"| `{var.name}` | `{var.default}` | {var.meaning} |" for var in VARIABLES]
    return "\n".join(rows)


def tools_table() -> str:
    """The Markdown table of every tool: name, access and the first sentence of its description."""
    rows = ["| Tool | Access | What it does |", "|---|---|---|"]
    for spec in build_toolkit(Settings(), Redactor()).specs.values():
        summary = " ".join((spec.fn.__doc__ or "").split()).split(". ")[0].rstrip(".") + "."
        rows.append(f"| `{spec.name}` | {_ACCESS_WORDS[spec.access]} | {summary} |")
    return "\n".join(rows)


CLIENT_NAMES = {"claude": "Claude Code", "codex": "Codex CLI", "opencode": "OpenCode", "cursor": "Cursor CLI"}


def registration_lines() -> str:
    """One line a client: the command that prints its registration, where that goes, how to check it took."""
    rows = ["| Client | Print the registration | Put it in | Then check |", "|---|---|---|---|"]
    for client in clients.CLIENTS:
        found = clients.snippet(client, clients.COMMAND)
        check = ", then ".join(f"`{step}`" for step in found.check.split(", then "))
        rows.append(f"| {CLIENT_NAMES[client]} | `{clients.COMMAND} config {client}` | {found.where} | {check} |")
    return "\n".join(rows)


def _fenced(language: str, text: str) -> str:
    return f"```{language}\n{text.rstrip()}\n```"


def _registration(client: str, language: str) -> Callable[[], str]:
    """A client's registration as `config CLIENT` prints it, with the bare command name (PATH) instead of the
    absolute path `config` finds on the reader's machine."""
    return lambda: _fenced(language, clients.snippet(client, clients.COMMAND).text)


SECTIONS: dict[str, Callable[[], str]] = {
    "register-lines": registration_lines,
    "variables": variables_table,
    "tools": tools_table,
    "register-claude": _registration("claude", "json"),
    "register-claude-add": lambda: _fenced("bash", clients.claude_mcp_add(clients.COMMAND)),
    "claude-print": lambda: _fenced("bash", clients.claude_print(clients.CLAUDE_PERMISSION)),
    "register-codex": _registration("codex", "toml"),
    "register-opencode": _registration("opencode", "json"),
    "register-cursor": _registration("cursor", "json"),
    "elicitation-hook": lambda: _fenced("json", clients.elicitation_hook()),
    "plugin-print": lambda: _fenced("bash", clients.claude_print(clients.PLUGIN_PERMISSION)),
    "plugin-permissions": lambda: _fenced("json", clients.plugin_permissions()),
}
"""Each generated section by its marker name (`<!-- NAME:start -->` ... `<!-- NAME:end -->`)."""

ROOT = Path(__file__).resolve().parent.parent.parent
PAGES: dict[str, tuple[str, ...]] = {
    "README.md": ("register-lines",),
    "docs/configuration.md": ("variables",),
    "docs/tools.md": ("tools",),
    "docs/clients.md": (
        "register-claude",
        "register-claude-add",
        "claude-print",
        "register-codex",
        "register-opencode",
        "register-cursor",
        "plugin-print",
        "plugin-permissions",
    ),
    "docs/safety.md": ("elicitation-hook",),
}
"""Where each generated section lives: the page (from the repository's root) and the sections it holds."""


def render(readme: str) -> str:
    """`readme` (the README or a page of docs/) with every generated section replaced by its current rendering,
    indented as its markers are (a section inside a list item stays in it)."""
    for name, make in SECTIONS.items():
        pattern = re.compile(
            rf"^([ \t]*)(<!-- {name}:start -->\n).*?([ \t]*<!-- {name}:end -->)$", re.DOTALL | re.MULTILINE
        )

        def replace(match: re.Match[str], make: Callable[[], str] = make) -> str:
            indent = match.group(1)
            body = "".join(f"{indent}{line}\n" if line else "\n" for line in make().split("\n"))
            return indent + match.group(2) + body + match.group(3)

        readme = pattern.sub(replace, readme)
    return readme
