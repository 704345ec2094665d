"""Rewrite the package files every client installs (`make plugins`) from `cursor_cloud_agents.cli.plugins`."""

from __future__ import annotations

from pathlib import Path

from cursor_cloud_agents.cli.plugins import rendered

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    for relative, text in rendered().items():
        path = ROOT / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


if __name__ == "__main__":
    main()
