"""The README's generated sections, rendered from the code that defines them, so that they cannot drift.

`scripts/update_readme.py` rewrites them; a test fails while the README differs from this rendering.
"""

from __future__ import annotations

import re

from cursor_cloud_agents.config import VARIABLES, Settings
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.server.app import build_toolkit
from cursor_cloud_agents.server.toolkit import Access

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


SECTIONS = {"variables": variables_table, "tools": tools_table}


def render(readme: str) -> str:
    """`readme` with every generated section replaced by its current rendering."""
    for name, make in SECTIONS.items():
        pattern = re.compile(rf"(<!-- {name}:start -->\n).*?(\n<!-- {name}:end -->)", re.DOTALL)
        readme = pattern.sub(lambda match, make=make: match.group(1) + make() + match.group(2), readme)
    return readme
