"""A hand-made API stand-in and a bare remote, for the tests of bringing an agent's work home (issue 42).

Not the product's simulator: the API is an httpx MockTransport answering `GET /v1/agents/{id}` and
`GET /v1/agents/{id}/runs/{run}` with JSON written here (any branch name, any starting ref, any status), and
the remote is a `git init --bare` folder that `https://github.com/org/repo` is rewritten to by a global git
config of the test's own. The person's clone is made from the remote before any agent pushes, so a read of
a change has something to fetch, and `person_state` is what it must leave byte for byte as it was.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2

from cursor_cloud_agents.api import CursorClient
from cursor_cloud_agents.core.review.changes import GitPlaces
from tests.api.helpers import make_client
from tests.stand_in import git

URL = "https://github.com/org/repo"
REPO = "github.com/org/repo"
AGENT = "bc-00000000-0000-0000-0000-0000000000a1"
RUN = "run-00000000-0000-0000-0000-0000000000a1"


@dataclass
class HandRemote:
    """A bare remote with `main`, a scratch clone that pushes agents' branches, and the person's clone."""

    root: Path
    env: dict[str, str]

    @property
    def bare(self) -> Path:
        return self.root / "remote.git"

    @property
    def person(self) -> Path:
        return self.root / "person"

    def push(self, branch: str, files: dict[str, str], *, start: str = "main", message: str = "Agent") -> str:
        """Commit `files` on `branch` (from `start`) and push it; the commit."""
        scratch = self.root / "scratch"
        git(scratch, "switch", "--quiet", "-C", "work", f"origin/{start}" if start == "main" else start, env=self.env)
        for name, text in files.items():
            (scratch / name).parent.mkdir(parents=True, exist_ok=True)
            (scratch / name).write_text(text)
            git(scratch, "add", "-f", "--", name, env=self.env)
        git(scratch, "commit", "--quiet", "-m", message, env=self.env)
        git(scratch, "push", "--quiet", "--force", "origin", f"HEAD:refs/heads/{branch}", env=self.env)
        return git(scratch, "rev-parse", "HEAD", env=self.env).strip()

    def person_state(self) -> dict[str, object]:
        """Everything of the person's a read, a refused checkout or a refused apply must leave as it was."""
        dot = self.person / ".git"
        files = {
            str(path.relative_to(self.person)): path.read_bytes()
            for path in sorted(self.person.rglob("*"))
            if path.is_file() and ".git" not in path.relative_to(self.person).parts
        }
        return {
            "refs": git(self.person, "for-each-ref", "--format=%(refname) %(objectname)", env=self.env),
            "config": (dot / "config").read_bytes(),
            "fetch_head": (dot / "FETCH_HEAD").read_bytes() if (dot / "FETCH_HEAD").exists() else None,
            "packed_refs": (dot / "packed-refs").read_bytes() if (dot / "packed-refs").exists() else None,
            "head": (dot / "HEAD").read_bytes(),
            "worktrees": git(self.person, "worktree", "list", "--porcelain", env=self.env),
            "index": git(self.person, "ls-files", "-s", env=self.env),
            "files": files,
            "around": sorted(path.name for path in self.root.iterdir()),
        }

    def places(self, *, hosts: tuple[str, ...] = ("github.com",)) -> GitPlaces:
        return GitPlaces(self.env, self.root / "cache", working_dir=None, hosts=hosts)


def make_hand_remote(root: Path) -> HandRemote:
    """The remote with one commit on `main`, and the person's clone of it (origin: the GitHub URL)."""
    root.mkdir(parents=True, exist_ok=True)
    home = root / "home"
    home.mkdir()
    env = {
        "PATH": os.environ.get("PATH", os.defpath),
        "HOME": str(home),
        "GIT_CONFIG_GLOBAL": str(home / ".gitconfig"),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "Person",
        "GIT_AUTHOR_EMAIL": "person@example.invalid",
        "GIT_COMMITTER_NAME": "Person",
        "GIT_COMMITTER_EMAIL": "person@example.invalid",
    }
    remote = HandRemote(root, env)
    git(root, "init", "--quiet", "--bare", "--initial-branch=main", str(remote.bare), env=env)
    settings = f'[url "{remote.bare}"]\n\tinsteadOf = {URL}\n[init]\n\tdefaultBranch = main\n'
    (home / ".gitconfig").write_text(settings + "[advice]\n\tdetachedHead = false\n")
    seed = root / "scratch"
    git(root, "clone", "--quiet", URL, str(seed), env=env)
    (seed / "README.md").write_text("hello\n")
    (seed / ".gitignore").write_text(".env\nbuild/\n")
    git(seed, "add", "README.md", ".gitignore", env=env)
    git(seed, "commit", "--quiet", "-m", "First", env=env)
    git(seed, "push", "--quiet", "origin", "HEAD:refs/heads/main", env=env)
    git(root, "clone", "--quiet", URL, str(remote.person), env=env)
    return remote


@dataclass
class HandApi:
    """Crafted answers of the Cursor API for one agent: its branch, starting ref and run status as given."""

    branch: str | None = "cursor/a"
    starting_ref: str | None = "main"
    status: str = "FINISHED"
    repo_url: str = REPO
    requests: list[str] = field(default_factory=list[str])

    def agent(self) -> dict[str, Any]:
        repo: dict[str, Any] = {"url": self.repo_url}
        if self.starting_ref is not None:
            repo["startingRef"] = self.starting_ref
        return {"id": AGENT, "status": "IDLE", "latestRunId": RUN, "repos": [repo]}

    def run(self) -> dict[str, Any]:
        branches = [{"repoUrl": self.repo_url, "branch": self.branch}] if self.branch is not None else []
        return {"id": RUN, "agentId": AGENT, "status": self.status, "git": {"branches": branches}}

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        self.requests.append(request.url.path)
        if request.url.path == f"/v1/agents/{AGENT}":
            return httpx2.Response(200, json=self.agent())
        if request.url.path == f"/v1/agents/{AGENT}/runs/{RUN}":
            return httpx2.Response(200, json=self.run())
        return httpx2.Response(404, json={"error": {"code": "not_found", "message": "no such thing"}})

    def client(self) -> CursorClient:
        return make_client(self)
