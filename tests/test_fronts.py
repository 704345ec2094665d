"""The packages whose names load on first use (PEP 562: `api`, `core`, `server`): what each loads by is what
the imports pyright reads say, name for name, so the two cannot drift apart (issue 35)."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from cursor_cloud_agents import front_homes

FRONTS = [
    "cursor_cloud_agents.api",
    "cursor_cloud_agents.core",
    "cursor_cloud_agents.github",
    "cursor_cloud_agents.server",
    "cursor_cloud_agents.verify",
]


def typed_imports(package: str) -> dict[str, str]:
    """Each name the front imports under `if TYPE_CHECKING:`, with the module it comes from (the front itself
    for a submodule of its own)."""
    module = importlib.import_module(package)
    tree = ast.parse(Path(str(module.__file__)).read_text(encoding="utf-8"))
    found: dict[str, str] = {}
    for block in tree.body:
        if not isinstance(block, ast.If):
            continue
        for node in block.body:
            if isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:
                    found[alias.name] = node.module
    return found


@pytest.mark.parametrize("package", FRONTS)
def test_a_front_loads_each_name_from_the_module_its_typed_import_names(package: str) -> None:
    module = importlib.import_module(package)
    typed = typed_imports(package)
    assert typed == module._front.homes  # pyright: ignore[reportPrivateUsage] -- the reading under test
    assert list(typed) == module.__all__
    for name, home in typed.items():
        found = getattr(module, name)
        if home == package:
            assert found is importlib.import_module(f"{package}.{name}"), name
            continue
        if name in _submodules(package):  # its module loaded first, as a face may: the name is still the function
            importlib.import_module(f"{package}.{name}")
            found = getattr(module, name)
        assert found is getattr(importlib.import_module(home), name), name


def _submodules(package: str) -> set[str]:
    module = importlib.import_module(package)
    return {path.stem for path in Path(str(module.__file__)).parent.glob("*.py")}


def test_importing_a_small_module_of_a_front_loads_no_client_and_no_core() -> None:
    """Issue 35: the ids, the times, the core's time and store load without the API client, its models or
    the fleet (a fresh interpreter: this one has loaded everything)."""
    code = (
        "import sys\n"
        "import cursor_cloud_agents.api.ids, cursor_cloud_agents.api.times, cursor_cloud_agents.core.timing\n"
        "from cursor_cloud_agents.core import Store\n"
        "heavy = ['cursor_cloud_agents.api.client', 'cursor_cloud_agents.api.models.runs', "
        "'cursor_cloud_agents.core.runs.fleet', 'httpx2']\n"
        "print([name for name in heavy if name in sys.modules])\n"
    )
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30, check=True)
    assert ran.stdout.strip() == "[]"


def test_a_fronts_names_are_read_from_its_typed_imports_whatever_their_layout_n_46() -> None:
    """N-46: one name a line, a parenthesised list with a comment, a submodule of the front's own: each name once,
    with its home, in the order written; code after the block is not read."""
    source = (
        '"""A front."""\n\nimport typing as _typing\n\nif _typing.TYPE_CHECKING:\n'
        "    from pkg import failures\n"
        "    from pkg.a import (\n        One,  # the first\n        two,\n    )\n"
        "    from pkg.b import Three\n\n"
        "from pkg.c import NotExported\n"
    )
    assert front_homes(source) == {"failures": "pkg", "One": "pkg.a", "two": "pkg.a", "Three": "pkg.b"}


@pytest.mark.parametrize(
    "source",
    ["import typing\n", "if TYPE_CHECKING:\n    from pkg.a import One as Two\n"],
    ids=["no typed imports", "a name exported under another"],
)
def test_a_front_that_cannot_state_its_names_once_fails_at_import_n_47(source: str) -> None:
    """N-47: a front without typed imports, or one importing a name under another (pyright would see `Two`, the
    loader could only find `One`), is refused when it loads, not at a first lookup in production."""
    with pytest.raises(ImportError):
        front_homes(source)
