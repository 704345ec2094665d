"""`run` inside the person's repository: its `origin` is the default `--repo`, and a simulated run starts from
the person's own commits.

The default: the `origin` remote of the repository the command is typed in, in the form the API takes
(`git@github.com:OWNER/REPO.git` becomes `https://github.com/OWNER/REPO`, `core.creation.https_form`); an
origin the API would refuse (a local path, a URL with credentials) is no default, and the agent starts
without a repository as before.

Simulated, the agents push their branches to the stand-in remote (`simulator.StandInRemote`), which knows
nothing of the person's repository: a branch built on its seed project could be diffed, but never applied
onto the person's work. So before a simulated creation of the person's own repository (the one whose
`origin` is the agent's repository), its commit is pushed into the stand-in remote as the starting ref the
simulator uses (`--ref`, else `main`): the agent's branch then grows from the person's HEAD, and `diff`,
`checkout --check` and `apply` work on the first try. Nothing is copied: the stand-in reads the person's
objects where they are (git's alternates) and only its ref is set, in an instant whatever the repository's
size; no hook of the person's runs, and the person's repository is only read.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import anyio

from cursor_cloud_agents.api import RepoSpec
from cursor_cloud_agents.core import ToolFailure, creation, git_environment, repository_key

GIT_SECONDS = 30.0


@dataclass(frozen=True)
class Here:
    """Where `run` was typed: the folder, and the environment its git runs with."""

    folder: Path
    env: Mapping[str, str]

    def default_repository(self, given: str | None) -> str | None:
        """`--repo` as given, else this repository's `origin` (when the API takes it)."""
        return given if given is not None else origin_repository(self.folder, self.env)

    def origin_not_taken(self) -> str | None:
        """This repository's `origin` when there is one the API would refuse (a local path, a host of its own),
        so that `run` can say why its agent starts without a repository; None otherwise."""
        url = _git(self.folder, git_environment(self.env, interactive=False), "config", "--get", "remote.origin.url")
        return url if url and origin_repository(self.folder, self.env) is None else None


def no_repository_note(here: Here | None, repo: str | None) -> str | None:
    """What `run` says when it was typed in a repository whose `origin` is no repository the API takes: the agent
    starts without one (no branch to diff, check or apply), and `--repo` gives one."""
    if repo is not None or here is None:
        return None
    origin = here.origin_not_taken()
    if origin is None:
        return None
    return (
        "this repository's origin is not a GitHub repository the API takes, so the agent starts without a "
        "repository and pushes no branch; pass --repo https://github.com/OWNER/REPO to work on one"
    )


async def prepare_simulated(simulated: bool, here: Here | None, repos: list[RepoSpec] | None) -> None:
    """Simulated, the person's own repository among `repos` is seeded into the stand-in remote (`seed_stand_in`)."""
    if not simulated or here is None or not repos:
        return
    from cursor_cloud_agents.embedded import simulator_folder, stand_in_remote_folder

    remote = stand_in_remote_folder(simulator_folder())
    await anyio.to_thread.run_sync(seed_stand_in, here.folder, repos, here.env, remote)


_FULL_SHA = re.compile(r"[0-9a-fA-F]{40}")


def _git(here: Path, env: Mapping[str, str], *args: str) -> str | None:
    """Git's answer in `here`, or None when it fails (no git, not a repository, no such setting)."""
    try:
        done = subprocess.run(
            ["git", "-c", "core.hooksPath=/dev/null", *args],
            cwd=here,
            env=dict(env),
            capture_output=True,
            text=True,
            timeout=GIT_SECONDS,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def origin_repository(here: Path, env: Mapping[str, str]) -> str | None:
    """The repository URL of the `origin` remote of the repository `here` is in, as the API takes it; None when
    there is none, or when the API would refuse it."""
    url = _git(here, git_environment(env, interactive=False), "config", "--get", "remote.origin.url")
    if not url:
        return None
    try:
        return creation.repository_url(creation.https_form(url))
    except ToolFailure:
        return None


def seed_stand_in(here: Path, repos: list[RepoSpec], env: Mapping[str, str], remote_folder: Path) -> list[str]:
    """Set the person's commit as the starting ref in the stand-in remote of `remote_folder`, for each repository
    of `repos` that is the `origin` of the repository `here` is in; the refs set (none when it is not theirs)."""
    from cursor_cloud_agents.simulator import StandInRemote

    git_env = git_environment(env, interactive=False)
    origin = _git(here, git_env, "config", "--get", "remote.origin.url")
    if not origin:
        return []
    pushed: list[str] = []
    for repo in repos:
        if repository_key(creation.https_form(origin)) != repository_key(repo.url):
            continue
        bare = StandInRemote(remote_folder).ensure(repo.url)
        source, target = _refs(here, git_env, repo.starting_ref)
        commit = None if source is None else _git(here, git_env, "rev-parse", "--verify", f"{source}^{{commit}}")
        if commit and _borrow_objects(here, git_env, bare):
            if _git(here, git_env, f"--git-dir={bare}", "update-ref", target, commit) is not None:
                pushed.append(target)
    return pushed


def _borrow_objects(here: Path, env: Mapping[str, str], bare: Path) -> bool:
    """Let the stand-in read the person's objects where they are (git's alternates), instead of a push that would
    copy a large repository's whole history into the simulator's folder: the ref is then set in an instant."""
    common = _git(here, env, "rev-parse", "--path-format=absolute", "--git-common-dir")
    if not common:
        return False
    objects = str(Path(common) / "objects")
    alternates = bare / "objects" / "info" / "alternates"
    try:
        known = alternates.read_text().splitlines() if alternates.exists() else []
        if objects not in known:
            alternates.parent.mkdir(parents=True, exist_ok=True)
            alternates.write_text("".join(f"{line}\n" for line in [*known, objects]))
    except OSError:
        return False
    return True


def _refs(here: Path, env: Mapping[str, str], ref: str | None) -> tuple[str | None, str]:
    """What of the person's to push, and where in the stand-in: HEAD as `main` (the simulator's starting ref
    without `--ref`), the local branch `--ref` names, or the commit a full SHA names."""
    if ref is None:
        return "HEAD", "refs/heads/main"
    if _FULL_SHA.fullmatch(ref):
        return ref, f"refs/seeded/{ref}"
    local = _git(here, env, "rev-parse", "--verify", "--quiet", f"refs/heads/{ref}^{{commit}}")
    return (f"refs/heads/{ref}" if local else None), f"refs/heads/{ref}"
