"""The GitHub token: GH_TOKEN, else GITHUB_TOKEN, else `gh auth token` run without any CURSOR_* variable
(docs/pr-loop.md §1)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.github import GitHubAccessMissing, github_token


def fake_gh(folder: Path, script: str) -> dict[str, str]:
    gh = folder / "gh"
    gh.write_text("#!/bin/sh\n" + script)
    gh.chmod(0o755)
    return {"PATH": str(folder), "CURSOR_API_KEY": "key_secret"}


def test_gh_token_wins_then_github_token() -> None:
    both = Settings.from_env({"GH_TOKEN": "ghp_a", "GITHUB_TOKEN": "ghp_b"})
    second = Settings.from_env({"GITHUB_TOKEN": "ghp_b"})
    assert github_token(both, {}).reveal() == "ghp_a" and github_token(second, {}).reveal() == "ghp_b"


def test_gh_auth_token_is_asked_without_the_cursor_key_g_16(tmp_path: Path) -> None:
    env = fake_gh(tmp_path, 'test -z "$CURSOR_API_KEY" && test "$1 $2" = "auth token" && echo gho_from_gh\n')
    assert github_token(Settings(), env).reveal() == "gho_from_gh"


def test_no_token_anywhere_names_the_three_ways_g_09(tmp_path: Path) -> None:
    failing = fake_gh(tmp_path, "echo 'not logged in' >&2; exit 1\n")
    for env in ({"PATH": str(tmp_path / "empty")}, failing):
        with pytest.raises(GitHubAccessMissing, match="GH_TOKEN.*GITHUB_TOKEN.*gh auth login"):
            github_token(Settings(), env)
