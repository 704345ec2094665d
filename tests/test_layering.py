"""The direction of imports (docs/architecture.md, "Layers"), enforced by walking every module's AST.

- `api` never imports `mcp`, `core`, `server` or `simulator`; `httpx2` is imported only by `api/_http.py`;
- `core` (the delegation domain both faces share) never imports `mcp`, `server` or `terminal`, and never
  looks up the call in progress (`current_call`): the face hands it in;
- `server` (the MCP face) never imports `httpx2`, `simulator` or `terminal`;
- `terminal` (the person's face) never imports `mcp` or `server`;
- `sdk` (a program's face) never imports `mcp`, `server`, `terminal`, `verify`, `cli`, Starlette, uvicorn or rich;
- the faces (`server`, `terminal`, `verify`, `sdk`) use the core through its front (`core/__init__.py`, its
  `__all__`), besides `core.call` (the protocol a face implements) and `core.timing` (every time and budget);
- `simulator` never imports `api`, `core` or `server`;
- only `config` (and `cli` and `launch`, which hand `os.environ` to it) touch `os.environ` or `os.getenv`.
"""

from __future__ import annotations

import ast
import importlib
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
FACES = ("server", "terminal", "verify", "sdk")
CORE_BESIDE_THE_FRONT = (f"{ROOT}.core.call", f"{ROOT}.core.timing")
"""The core modules a face may import besides the front."""
AMBIENT_CALL = "current_call"
"""The toolkit's look-up of the call in progress: the MCP face's own, never the core's."""
ENVIRONMENT_READERS = {"config.py", "cli/main.py", "cli/launch.py", "sdk/_settings.py"}
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
        if layer in FACES and module.startswith(f"{ROOT}.core.") and module not in CORE_BESIDE_THE_FRONT:
            found.append(f"{relative} imports {module} (a face uses the core's front: from {ROOT}.core import ...)")
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
        ("api/models.py", "from cursor_cloud_agents.server.pipeline import toolkit"),
        ("api/client.py", "import httpx2"),
        ("server/tools/runs.py", "from httpx2 import AsyncClient"),
        ("server/app.py", "from cursor_cloud_agents.simulator import World"),
        ("simulator/world.py", "from cursor_cloud_agents.api.models import Run"),
        ("server/pipeline/toolkit.py", "import os\nkey = os.environ['CURSOR_API_KEY']"),
        ("api/_http.py", "from os import getenv"),
        ("terminal/paid.py", "from cursor_cloud_agents.server.state import ServerState"),
        ("core/spend/paid.py", "import mcp"),
        ("sdk/_agent.py", "import rich"),
        ("sdk/_cursor.py", "from cursor_cloud_agents.server.state import ServerState"),
        ("core/spend/limits.py", "from cursor_cloud_agents.server.pipeline.answers import size"),
        ("core/runs/fleet.py", "from cursor_cloud_agents.terminal.term import Session"),
        ("core/runs/waiting.py", "from cursor_cloud_agents.server.pipeline.toolkit import current_call"),
        (
            "core/runs/waiting.py",
            "from cursor_cloud_agents.server.pipeline import toolkit\ncall = toolkit.current_call()",
        ),
        ("api/client.py", "from cursor_cloud_agents.core.failures import ToolFailure"),
        ("server/tools/runs.py", "from cursor_cloud_agents.core.runs.liveness import fold_liveness"),
        ("terminal/board.py", "import cursor_cloud_agents.core.store"),
        ("verify/spend.py", "from cursor_cloud_agents.core.spend.paid import create_within_limits"),
    ],
)
def test_the_layering_check_catches_a_broken_rule(relative: str, source: str) -> None:
    """The check itself: each rule, broken on purpose, is reported (a test that cannot fail proves nothing)."""
    assert violations(relative, source)


def test_a_face_may_import_the_cores_front_and_its_call_and_timing() -> None:
    """The front, `core.call` and `core.timing` are what a face may use of the core."""
    source = (
        "from cursor_cloud_agents.core import ToolFailure, failures\n"
        "from cursor_cloud_agents.core.call import Call\n"
        "from cursor_cloud_agents.core.timing import Clock\n"
    )
    assert violations("server/tools/runs.py", source) == []


def module_imports() -> dict[str, set[str]]:
    """Each module of the package and the package modules it imports (a submodule named in a from-import counted
    as itself, not as its package)."""
    names = {
        ".".join((ROOT, *path.relative_to(PACKAGE).with_suffix("").parts)).removesuffix(".__init__"): path
        for path in package_modules()
    }
    imports: dict[str, set[str]] = {name: set() for name in names}
    for name, path in names.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                subs = [f"{node.module}.{alias.name}" for alias in node.names if f"{node.module}.{alias.name}" in names]
                targets = subs + ([node.module] if len(subs) < len(node.names) else [])
            elif isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                continue
            imports[name] |= {target for target in targets if target in names and target != name}
    return imports


def test_no_two_modules_import_each_other() -> None:
    """An import runs one way: two modules that need each other are one idea split in two, or a third missing."""
    imports = module_imports()
    mutual = sorted({tuple(sorted((a, b))) for a in imports for b in imports[a] if a in imports.get(b, set())})
    assert mutual == []


def test_no_public_class_name_is_defined_twice() -> None:
    """One name, one thing: two public classes of one name leave a reader (and an import) guessing which."""
    homes: dict[str, list[str]] = {}
    for path in package_modules():
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                homes.setdefault(node.name, []).append(path.relative_to(PACKAGE).as_posix())
    twice = {name: where for name, where in homes.items() if len(where) > 1}
    assert {name: where for name, where in twice.items() if where != CURSORS_NAMES.get(name)} == {}


_SDK_ERRORS = ["AgentBusyError", "APITimeoutError", "AuthenticationError", "BadRequestError", "NotFoundError"]
CURSORS_NAMES = {"Agent": ["api/models/agents.py", "sdk/_sync.py"], "Run": ["api/models/runs.py", "sdk/_sync.py"]} | {
    name: ["api/errors.py", "sdk/_errors.py"] for name in [*_SDK_ERRORS, "PermissionDeniedError", "RateLimitError"]
}
"""The one exception: the SDK face keeps the names of Cursor's own SDK (`Agent`, `Run`, and its error classes), so
that a program moves between the two with only its import line changed (docs/sdk.md), while the API's wire models
and the API client's exceptions keep the API's names. The SDK's front never exports the wire models or the client's
exceptions under those names (`AgentInfo` is the API's agent record there)."""


@pytest.mark.parametrize("package", ["core", "server", "verify"])
def test_the_core_server_and_verify_name_their_front(package: str) -> None:
    """docs/architecture.md §6.5: each package says what it exports, and every name it lists exists."""
    module = importlib.import_module(f"{ROOT}.{package}")
    exported = module.__all__
    assert exported and all(hasattr(module, name) for name in exported)
