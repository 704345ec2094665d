"""The README stays a true front door: short, its quick start two commands, its architecture table the package's
folders, and every generated section (there and in docs/) what the code renders today."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from devkit.readme import PAGES, SECTIONS, render
from tests.test_architecture_doc import PACKAGE, missing, named_paths

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
MOST_LINES = 300
"""Issue 45: a front door of about 250 lines; everything else lives in docs/."""


@pytest.mark.parametrize("page", PAGES)
def test_each_page_holds_its_generated_sections_as_the_code_renders_them(page: str) -> None:
    """Issue 2: the variables table is generated from Settings, the tools table from the tools, the registrations
    from `clients.py`; run `make readme` when this fails."""
    text = (ROOT / page).read_text(encoding="utf-8")
    for name in PAGES[page]:
        assert f"<!-- {name}:start -->" in text and f"<!-- {name}:end -->" in text, f"{page} has no {name} section"
    assert render(text) == text, f"{page} is stale: run `make readme`"


def test_every_generated_section_has_exactly_one_page() -> None:
    """A section no page holds would be rendered for nothing, and one held twice would say it twice."""
    placed = [name for names in PAGES.values() for name in names]
    assert sorted(placed) == sorted(SECTIONS)


def test_a_stale_section_is_rendered_anew() -> None:
    """The staleness check can fail: a planted row in the variables table is replaced by the rendering."""
    page = (ROOT / "docs/configuration.md").read_text(encoding="utf-8")
    planted = page.replace("<!-- variables:start -->\n", "<!-- variables:start -->\n| `CURSOR_PLANTED` | 1 | x |\n")
    assert planted != page and render(planted) == page


def test_the_quick_start_is_exactly_the_two_commands_the_makefile_provides() -> None:
    """Issue 2: a newcomer runs the demo and the tests with two commands."""
    quick_start = README.read_text().split("## Quick start", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"^(make \w+)$", quick_start, re.MULTILINE)
    assert commands == ["make demo", "make test"]
    makefile = (README.parent / "Makefile").read_text()
    assert re.search(r"^demo:", makefile, re.MULTILINE) and re.search(r"^test:", makefile, re.MULTILINE)


def test_the_readme_is_at_most_three_hundred_lines() -> None:
    """Issue 45: the README is a front door (what it is, two commands, install, the loop, safety, links)."""
    lines = len(README.read_text(encoding="utf-8").splitlines())
    assert lines <= MOST_LINES, f"README.md has {lines} lines: move the detail into docs/"


def architecture(text: str) -> str:
    return text.split("## Architecture", 1)[1].split("\n## ", 1)[0]


def test_the_readme_architecture_names_each_package_folder_and_only_paths_that_exist() -> None:
    """Issue 45: the README's architecture table is checked against the files: every path it names exists, and
    every package folder of `src/cursor_cloud_agents/` has its row (the old tree named files that had moved)."""
    section = architecture(README.read_text(encoding="utf-8"))
    assert missing(section) == []
    rows = set(re.findall(r"^\| `([\w/]+/)` \|", section, re.MULTILINE))
    folders = {f"{path.name}/" for path in PACKAGE.iterdir() if (path / "__init__.py").is_file()}
    assert rows == folders
    assert len(named_paths(section)) >= len(folders)


def test_the_architecture_check_sees_a_moved_folder() -> None:
    """The check above can fail: a row naming a folder that does not exist is found."""
    assert missing("| `core/money/` | the paid acts |") == ["core/money/"]


@pytest.mark.parametrize(
    "page",
    [
        "README.md",
        "docs/configuration.md",
        "docs/development.md",
        "docs/simulated.md",
        "docs/sdk.md",
        "docs/terminal.md",
        "docs/tools.md",
    ],
)
def test_every_path_the_readme_and_its_pages_name_exists(page: str) -> None:
    """Issue 45: what moved out of the README keeps naming files as they are (the old tree named moved ones)."""
    assert missing((ROOT / page).read_text(encoding="utf-8")) == []
