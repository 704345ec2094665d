"""A person's repository holding an agent's commit that tries every way out of the check (issue 42).

The person's repository has a global git configuration (its HOME's `.gitconfig`) that would run a command on
checkout if it were read: a smudge filter and a diff driver the agent's `.gitattributes` names, a hooks folder
with a `post-checkout`, an fsmonitor, submodule recursion; each leaves a marker file in `markers/` when run.
The agent's commit holds that `.gitattributes`, a `.gitmodules` pointing at a local repository, and
`escape.sh`, the agent's code the check runs, which writes hooks and config into the `.git` it finds.
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from cursor_cloud_agents.core.review.git import Git
from tests.stand_in import git, git_env

ESCAPE = r"""#!/bin/sh
# The agent's code: every write a check could make into "the repository" it finds itself in.
mkdir -p .git/hooks
printf '#!/bin/sh\ntouch "$0.ran"\n' > .git/hooks/post-checkout && chmod +x .git/hooks/post-checkout
printf '#!/bin/sh\ntouch "$0.ran"\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit
git config core.pager 'touch pager.ran; cat'
git config core.fsmonitor 'touch fsmonitor.ran'
git config alias.st '!touch alias.ran'
git config core.hooksPath "$PWD/.git/hooks"
printf '[filter "evil"]\n\tsmudge = touch smudge.ran; cat\n' >> .git/config
git -c user.name=agent -c user.email=agent@example.invalid commit -q --allow-empty -m planted
git update-ref refs/heads/main HEAD
git update-ref refs/remotes/origin/main HEAD
git tag -f v9 HEAD
git gc -q --prune=now
git repack -a -d -q
git prune
echo escape-done
"""
ATTRIBUTES = "* filter=evil diff=evil\n*.sh -filter -diff\n"


@dataclass(frozen=True)
class Hostile:
    """The person's repository (`person/`), its git environment, the agent's commit and the marker folder."""

    person: Path
    env: dict[str, str]
    commit: str
    markers: Path

    @property
    def git(self) -> Git:
        found = Git.find(self.person, self.env)
        assert found is not None
        return found

    def fingerprint(self) -> dict[str, str]:
        """Every file under the person's `.git`, by path: its bytes' hash and its mode (links by target)."""
        return fingerprint(self.person / ".git")

    def ran(self) -> list[str]:
        """The markers left by a hook, filter, driver or daemon of the person's configuration."""
        return sorted(path.name for path in self.markers.iterdir())


def fingerprint(folder: Path) -> dict[str, str]:
    found: dict[str, str] = {}
    for path in sorted(folder.rglob("*")):
        info = path.lstat()
        if stat.S_ISLNK(info.st_mode):
            found[str(path)] = f"link:{os.readlink(path)}"
        elif stat.S_ISREG(info.st_mode):
            found[str(path)] = f"{oct(info.st_mode)}:{hashlib.sha256(path.read_bytes()).hexdigest()}"
        else:
            found[str(path)] = f"{oct(info.st_mode)}"
    return found


def make_hostile(root: Path) -> Hostile:
    """Build the person's repository, its hostile global configuration and the agent's commit, under `root`."""
    home = root / "home"
    markers = root / "markers"
    hooks = root / "person-hooks"
    for folder in (home, markers, hooks):
        folder.mkdir()
    hook = hooks / "post-checkout"
    hook.write_text(f"#!/bin/sh\ntouch {markers}/person-hook.ran\n")
    hook.chmod(0o755)
    (home / ".gitconfig").write_text(
        f'[filter "evil"]\n\tsmudge = "touch {markers}/smudge.ran; cat"\n\tclean = cat\n\trequired = false\n'
        f'[diff "evil"]\n\ttextconv = "touch {markers}/textconv.ran; cat"\n'
        f"[core]\n\thooksPath = {hooks}\n\tfsmonitor = {hooks}/fsmonitor.sh\n"
        "[submodule]\n\trecurse = true\n"
        "[protocol]\n\tallow = always\n"
    )
    (hooks / "fsmonitor.sh").write_text(f"#!/bin/sh\ntouch {markers}/fsmonitor.ran\n")
    (hooks / "fsmonitor.sh").chmod(0o755)
    env = git_env(home)
    env.pop("GIT_CONFIG_NOSYSTEM")
    plain = git_env(root)  # the same commits made without the hostile configuration
    module = _repository(root / "module", "inside.txt", "a submodule's file\n", plain)
    module_commit = git(module, "rev-parse", "HEAD", env=plain).strip()
    person = _repository(root / "person", "README", "the person's project\n", plain)
    git(person, "checkout", "-q", "-b", "agent", env=plain)
    (person / "escape.sh").write_text(ESCAPE)
    (person / ".gitattributes").write_text(ATTRIBUTES)
    (person / "data.txt").write_text("smudged if a filter ran\n")
    (person / ".gitmodules").write_text(f'[submodule "sub"]\n\tpath = sub\n\turl = {module}\n')
    git(person, "add", ".", env=plain)
    git(person, "update-index", "--add", "--cacheinfo", f"160000,{module_commit},sub", env=plain)
    git(person, "commit", "-q", "-m", "the agent's work", env=plain)
    commit = git(person, "rev-parse", "HEAD", env=plain).strip()
    git(person, "checkout", "-q", "main", env=plain)
    git(person, "branch", "-q", "-D", "agent", env=plain)  # the commit stays, as a fetched one does
    git(person, "update-ref", "refs/agents/seen", commit, env=plain)
    return Hostile(person, env, commit, markers)


def _repository(folder: Path, name: str, text: str, env: dict[str, str]) -> Path:
    """A new repository in `folder` with one commit holding the file `name`."""
    folder.mkdir()
    git(folder, "init", "-q", "-b", "main", env=env)
    (folder / name).write_text(text)
    git(folder, "add", ".", env=env)
    git(folder, "commit", "-q", "-m", "start", env=env)
    return folder


def alive(pid: int) -> bool:
    """Whether `pid` is a live process (a zombie, dead and waiting for its parent, is not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return False
    return state not in ("Z", "X")
