"""Git as a subprocess, for `checkout`: argument lists (never a shell), and an environment without the Cursor key.

Every call is `git <args>` with `cwd` set, standard input closed and an environment the dispatcher built from
the process's own minus every `CURSOR_*` variable (`git_environment`): git runs hooks, credential helpers and
ssh, none of which has any business with the Cursor key. Names that come from an agent (its branch) are
checked by `branch_problem` before they reach an argument list, and are always given after a `--` or inside
`refs/heads/...`, so not even a name starting with `-` could be read as an option.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import anyio

from cursor_cloud_agents.core.timing import GIT_SECONDS

MAX_BRANCH_CHARS = 200
_FORBIDDEN_IN_REF = re.compile(r"[\x00-\x20\x7f~^:?*\[\\]|\.\.|@\{|//")
"""What git refuses in a ref name (check-ref-format), and whitespace, which it allows but no agent needs."""
_SCP_LIKE = re.compile(r"^(?:[^@/]+@)?(?P<host>[^:/]+):(?P<path>[^/].*)$")


class GitError(Exception):
    """A git command failed; `stderr` says why in git's words."""

    def __init__(self, args: tuple[str, ...], code: int, stderr: str) -> None:
        super().__init__(f"git {' '.join(args)} exited {code}: {stderr.strip()}")
        self.code = code
        self.stderr = stderr


def git_environment(env: Mapping[str, str], *, interactive: bool) -> dict[str, str]:
    """`env` without any `CURSOR_*` variable (the key, the base URL, the team id...); without a terminal to ask
    on, git is told not to prompt for credentials (a prompt would hang a background shell)."""
    kept = {name: value for name, value in env.items() if not name.upper().startswith("CURSOR_")}
    return kept if interactive else kept | {"GIT_TERMINAL_PROMPT": "0"}


def branch_problem(name: str) -> str | None:
    """Why `name` (an agent's branch) may not be checked out, or None: the rules of `git check-ref-format`
    for a branch, plus no whitespace, no leading `-` and a bounded length."""
    if not name or len(name) > MAX_BRANCH_CHARS:
        return f"it is empty or longer than {MAX_BRANCH_CHARS} characters"
    if name.startswith(("-", "/")) or name.endswith(("/", ".", ".lock")) or name == "@":
        return "it starts with '-' or '/', or ends with '/', '.' or '.lock'"
    if _FORBIDDEN_IN_REF.search(name):
        return "it holds a space, a control character, '..', '@{', '//' or one of ~ ^ : ? * [ \\"
    if any(part.startswith(".") or part.endswith(".lock") for part in name.split("/")):
        return "a part of it starts with '.' or ends with '.lock'"
    return None


def repository_key(url: str) -> str:
    """`host/owner/repo`, lowercased, for any spelling of a repository's URL: https with or without `.git` or a
    user, ssh, scp-like `git@host:owner/repo.git`, or the API's scheme-less `github.com/owner/repo`."""
    text = url.strip()
    scp = _SCP_LIKE.match(text) if "://" not in text else None
    if scp is not None and "." in scp["host"]:
        host, path = scp["host"], scp["path"]
    else:
        parts = urlsplit(text if "://" in text else f"https://{text}")
        host, path = parts.hostname or "", parts.path
    return f"{host}/{path.strip('/').removesuffix('.git')}".lower()


@dataclass(frozen=True)
class Git:
    """Git in one folder, with its environment."""

    cwd: Path
    env: Mapping[str, str]
    program: str

    @classmethod
    def find(cls, cwd: Path, env: Mapping[str, str]) -> Git | None:
        """Git on `env`'s PATH, working in `cwd`; None when there is no git."""
        program = shutil.which("git", path=env.get("PATH"))
        return None if program is None else cls(cwd, env, program)

    def at(self, cwd: Path) -> Git:
        """The same git, working in `cwd`."""
        return Git(cwd, self.env, self.program)

    async def run(self, *args: str) -> str:
        """Run `git args...`; its standard output.

        Raises:
            GitError: git exited with a failure.
        """
        with anyio.fail_after(GIT_SECONDS):
            done = await anyio.run_process(
                [self.program, *args], cwd=self.cwd, env=dict(self.env), check=False, stdin=subprocess.DEVNULL
            )
        if done.returncode != 0:
            raise GitError(args, done.returncode, done.stderr.decode(errors="replace"))
        return done.stdout.decode(errors="replace")

    async def succeeds(self, *args: str) -> bool:
        """Whether `git args...` exits 0 (a question asked of git, such as whether a ref exists)."""
        try:
            await self.run(*args)
        except GitError:
            return False
        return True
