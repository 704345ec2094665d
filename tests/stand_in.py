"""Real git against the simulator's stand-in remote, for the tests of an agent's change (issue 30).

A world's runs push to a `StandInRemote` in a folder the test module shares (one `git init` and a few
`git fast-import`s per folder, not per test); a fresh `StandInRemote` over the same folder per world pushes
identical commits again (fixed dates), so worlds may come and go. Git runs with no user or system
configuration of this machine, and with an identity for the commits `apply` makes.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from cursor_cloud_agents.core.review.changes import AgentBranch, GitPlaces
from cursor_cloud_agents.simulator import AgentRecord, ManualClock, StandInRemote, World, build_scenario

GITHUB_URL = "https://github.com/your-org/your-repo"


def git_env(home: Path) -> dict[str, str]:
    """This machine's PATH, and nothing of its git configuration (a HOME of the test's own)."""
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "Person",
        "GIT_AUTHOR_EMAIL": "person@example.invalid",
        "GIT_COMMITTER_NAME": "Person",
        "GIT_COMMITTER_EMAIL": "person@example.invalid",
    }


def git(cwd: Path, *args: str, env: dict[str, str], check: bool = True) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=60, check=False)
    if check and done.returncode != 0:
        raise AssertionError(f"git {' '.join(args)}: {done.stderr}")
    return done.stdout


@dataclass
class Remote:
    """A folder holding a stand-in remote, a cache folder, and git's environment."""

    root: Path
    env: dict[str, str]

    @property
    def folder(self) -> Path:
        return self.root / "remote"

    def attach(self, world: World) -> World:
        """`world` pushing here (a fresh StandInRemote: its runs start their branches from their starting ref)."""
        world.remote = StandInRemote(self.folder)
        return world

    def places(
        self, *, cache: str = "cache", working_dir: Path | None = None, env: dict[str, str] | None = None
    ) -> GitPlaces:
        """Where the core's git works in these tests: the stand-in remote's rewrite, a cache of the test's."""
        config = (StandInRemote(self.folder).rewrite(),)
        return GitPlaces(self.env if env is None else env, self.root / cache, config, working_dir=working_dir)

    def clone(self, name: str) -> Path:
        """A clone of the stand-in remote as the README makes one: its origin is the GitHub URL."""
        target = self.root / name
        StandInRemote(self.folder).ensure(GITHUB_URL)
        key, value = StandInRemote(self.folder).rewrite()
        git(self.root, "clone", "--quiet", "-c", f"{key}={value}", GITHUB_URL, str(target), env=self.env)
        return target

    def head_of(self, branch: str) -> str:
        """The commit the stand-in remote's `branch` is at (what a review of the change saw)."""
        key, value = StandInRemote(self.folder).rewrite()
        listed = git(self.root, "-c", f"{key}={value}", "ls-remote", GITHUB_URL, f"refs/heads/{branch}", env=self.env)
        return listed.split()[0]


def make_remote(root: Path) -> Remote:
    root.mkdir(parents=True, exist_ok=True)
    (root / "home").mkdir(exist_ok=True)
    return Remote(root, git_env(root / "home"))


def changes_world(remote: Remote) -> World:
    """The `changes` scenario (one finished agent per named change), pushed to `remote`."""
    world = remote.attach(build_scenario("changes", ManualClock()))
    world.push_ended()
    return world


def agent_named(world: World, change: str) -> AgentRecord:
    return next(agent for agent in world.agents.values() if agent.name == f"Make the {change} change")


def target_of(agent: AgentRecord, *, active: bool = False) -> AgentBranch:
    """What the core reads for `agent` (as `changes.target_of` would make it from the API's answers)."""
    branch = agent.branches[0]
    run = agent.runs[-1]
    status = "RUNNING" if active else run.outcome
    return AgentBranch(agent.id, run.id, status, active, branch["repoUrl"], branch["branch"], "main", None)
