"""Where a check runs: a throwaway clone of the agent's commit, its own home, and an environment built from an
allow-list, all in one temporary folder removed afterwards.

The clone is `git clone --shared --no-checkout` of the person's repository, then a checkout of the commit: it
has its own `.git` (its own config, hooks, index, refs), and borrows the person's objects read-only through
`objects/info/alternates` (git never writes into an alternate: new objects, `gc`, `repack` and `prune` all act
on the clone's own store). Measured on a 115 MiB repository (docs/reliability.md §2.25): as fast as the
worktree it replaces, where a hardlinked local clone would hand the agent's code the person's own pack files
(same inodes: a write to the clone's pack is a write to the person's) and a copied or shallow clone costs
2-5 times as much.

Our own git calls here run with no global or system config or attributes (`GIT_CONFIG_GLOBAL=/dev/null`,
`GIT_CONFIG_NOSYSTEM`, `GIT_ATTR_NOSYSTEM`, HOME the throwaway one), hooks off (`core.hooksPath=/dev/null`), no
fsmonitor and no submodule recursion: a `.gitattributes` in the agent's tree can only name filter or diff drivers
that are defined nowhere, so checkout runs none; a `.gitmodules` is a file like any other.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import anyio

from cursor_cloud_agents.core.failures import Code, ToolFailure
from cursor_cloud_agents.core.review.git import Git, GitError

PASSED_THROUGH = ("PATH", "LANG", "TZ", "TERM")
"""What the check's environment takes from the process's own, whatever the person lists."""
OWN = ("HOME", "TMPDIR")
"""What the check's environment always sets to its throwaway folders (a listed HOME is refused by the settings)."""
QUIET_GIT = (
    "-c",
    "core.hooksPath=/dev/null",
    "-c",
    "core.fsmonitor=false",
    "-c",
    "submodule.recurse=false",
    "-c",
    "advice.detachedHead=false",
)
"""Options of every git call that makes the throwaway clone: no hook, no fsmonitor daemon, no submodule."""


@dataclass(frozen=True)
class CheckFolder:
    """The throwaway folder of one check and what is in it."""

    root: Path
    tree: Path
    """The clone's work tree, the command's working directory."""
    home: Path
    tmp: Path
    output: Path
    """The command's standard output and error, appended to as it runs."""

    @classmethod
    def make(cls) -> CheckFolder:
        root = Path(tempfile.mkdtemp(prefix="agent-check-")).resolve()
        place = cls(root, root / "tree", root / "home", root / "tmp", root / "output")
        for folder in (place.home, place.tmp):
            folder.mkdir(mode=0o700)
        place.output.touch(mode=0o600)
        return place


def check_environment(env: Mapping[str, str], listed: Sequence[str], place: CheckFolder) -> dict[str, str]:
    """The check command's whole environment: PATH, LANG, TZ, TERM and the `listed` names the process has, HOME
    and TMPDIR in the throwaway folder; never a `CURSOR_*` variable, even listed."""
    names = [*PASSED_THROUGH, *(name for name in listed if name not in OWN)]
    kept = {name: env[name] for name in names if name in env and not name.upper().startswith("CURSOR_")}
    kept.setdefault("PATH", os.defpath)
    kept["HOME"] = str(place.home)
    kept["TMPDIR"] = str(place.tmp)
    return kept


def quiet_git_environment(env: Mapping[str, str], place: CheckFolder) -> dict[str, str]:
    """The environment of our own git calls on the throwaway clone: none of the person's or the system's
    config or attributes (a filter, an fsmonitor, a credential helper defined there stays out)."""
    return {
        "PATH": env.get("PATH") or os.defpath,
        "HOME": str(place.home),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": "/dev/null",
        "GIT_ATTR_NOSYSTEM": "1",
        "GIT_TERMINAL_PROMPT": "0",
        "LANG": "C",
    }


async def clone_commit(git: Git, commit: str, place: CheckFolder) -> None:
    """Make `place.tree` a clone of `git`'s repository at `commit` (detached), borrowing its objects read-only.

    Raises:
        ToolFailure: the repository cannot be read or the commit is not in it.
    """
    try:
        common = (await git.run("rev-parse", "--path-format=absolute", "--git-common-dir")).strip()
        quiet = Git(place.root, quiet_git_environment(git.env, place), git.program)
        await quiet.run(
            *QUIET_GIT, "clone", "--quiet", "--no-checkout", "--shared", "--template=", "--", common, "tree"
        )
        await quiet.at(place.tree).run(*QUIET_GIT, "checkout", "--quiet", "--detach", commit, "--")
    except GitError as exc:
        raise ToolFailure(
            Code.UPSTREAM, f"A throwaway clone at {commit[:12]} cannot be made: {exc.stderr.strip()[:300]}"
        ) from None


async def remove(place: CheckFolder) -> None:
    """Remove the throwaway folder, whatever the check left in it (read-only folders included)."""
    await anyio.to_thread.run_sync(_remove, place.root)


def _remove(root: Path) -> None:
    def writable_then_retry(function: Callable[[str], object], path: str, _excinfo: object) -> None:
        # A folder the check made read-only refuses the removal of what is in it: make it ours again (never
        # through a link: every process of the check is dead by now, and rmtree follows none).
        parent = os.path.dirname(path)
        if os.path.islink(parent):
            return
        try:
            os.chmod(parent, stat.S_IRWXU)
            function(path)
        except OSError:
            return

    shutil.rmtree(root, onerror=writable_then_retry)
