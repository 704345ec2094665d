"""Rewrite the generated sections of the README and the docs (registrations, variables, tools) from the code."""

from __future__ import annotations

from devkit.readme import PAGES, ROOT, render

if __name__ == "__main__":
    for page in PAGES:
        path = ROOT / page
        path.write_text(render(path.read_text(encoding="utf-8")), encoding="utf-8")
