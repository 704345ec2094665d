"""Bare git repositories standing in for GitHub: where simulated agents push their branches.

`StandInRemote(folder)` keeps one bare repository per agent repository, at `<folder>/<host>/<owner>/<repo>.git`,
seeded with the small project of `changes.SEED` on `main` the first time it is needed. A run that ends
FINISHED with a branch pushes its change there (`World.remote`): one real commit on the branch the run reports,
starting from the ref the run reports (or from the branch's tip when an earlier run of the agent pushed it).

Git rewrites any `https://` URL into this folder with one setting (`rewrite()`): a clone made with
`git clone -c <key>=<value> https://github.com/your-org/your-repo` has the agent's repository as its
remote, as a real clone would, and fetches from here; nothing reaches a network. Every write is one
`git fast-import` (the seed, each push), so a world's repositories cost a few git processes, not a clone.
"""

from __future__ import annotations

import logging
import re
import shutil
import subprocess
from pathlib import Path

from .changes import SEED, Change, Delete, Rename, Write

logger = logging.getLogger("cursor_cloud_agents.simulator")

COMMIT_TIME = "1759752000 +0000"
"""Every simulated commit is dated 2025-10-06 12:00 UTC: the same world gives the same commit ids."""
AUTHOR = "Cursor Agent <cursor-agent@example.invalid>"
GIT_SECONDS = 60.0
_FULL_SHA = re.compile(r"[0-9a-f]{40}")
_SAFE_PART = re.compile(r"[A-Za-z0-9._-]+")


class StandInRemote:
    """Bare repositories under `folder` standing in for the agents' remotes."""

    def __init__(self, folder: Path, *, git: str | None = None) -> None:
        self.folder = folder.absolute()
        self.git = git or shutil.which("git") or "git"
        self._pushed: set[tuple[Path, str]] = set()
        """(repository, branch) pairs this world pushed: a later run of the agent continues the branch."""

    def rewrite(self) -> tuple[str, str]:
        """The git setting (key, value) that sends every `https://` URL into this folder."""
        return f"url.{self.folder.as_uri()}/.insteadOf", "https://"

    def clone_command(self, repo_url: str = "https://github.com/your-org/your-repo") -> str:
        """The command a person types to clone `repo_url` from here, with that setting kept in the clone."""
        key, value = self.rewrite()
        return f"git clone -c {key}={value} {repo_url}"

    def path_of(self, repo_url: str) -> Path:
        """The bare repository of `repo_url` (`github.com/owner/repo`, with or without a scheme or `.git`)."""
        parts = repo_url.split("://", 1)[-1].removesuffix(".git").strip("/").split("/")
        if len(parts) < 2 or not all(_SAFE_PART.fullmatch(part) and part not in (".", "..") for part in parts):
            raise ValueError(f"not a repository URL the stand-in remote takes: {repo_url!r}")
        *folders, name = parts
        return self.folder.joinpath(*folders, f"{name}.git")

    def ensure(self, repo_url: str) -> Path:
        """The bare repository of `repo_url`, made and seeded with `changes.SEED` on `main` if it is missing."""
        path = self.path_of(repo_url)
        if not (path / "HEAD").exists():
            path.mkdir(parents=True, exist_ok=True)
            self._git(path, "init", "--quiet", "--bare", "--initial-branch=main")
            self._import(path, "refs/heads/main", None, [Write(name, data) for name, data in SEED.items()], "Seed")
        return path

    def push(self, repo_url: str, branch: str, starting_ref: str, change: Change, message: str) -> None:
        """Commit `change` on `branch`: from its tip if this world pushed it before, else from `starting_ref`."""
        path = self.ensure(repo_url)
        if (path, branch) in self._pushed:
            parent = f"refs/heads/{branch}^0"
        elif _FULL_SHA.fullmatch(starting_ref):
            parent = starting_ref
        else:
            parent = f"refs/heads/{starting_ref}^0"
        self._import(path, f"refs/heads/{branch}", parent, list(change.operations), message)
        self._pushed.add((path, branch))

    def _import(
        self, path: Path, ref: str, parent: str | None, operations: list[Write | Delete | Rename], message: str
    ) -> None:
        text = message.encode()
        stream = bytearray(b"commit %s\n" % ref.encode())
        stream += b"author %s %s\ncommitter %s %s\n" % (
            AUTHOR.encode(),
            COMMIT_TIME.encode(),
            AUTHOR.encode(),
            COMMIT_TIME.encode(),
        )
        stream += b"data %d\n%s\n" % (len(text), text)
        if parent is not None:
            stream += b"from %s\n" % parent.encode()
        for operation in operations:
            stream += _operation(operation)
        stream += b"\n"
        self._git(path, "fast-import", "--quiet", "--force", stdin=bytes(stream))

    def _git(self, path: Path, *args: str, stdin: bytes | None = None) -> None:
        done = subprocess.run(
            [self.git, *args],
            cwd=path,
            input=stdin if stdin is not None else b"",
            capture_output=True,
            timeout=GIT_SECONDS,
            check=False,
            env=_git_env(),
        )
        if done.returncode != 0:
            raise RuntimeError(
                f"git {args[0]} in {path} exited {done.returncode}: {done.stderr.decode(errors='replace')}"
            )


def _operation(operation: Write | Delete | Rename) -> bytes:
    if isinstance(operation, Write):
        return b"M 100644 inline %s\ndata %d\n%s\n" % (
            operation.path.encode(),
            len(operation.content),
            operation.content,
        )
    if isinstance(operation, Delete):
        return b"D %s\n" % operation.path.encode()
    return b"R %s %s\n" % (operation.old.encode(), operation.new.encode())


def _git_env() -> dict[str, str]:
    # No user or system configuration (hooks, signing, templates): the stand-in is the same on every machine.
    return {
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": "/dev/null",
        "HOME": "/nonexistent",
        "PATH": "/usr/bin:/bin",
    }
