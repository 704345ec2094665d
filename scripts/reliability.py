"""The reliability catalogue as tests: each case of docs/reliability.md §2 and the tests that name it.

A test names a case in its name or its docstring (`F-14`, `SL-01`, ...). The table printed here lists
every case with its tests, or with the reason it has none (`tests/reliability.json`, "reasons"), or as
missing. `tests/reliability.json` also holds "covered", the cases that had a test when it was last
written: the script fails (exit 1) when one of them has lost it, so CI catches a case losing its test.
`--write` records the cases covered now.

Run: `make reliability` (or `.venv/bin/python scripts/reliability.py [--write]`)
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = ROOT / "docs" / "reliability.md"
RECORD = ROOT / "tests" / "reliability.json"
CASE_ROW = re.compile(r"^\| ((?:F|S|B|SL|D|P|R|L|H|G|I|K|N)-\d{2}) \|", re.MULTILINE)
CASE_NAME = re.compile(r"\b((?:F|S|B|SL|D|P|R|L|H|G|I|K|N)-\d{2})\b")


def cases() -> list[str]:
    """The case ids of the catalogue, in its order."""
    return CASE_ROW.findall(CATALOGUE.read_text(encoding="utf-8"))


def tests_naming_cases() -> dict[str, list[str]]:
    """Case id -> the tests (path::name) whose name or docstring names it."""
    found: dict[str, list[str]] = defaultdict(list)
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test"):
                text = node.name.replace("_", "-").upper() + " " + (ast.get_docstring(node) or "")
                for case in sorted(set(CASE_NAME.findall(text))):
                    found[case].append(f"{path.relative_to(ROOT)}::{node.name}")
    return found


def main(write: bool) -> int:
    if not CATALOGUE.exists():
        sys.stdout.write(f"reliability catalogue not found at {CATALOGUE}\n")
        return 1
    record = json.loads(RECORD.read_text(encoding="utf-8")) if RECORD.exists() else {"covered": [], "reasons": {}}
    named = tests_naming_cases()
    reasons: dict[str, str] = record.get("reasons", {})
    rows = []
    for case in cases():
        tests = named.get(case, [])
        state = "tested" if tests else ("reason" if case in reasons else "MISSING")
        detail = (
            ", ".join(tests[:3]) + (f" (+{len(tests) - 3})" if len(tests) > 3 else "")
            if tests
            else reasons.get(case, "")
        )
        rows.append((case, state, detail))
    for case, state, detail in rows:
        sys.stdout.write(f"{case:6} {state:8} {detail}\n")
    counts = {state: sum(1 for _, s, _ in rows if s == state) for state in ("tested", "reason", "MISSING")}
    sys.stdout.write(
        f"{len(rows)} cases: {counts['tested']} tested, {counts['reason']} with a reason, {counts['MISSING']} missing\n"
    )
    lost = [case for case in record.get("covered", []) if case not in named]
    if write:
        record["covered"] = sorted(named)
        RECORD.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    if lost:
        sys.stdout.write(f"cases that lost their test: {', '.join(lost)}\n")
        return 1
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", action="store_true", help="record the cases covered now")
    sys.exit(main(parser.parse_args().write))
