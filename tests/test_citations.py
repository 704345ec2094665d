"""Every citation names something the repository holds (docs/architecture.md §2: the project stands on its own).

A clone is all a contributor has: a citation of the workshop notes beside our checkout, of a section a
document does not have, of a quirk number or a reliability case that does not exist, cannot be
followed. The checks are pure functions over text, proved on planted bad citations, then run over the
tracked files.
"""

from __future__ import annotations

import re
import subprocess
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ("src", "tests", "scripts", ".ci", "bench", "docs", "README.md", "Makefile", "pyproject.toml")
DATA = (".json", ".sse", ".jsonl", ".lock")
THIS = Path(__file__).resolve()

# The notes the docs were written from live beside the repository, not in it: never cite them.
WORKSHOP = re.compile(r"(?<![\w-])shared[/]|\b(?:CONTRACT|RELIABILITY|ARCHITECTURE|STYLE|MCP-SDK-AND-CLIENTS)\.md\b")
# `docs/api-contract.md §3.6`, and the sections chained after it: `§1, §3.3 and §3.6`, `§3.6 / §2a`.
SECTION_CITATION = re.compile(r"([\w./-]+\.md)`?((?:(?:\s*,\s*|\s+and\s+|\s*/\s*|\s+)§[0-9][0-9a-z]*(?:\.[0-9]+)*)+)")
SECTION = re.compile(r"§([0-9][0-9a-z]*(?:\.[0-9]+)*)")
QUIRK_CITATION = re.compile(r"api-contract\.md`?,?\s+(?:§[0-9.a-z]+,?\s+)?quirks?\s+((?:\d+(?:,\s*|\s+and\s+)?)+)")
DOC_FILE = re.compile(r"(?<![\w/.-])(docs/[\w-]+\.md)\b")
CASE = re.compile(r"(?<![\w-])((?:F|S|B|SL|D|P|R|L|H|G|I|K|N)-\d{2})(?!\w)")
HEADING = re.compile(r"^#{1,6}\s+([0-9][0-9a-z]*(?:\.[0-9]+)*)\.?\s", re.MULTILINE)
QUIRK_ROW = re.compile(r"^\| (\d+) \|", re.MULTILINE)
CASE_ROW = re.compile(r"^\| ((?:F|S|B|SL|D|P|R|L|H|G|I|K|N)-\d{2}) \|", re.MULTILINE)

# Written on another branch at the same time (issue 20); it lands with that branch.
PENDING: frozenset[str] = frozenset()


@cache
def sections(document: str) -> frozenset[str]:
    """The numbered headings of a document of the repository (`3.11`, `2a`, `1.12`)."""
    return frozenset(HEADING.findall((ROOT / document).read_text(encoding="utf-8")))


@cache
def quirks() -> frozenset[str]:
    text = (ROOT / "docs/api-contract.md").read_text(encoding="utf-8")
    return frozenset(QUIRK_ROW.findall(text.split("## 5.", 1)[1].split("\n## ", 1)[0]))


@cache
def cases() -> frozenset[str]:
    return frozenset(CASE_ROW.findall((ROOT / "docs/reliability.md").read_text(encoding="utf-8")))


def exists(document: str) -> bool:
    return (ROOT / document).is_file()


def problems(text: str) -> list[str]:
    """What in `text` cannot be followed inside the repository, one line each."""
    found = [f"cites the workshop notes: {m.group(0)!r}" for m in WORKSHOP.finditer(text)]
    for m in SECTION_CITATION.finditer(text):
        document = m.group(1)
        if document in PENDING:
            found.append(f"cites a section of {document}, which is still being written")
        elif not exists(document):
            found.append(f"cites {document}, which the repository does not hold")
        else:
            missing = [s for s in SECTION.findall(m.group(2)) if s not in sections(document)]
            found += [f"cites {document} §{s}: no such heading" for s in missing]
    for m in DOC_FILE.finditer(text):
        if m.group(1) not in PENDING and not exists(m.group(1)):
            found.append(f"cites {m.group(1)}, which the repository does not hold")
    for m in QUIRK_CITATION.finditer(text):
        unknown = [n for n in re.findall(r"\d+", m.group(1)) if n not in quirks()]
        found += [f"cites quirk {n}: not in docs/api-contract.md §5" for n in unknown]
    strangers = [m.group(1) for m in CASE.finditer(text) if m.group(1) not in cases()]
    found += [f"names case {case}: not in docs/reliability.md" for case in strangers]
    return found


def tracked() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", *SCANNED], cwd=ROOT, capture_output=True, text=True, check=True)
    paths = [ROOT / name for name in listed.stdout.split()]
    return [p for p in paths if p.is_file() and p.suffix not in DATA and p.resolve() != THIS]


@pytest.mark.parametrize(
    ("planted", "complaint"),
    [
        ("see ../shared" + "/design/RELIABILITY.md", "workshop"),  # split: the repository holds no such path
        ("(CONTRACT.md §3.11)", "workshop"),
        ("docs/api-contract.md §3.99: no such endpoint", "§3.99"),
        ("docs/api-contract.md §1, §3.3, §9.9", "§9.9"),
        ("docs/reliability.md §2.77", "§2.77"),
        ("docs/missing.md §1", "does not hold"),
        ("as docs/gone.md says", "does not hold"),
        ("docs/api-contract.md quirk 99", "quirk 99"),
        ("docs/reliability.md F-99: a case nobody wrote", "F-99"),
        ("reliability SL-42", "SL-42"),
    ],
)
def test_a_planted_bad_citation_is_caught(planted: str, complaint: str) -> None:
    """Each kind of citation that cannot be followed is named, with what is wrong."""
    found = problems(f'"""A docstring.\n\n{planted}\n"""')
    assert found and any(complaint in line for line in found), found


def test_good_citations_of_each_kind_pass() -> None:
    """Sections (chained too), quirks, case ids in either form, and a bare document name resolve."""
    text = (
        "docs/api-contract.md §1, §3.3 and §3.6; docs/api-contract.md §2a / §3.17; docs/api-contract.md\n"
        "§3.11; docs/api-contract.md quirk 16; docs/reliability.md §1.12; docs/reliability.md F-20;\n"
        "reliability SL-02; F-01..F-04; docs/architecture.md §3; docs/architecture.md; mcp.shared.memory"
    )
    assert problems(text) == []


def test_every_citation_in_the_repository_resolves_inside_it() -> None:
    """No path into the notes beside the repository; every `X.md §N`, quirk and case id cited exists."""
    found = [f"{path.relative_to(ROOT)}: {line}" for path in tracked() for line in problems(path.read_text("utf-8"))]
    assert found == []


def test_the_scan_reads_the_places_that_cite() -> None:
    """The scan covers code, tests, scripts, CI and the README (an empty scan would pass anything)."""
    names = {str(path.relative_to(ROOT)) for path in tracked()}
    assert {
        "README.md",
        ".ci/run",
        "scripts/reliability.py",
        "src/cursor_cloud_agents/server/pipeline/toolkit.py",
    } <= names
    assert any(name.startswith("tests/") for name in names)
