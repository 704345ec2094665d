"""Issue 46: `run` inside a repository defaults `--repo` to its origin, and `git@` URLs are taken (ownrepo.py,
core.creation.https_form)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from cursor_cloud_agents.core import ToolFailure, creation
from cursor_cloud_agents.terminal.ownrepo import Here, no_repository_note, origin_repository


def repository(root: Path, origin: str | None) -> Path:
    env = {"PATH": os.environ.get("PATH", os.defpath), "HOME": str(root), "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(["git", "init", "--quiet", str(root / "r")], env=env, check=True, timeout=60)
    if origin is not None:
        subprocess.run(["git", "-C", str(root / "r"), "remote", "add", "origin", origin], env=env, check=True)
    return root / "r"


@pytest.mark.parametrize(
    ("spelled", "sent"),
    [
        ("git@github.com:acme/service.git", "https://github.com/acme/service"),
        ("ssh://git@github.com/acme/service", "https://github.com/acme/service"),
        ("git@gitlab.com:group/sub/service.git", "https://gitlab.com/group/sub/service"),
        ("https://github.com/acme/service", "https://github.com/acme/service"),
    ],
)
def test_an_ssh_repository_url_is_sent_in_its_https_form_k_18(spelled: str, sent: str) -> None:
    """K-18: `git@github.com:OWNER/REPO.git` (what `git remote -v` shows) is taken, sent as the https URL."""
    assert [spec.url for spec in creation.repos(spelled, None, None)] == [sent]


@pytest.mark.parametrize("spelled", ["git@github.com:acme/../x.git", "git@localhost:acme/service", "git@x:y"])
def test_an_ssh_url_that_is_no_forge_repository_is_still_refused_k_18(spelled: str) -> None:
    """K-18: the https form is judged by the same rule: a path with `..`, a host that is no forge is refused."""
    with pytest.raises(ToolFailure):
        creation.repos(spelled, None, None)


@pytest.mark.parametrize(
    ("origin", "default"),
    [
        ("git@github.com:acme/service.git", "https://github.com/acme/service"),
        ("https://github.com/acme/service", "https://github.com/acme/service"),
        ("/srv/git/service", None),
        ("https://user:token@github.com/acme/service", None),
        (None, None),
    ],
)
def test_run_inside_a_repository_defaults_repo_to_its_origin_k_19(
    tmp_path: Path, origin: str | None, default: str | None
) -> None:
    """K-19: inside a repository, `--repo` defaults to its origin as the API takes it; an origin the API would
    refuse (a local path, a URL with credentials) or none is no default (the agent starts without a repository)."""
    here = repository(tmp_path, origin)
    env = {"PATH": os.environ.get("PATH", os.defpath), "HOME": str(tmp_path), "GIT_CONFIG_NOSYSTEM": "1"}
    assert origin_repository(here, env) == default
    assert origin_repository(tmp_path, env) is None  # not inside a repository


@pytest.mark.parametrize(
    ("origin", "said"),
    [("/srv/git/service", True), ("git@github.com:acme/service.git", False), (None, False)],
    ids=["local path", "github", "none"],
)
def test_run_says_why_its_agent_has_no_repository_when_the_origin_is_not_one_the_api_takes_k_19(
    tmp_path: Path, origin: str | None, said: bool
) -> None:
    """K-19: a clone whose origin is a local path (a fresh clone of a clone) gives no default repository: `run` says
    so and names `--repo`, instead of an agent that silently pushes no branch to diff, check or apply."""
    env = {"PATH": os.environ.get("PATH", os.defpath), "HOME": str(tmp_path), "GIT_CONFIG_NOSYSTEM": "1"}
    here = Here(repository(tmp_path, origin), env)
    note = no_repository_note(here, here.default_repository(None))
    assert (note is not None and "--repo" in note) is said
    assert no_repository_note(here, "https://github.com/acme/given") is None  # --repo given: nothing to say
