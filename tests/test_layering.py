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
- `github` (the PR watch's reader of GitHub) never imports `mcp`, `core`, `server`, `terminal` or `simulator`;
- only `config` (and `cli` and `launch`, which hand `os.environ` to it) touch `os.environ` or `os.getenv`;
- every import goes down (`PACKAGE_FLOORS`, and in the MCP face its rooms, `SERVER_ROOMS`: protocol below
  pipeline below views below tools below `app.py`), and no two modules, packages or rooms import each other,
  counting imports only the type checker sees and relative ones.
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
    # GitHub's reader reuses the API client's HTTP layer (`api/_http.py`), and knows nothing of the rest.
    "github": ("mcp", "mcp_types", f"{ROOT}.core", f"{ROOT}.server", f"{ROOT}.terminal", f"{ROOT}.simulator", "httpx"),
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
        ("terminal/paid.py", "from cursor_cloud_agents.server.pipeline.state import ServerState"),
        ("core/spend/paid.py", "import mcp"),
        ("sdk/_agent.py", "import rich"),
        ("sdk/_cursor.py", "from cursor_cloud_agents.server.pipeline.state import ServerState"),
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
        ("github/reader.py", "import httpx2"),
        ("github/reader.py", "from cursor_cloud_agents.core import ToolFailure"),
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


def module_name(path: Path) -> str:
    """The dotted name of a module of the package (a package's `__init__.py` named as the package)."""
    return ".".join((ROOT, *path.relative_to(PACKAGE).with_suffix("").parts)).removesuffix(".__init__")


def package_sources() -> dict[str, tuple[str, bool]]:
    """Each module of the package: its source, and whether it is a package's `__init__.py`."""
    return {module_name(path): (path.read_text(), path.name == "__init__.py") for path in package_modules()}


def absolute(name: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The module a from-import names, a relative one (`from .records import ...`) resolved against `name`."""
    if node.level == 0:
        return node.module or ""
    base = name.split(".") if is_package else name.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def import_graph(sources: dict[str, tuple[str, bool]]) -> dict[str, set[str]]:
    """Each module and the package modules it imports: at run time, inside a function or only for the type
    checker (`if TYPE_CHECKING:`), since a cycle the checker sees is still two ideas that need each other. A
    submodule named in a from-import counts as itself, not as its package."""
    imports: dict[str, set[str]] = {name: set() for name in sources}
    for name, (source, is_package) in sources.items():
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.ImportFrom):
                module = absolute(name, is_package, node)
                subs = [f"{module}.{alias.name}" for alias in node.names if f"{module}.{alias.name}" in sources]
                targets = subs + ([module] if len(subs) < len(node.names) else [])
            elif isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                continue
            imports[name] |= {target for target in targets if target in sources and target != name}
    return imports


def module_imports() -> dict[str, set[str]]:
    """The package's own import graph, read from its files."""
    return import_graph(package_sources())


PACKAGE_FLOORS: dict[str, int] = {
    **dict.fromkeys(("", "logtext", "closing", "clients", "guards"), 0),
    **dict.fromkeys(("redact", "config", "keystore"), 1),
    **dict.fromkeys(("api", "github", "simulator", "statuscache"), 2),
    **dict.fromkeys(("core", "embedded"), 3),
    **dict.fromkeys(("server", "terminal", "verify", "sdk"), 4),
    **dict.fromkeys(("cli", "__main__"), 5),
}
"""The package's floors (docs/architecture.md §2), by the first name under `cursor_cloud_agents` ("" is the
package's own `__init__.py`): an import goes to the same floor or one below."""
SERVER_ROOMS: dict[str, int] = {"listing": 0, "protocol": 0, "pipeline": 1, "views": 2, "tools": 3, "app": 4, "": 5}
"""The MCP face's rooms (docs/architecture.md §1.3), by the first name under `server`: protocol below pipeline below
views below tools; `app.py` joins them, the front (`server/__init__.py`, "") names what leaves the package."""


def floor(module: str) -> tuple[str, int, str, int]:
    """Where `module` stands: its package and that package's floor, its room inside `server/` and that room's."""
    parts = module.split(".")[1:] + ["", ""]
    package, room = parts[0], parts[1] if parts[0] == "server" else ""
    return package, PACKAGE_FLOORS[package], room, SERVER_ROOMS[room] if package == "server" else 0


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """Every import that runs up: to a higher floor of the package, or to a higher room of the MCP face."""
    found: list[str] = []
    for importer, imported in sorted((a, b) for a in graph for b in graph[a]):
        package, level, room, room_level = floor(importer)
        other_package, other_level, other_room, other_room_level = floor(imported)
        if other_level > level:
            found.append(f"{importer} imports {imported}: {package}/ sits below {other_package}/")
        elif package == other_package == "server" and other_room_level > room_level:
            found.append(f"{importer} imports {imported}: server/{room or '__init__'} sits below server/{other_room}")
    return found


def mutual_pairs(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """Every two modules that import each other."""
    return sorted({(min(a, b), max(a, b)) for a in graph for b in graph[a] if a in graph.get(b, set())})


def mutual_rooms(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """Every two packages, or two rooms of one package, that import each other (through any of their modules)."""
    rooms: dict[str, set[str]] = {}
    for importer, imported in ((a, b) for a in graph for b in graph[a]):
        here, there = importer.split("."), imported.split(".")
        depth = next((i for i, (x, y) in enumerate(zip(here, there, strict=False)) if x != y), None)
        if depth is None or depth >= min(len(here), len(there)):
            continue  # one is the other's package: its front or its __init__
        rooms.setdefault(".".join(here[: depth + 1]), set()).add(".".join(there[: depth + 1]))
    return mutual_pairs(rooms)


def test_no_two_modules_import_each_other() -> None:
    """An import runs one way: two modules that need each other are one idea split in two, or a third missing."""
    assert mutual_pairs(module_imports()) == []


def test_no_two_packages_or_rooms_import_each_other() -> None:
    """N-40: server/protocol and server/pipeline (and any two packages or rooms) need each other in one direction
    only, counting imports the type checker alone sees."""
    assert mutual_rooms(module_imports()) == CORE_ROOMS_STILL_MUTUAL


CORE_ROOMS_STILL_MUTUAL = [
    (f"{ROOT}.core.runs", f"{ROOT}.core.spend"),
    (f"{ROOT}.core.runs", f"{ROOT}.core.state"),
    (f"{ROOT}.core.spend", f"{ROOT}.core.state"),
]
"""Known, not allowed to grow: the core's rooms (issue 45's first step) still lean on each other (a paid act scans
runs, the queue watches them; `core/state.py` holds a room's state while rooms take the state). Untangling them is
the core rooms' work; a pair fixed is removed here, and a new pair fails this test."""


def test_no_import_runs_up() -> None:
    """N-41: each import goes down a floor of the package (docs/architecture.md §2) and, in the MCP face, down its
    rooms: protocol below pipeline below views below tools."""
    assert upward_imports(module_imports()) == []


PLANTS = {
    f"{ROOT}.server.pipeline.toolkit": f"from {ROOT}.server.tools import runs",
    f"{ROOT}.server.protocol.tasks": (
        "from typing import TYPE_CHECKING\n"
        f"if TYPE_CHECKING:\n    from {ROOT}.server.pipeline.hints import READ_THE_CHANGES"
    ),
    f"{ROOT}.server.views.runs": f"def late():\n    from {ROOT}.server.tools.runs import cursor_get_run",
    f"{ROOT}.core.failures": f"from {ROOT}.server.pipeline import answers",
    f"{ROOT}.simulator.records": "from .. import cli",
}


@pytest.mark.parametrize(("module", "planted"), PLANTS.items(), ids=list(PLANTS))
def test_the_order_check_catches_a_planted_upward_import_n_42(module: str, planted: str) -> None:
    """N-42: the package's own sources with one upward import added (a pipeline → tools import among them, one only
    the type checker sees, one inside a function, one relative) fail the same check the real sources pass."""
    sources = package_sources()
    source, is_package = sources[module]
    sources[module] = (f"{source}\n{planted}\n", is_package)
    assert upward_imports(import_graph(sources))


def test_the_cycle_check_catches_two_rooms_that_import_each_other_n_43() -> None:
    """N-43: a pipeline module importing a protocol module that imports back a pipeline module is reported as the
    two rooms importing each other, though no two modules do."""
    graph: dict[str, set[str]] = {
        f"{ROOT}.server.pipeline.toolkit": {f"{ROOT}.server.protocol.asking"},
        f"{ROOT}.server.protocol.tasks": {f"{ROOT}.server.pipeline.hints"},
        f"{ROOT}.server.protocol.asking": set(),
        f"{ROOT}.server.pipeline.hints": set(),
    }
    assert mutual_pairs(graph) == []
    assert mutual_rooms(graph) == [(f"{ROOT}.server.pipeline", f"{ROOT}.server.protocol")]


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
