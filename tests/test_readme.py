"""The README stays true: its generated tables match the code, and its quick start is two commands."""

from __future__ import annotations

import re
from pathlib import Path

from devkit.readme import SECTIONS, render

README = Path(__file__).resolve().parent.parent / "README.md"


def test_the_readme_tables_are_generated_from_the_current_code() -> None:
    """Issue 2: the variables table is generated from Settings; run `make readme` when this fails."""
    text = README.read_text()
    for name in SECTIONS:
        assert f"<!-- {name}:start -->" in text, f"README has no generated {name} section"
    assert render(text) == text, "README is stale: run `make readme`"


def test_the_quick_start_is_exactly_the_two_commands_the_makefile_provides() -> None:
    """Issue 2: a newcomer runs the demo and the tests with two commands."""
    quick_start = README.read_text().split("## Quick start", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"^(make \w+)$", quick_start, re.MULTILINE)
    assert commands == ["make demo", "make test"]
    makefile = (README.parent / "Makefile").read_text()
    assert re.search(r"^demo:", makefile, re.MULTILINE) and re.search(r"^test:", makefile, re.MULTILINE)
