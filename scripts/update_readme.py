"""Rewrite the README's generated sections (the variables and tools tables) from the code."""

from __future__ import annotations

from pathlib import Path

from devkit.readme import render

README = Path(__file__).resolve().parent.parent / "README.md"

if __name__ == "__main__":
    README.write_text(render(README.read_text()))
