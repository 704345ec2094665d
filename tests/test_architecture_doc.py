"""`docs/architecture.md` names the files as they are (issue 45): every path it names in backticks exists, and
its table of the core's rooms names each module of each room, so the page cannot drift from the tree."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "cursor_cloud_agents"
DOC = ROOT / "docs" / "architecture.md"
BACKTICKED = re.compile(r"`([^`\s]+)`")
PATH_LIKE = re.compile(r"[\w.-]+(?:/[\w.-]+)*/?")


def named_paths(text: str) -> list[str]:
    """The backticked names of `text` that look like a file or a folder: `core/spend/`, `cli/main.py`,
    `server/tools/list.py`, but not the MCP method `tools/list` (no folder of the package or the repository
    is called `tools`)."""
    found: list[str] = []
    for name in BACKTICKED.findall(text):
        if not PATH_LIKE.fullmatch(name):
            continue
        first = name.split("/", 1)[0]
        folder = "/" in name and ((PACKAGE / first).is_dir() or (ROOT / first).is_dir())
        if name.endswith((".py", "/")) or folder:
            found.append(name)
    return found


def missing(text: str) -> list[str]:
    """The named paths that are neither under the package (`core/store.py`) nor under the repository
    (`docs/sdk.md`, `tests/api/examples/`)."""
    return [name for name in named_paths(text) if not (PACKAGE / name).exists() and not (ROOT / name).exists()]


@pytest.mark.parametrize(
    "planted",
    ["the store (`core/ledger.py`)", "the rooms `core/money/`", "the entry point `launch.py`", "`tests/gone/`"],
)
def test_a_planted_path_that_does_not_exist_is_named(planted: str) -> None:
    assert missing(f"Some prose, then {planted}.") != []


def test_names_that_are_not_paths_are_not_checked() -> None:
    text = "`Settings.from_env(mapping)`, `os.environ`, `CURSOR_MCP_STATE_DIR`, `url.<folder>.insteadOf=https://`"
    text += ", `tools/list`, `notifications/cancelled`"
    assert named_paths(text) == []


def test_every_path_the_architecture_doc_names_exists() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert len(named_paths(text)) > 40  # the check reads the page's paths, not nothing
    assert missing(text) == []


def test_the_doc_names_each_module_of_each_room_of_the_core() -> None:
    """Each room's modules share one subject, and the doc's table of rooms says which (issue 45)."""
    named = set(named_paths(DOC.read_text(encoding="utf-8")))
    core = PACKAGE / "core"
    modules = [path for path in core.rglob("*.py") if path.name != "__init__.py"]
    rooms = {path.parent for path in modules} - {core}
    assert rooms  # the core is in rooms
    unnamed = [path.relative_to(PACKAGE).as_posix() for path in modules]
    assert [path for path in unnamed if path not in named] == []
    assert [room for room in rooms if f"{room.relative_to(PACKAGE).as_posix()}/" not in named] == []
