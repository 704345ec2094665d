"""The direction of imports (docs/architecture.md, "Layers"), enforced by walking every module's AST.

- `api` never imports `mcp`, `core`, `server` or `simulator`; `httpx2` is imported only by `api/_http.py`;
- `core` (the delegation domain both faces share) never imports `mcp`, `server` or `terminal`, and never
  looks up the call in progress (`current_call`): the face hands it in;
- `server` (the MCP face) never imports `httpx2`, `simulator` or `terminal`;
- `terminal` (the person's face) never imports `mcp` or `server`;
- `sdk` (a program's face) never imports `mcp`, `server`, `terminal`, `verify`, `cli`, Starlette, uvicorn or rich;
- `simulator` never imports `api`, `core` or `server`;
- only `config` (and `cli` and `launch`, which hand `os.environ` to it) touch `os.environ` or `os.getenv`.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parent.parent / "src" / "cursor_cloud_agents"
ROOT = "cursor_cloud_agents"

FORBIDDEN: dict[str, tuple[str, ...]] = {
    "api": ("mcp", "mcp_types", f"{ROOT}.core", f"{ROOT}.server", f"{ROOT}.simulator", "httpx"),
    "core": ("mcp", "mcp_types", f"{ROOT}.server", f"{ROOT}.terminal", f"{ROOT}.simulator", "httpx"),
    "server": ("httpx2", "httpx", f"{ROOT}.simulator", f"{ROOT}.terminal"),
    "simulator": (f"{ROOT}.api", f"{ROOT}.core", f"{ROOT}.server", "httpx"),
    "terminal": ("mcp", "mcp_types", f"{ROOT}.server", "httpx"),
    "sdk": (
        "mcp",
        "mcp_types",
        "starlette",
        "uvicorn",
        "rich",
        f"{ROOT}.server",
        f"{ROOT}.terminal",
        f"{ROOT}.verify",
        f"{ROOT}.cli",
        "httpx",
    ),
}
AMBIENT_CALL = "current_call"
"""The toolkit's look-up of the call in progress: the MCP face's own, never the core's."""
ENVIRONMENT_READERS = {"config.py", "cli.py", "launch.py", "sdk/_settings.py"}
"""`sdk/_settings.py`: a program that imports the SDK is its own entry point; it hands the environment to config."""
HTTPX2_MODULE = "api/_http.py"


def imported_modules(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def reads_environment(tree: ast.AST) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in {"environ", "getenv", "environb"}:
            return True
        if isinstance(node, ast.ImportFrom) and node.module == "os":
            if any(alias.name in {"environ", "getenv"} for alias in node.names):
                return True
    return False


def violations(relative: str, source: str) -> list[str]:
    """Every layering rule that the module at `relative` (a path under the package) breaks."""
    tree = ast.parse(source)
    layer = relative.split("/", 1)[0] if "/" in relative else ""
    found: list[str] = []
    for module in sorted(imported_modules(tree)):
        banned = FORBIDDEN.get(layer, ())
        found.extend(
            f"{relative} imports {module}" for rule in banned if module == rule or module.startswith(rule + ".")
        )
        if module.split(".")[0] == "httpx2" and relative != HTTPX2_MODULE:
            found.append(f"{relative} imports httpx2 (only {HTTPX2_MODULE} may)")
    if layer == "core" and any(
        isinstance(node, ast.Name | ast.Attribute | ast.alias)
        and AMBIENT_CALL in (getattr(node, "id", None), getattr(node, "attr", None), getattr(node, "name", None))
        for node in ast.walk(tree)
    ):
        found.append(f"{relative} looks up the call in progress ({AMBIENT_CALL}); take a core.call.Call instead")
    if reads_environment(tree) and relative not in ENVIRONMENT_READERS:
        found.append(f"{relative} reads the environment (only config.py may)")
    return found


def package_modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", package_modules(), ids=lambda path: str(path.relative_to(PACKAGE)))
def test_module_respects_the_layering_rules(path: Path) -> None:
    """docs/architecture.md: the layers and the direction of imports."""
    relative = path.relative_to(PACKAGE).as_posix()
    assert violations(relative, path.read_text()) == []


@pytest.mark.parametrize(
    ("relative", "source"),
    [
        ("api/client.py", "import mcp"),
        ("api/models.py", "from cursor_cloud_agents.server import toolkit"),
        ("api/client.py", "import httpx2"),
        ("server/tools/runs.py", "from httpx2 import AsyncClient"),
        ("server/app.py", "from cursor_cloud_agents.simulator import World"),
        ("simulator/world.py", "from cursor_cloud_agents.api.models import Run"),
        ("server/toolkit.py", "import os\nkey = os.environ['CURSOR_API_KEY']"),
        ("api/_http.py", "from os import getenv"),
        ("terminal/paid.py", "from cursor_cloud_agents.server.state import ServerState"),
        ("core/paid.py", "import mcp"),
        ("sdk/_agent.py", "import rich"),
        ("sdk/_cursor.py", "from cursor_cloud_agents.server.state import ServerState"),
        ("core/limits.py", "from cursor_cloud_agents.server.answers import size"),
        ("core/fleet.py", "from cursor_cloud_agents.terminal.term import Session"),
        ("core/waiting.py", "from cursor_cloud_agents.server.toolkit import current_call"),
        ("core/waiting.py", "from cursor_cloud_agents.server import toolkit\ncall = toolkit.current_call()"),
        ("api/client.py", "from cursor_cloud_agents.core.failures import ToolFailure"),
    ],
)
def test_the_layering_check_catches_a_broken_rule(relative: str, source: str) -> None:
    """The check itself: each rule, broken on purpose, is reported (a test that cannot fail proves nothing)."""
    assert violations(relative, source)
