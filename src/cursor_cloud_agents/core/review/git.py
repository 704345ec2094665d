"""Git as a subprocess, for every face that brings an agent's work home (`checkout`, `diff`, `apply`, the MCP
changes tools): argument lists (never a shell), and an environment without the Cursor key.

Every call is `git <args>` with `cwd` set, standard input closed and an environment built from the
process's own minus every `CURSOR_*` variable (`git_environment`): git runs hooks, credential helpers and
ssh, none of which has any business with the Cursor key. Names that come from an agent (its branch) are
checked by `core/review/refs.py` before they reach an argument list, and are always given inside `refs/heads/...`
after a `--` or `--end-of-options`: a ref is a value, never git syntax.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import subprocess
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import anyio
import anyio.abc

from cursor_cloud_agents.core.review import refs
from cursor_cloud_agents.core.timing import GIT_SECONDS

_SCP_LIKE = re.compile(r"^(?:[^@/]+@)?(?P<host>[^:/]+):(?P<path>[^/].*)$")


class GitError(Exception):
    """A git command failed; `stderr` says why in git's words."""

    def __init__(self, args: tuple[str, ...], code: int, stderr: str) -> None:
        super().__init__(f"git {' '.join(args)} exited {code}: {stderr.strip()}")
        self.code = code
        self.stderr = stderr


def without_cursor(env: Mapping[str, str]) -> dict[str, str]:
    """`env` without any `CURSOR_*` variable (the key, the base URL, the team id...): what git and a check
    command may see of this process's environment."""
    return {name: value for name, value in env.items() if not name.upper().startswith("CURSOR_")}


def git_environment(
    env: Mapping[str, str], *, interactive: bool, config: Sequence[tuple[str, str]] = ()
) -> dict[str, str]:
    """`env` without any `CURSOR_*` variable; without a terminal to ask on, git is told not to prompt for
    credentials (a prompt would hang a background shell); `config` adds git settings for this process's git
    only (`GIT_CONFIG_COUNT`: simulated mode's stand-in remote), after any the environment already holds."""
    kept = without_cursor(env)
    if not interactive:
        kept["GIT_TERMINAL_PROMPT"] = "0"
    if config:
        start = int(kept.get("GIT_CONFIG_COUNT", "0") or "0") if kept.get("GIT_CONFIG_COUNT", "").isdigit() else 0
        for index, (key, value) in enumerate(config, start=start):
            kept[f"GIT_CONFIG_KEY_{index}"] = key
            kept[f"GIT_CONFIG_VALUE_{index}"] = value
        kept["GIT_CONFIG_COUNT"] = str(start + len(config))
    return kept


def branch_problem(name: str) -> str | None:
    """Why `name` (an agent's branch) may not reach git, or None: `core/review/refs.py`'s one rule."""
    return refs.branch_problem(name)


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
    """Git's environment: never a `CURSOR_*` variable, whatever a caller hands in (removed here, once for all)."""
    program: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "env", without_cursor(self.env))

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

    async def output(self, *args: str, limit: int) -> tuple[bytes, bool]:
        """Run `git args...`; its first `limit` bytes of standard output, and whether there was more (then git
        is stopped: a diff of gigabytes is never held whole).

        Raises:
            GitError: git exited with a failure (not counting the stop).
        """
        with anyio.fail_after(GIT_SECONDS):
            async with await anyio.open_process(
                [self.program, *args], cwd=self.cwd, env=dict(self.env), stdin=subprocess.DEVNULL
            ) as process:
                assert process.stdout is not None and process.stderr is not None
                kept, more = await _read_at_most(process.stdout, limit)
                if more:
                    process.kill()
                errors = await _read_at_most(process.stderr, 64 * 1024)
                code = await process.wait()
        if code != 0 and not more:
            raise GitError(args, code, errors[0].decode(errors="replace"))
        return kept, more

    async def each_chunk(
        self, *args: str, limit: int, chunk_bytes: int, consume: Callable[[bytes], bool]
    ) -> tuple[bool, bool]:
        """Run `git args...`, handing its standard output to `consume` in chunks of about `chunk_bytes` cut after
        a newline (a line longer than four chunks is cut where it stands), never more than `limit` bytes in
        all: a diff of any size is read in bounded memory. `consume` answers False to stop early (git is then
        stopped). Whether the output went past `limit`, and whether `consume` stopped it.

        Raises:
            GitError: git exited with a failure (not counting a stop).
        """
        seen = 0
        stopped = more = False
        with anyio.fail_after(GIT_SECONDS):
            async with await anyio.open_process(
                [self.program, *args], cwd=self.cwd, env=dict(self.env), stdin=subprocess.DEVNULL
            ) as process:
                assert process.stdout is not None and process.stderr is not None
                held = bytearray()
                try:
                    while not stopped:
                        piece = await process.stdout.receive(1 << 16)
                        if seen + len(piece) > limit:
                            piece, more = piece[: limit - seen], True
                        seen += len(piece)
                        held += piece
                        while len(held) >= chunk_bytes and not stopped:
                            cut = held.rfind(b"\n", 0, 4 * chunk_bytes) + 1 or min(len(held), 4 * chunk_bytes)
                            if cut < chunk_bytes and len(held) < 4 * chunk_bytes:
                                break  # a long line: wait for its end (up to four chunks)
                            stopped = not consume(bytes(held[:cut]))
                            del held[:cut]
                        if more:
                            break
                except (anyio.EndOfStream, anyio.BrokenResourceError):
                    pass
                if held and not stopped:
                    stopped = not consume(bytes(held))
                if stopped or more:
                    with contextlib.suppress(ProcessLookupError):  # it may have ended on its own meanwhile
                        process.kill()
                errors = await _read_at_most(process.stderr, 64 * 1024)
                code = await process.wait()
        if code != 0 and not (stopped or more):
            raise GitError(args, code, errors[0].decode(errors="replace"))
        return more, stopped

    async def succeeds(self, *args: str) -> bool:
        """Whether `git args...` exits 0 (a question asked of git, such as whether a ref exists)."""
        try:
            await self.run(*args)
        except GitError:
            return False
        return True


async def _read_at_most(stream: anyio.abc.ByteReceiveStream, limit: int) -> tuple[bytes, bool]:
    """Up to `limit` bytes of `stream`, and whether more came (read until the end otherwise)."""
    kept = bytearray()
    try:
        while len(kept) <= limit:
            kept += await stream.receive(1 << 16)
    except (anyio.EndOfStream, anyio.BrokenResourceError):
        return bytes(kept), False
    return bytes(kept[:limit]), True


async def toplevel(git: Git) -> Path | None:
    """The top folder of the work tree `git` is in, or None when it is in none."""
    try:
        return Path((await git.run("rev-parse", "--show-toplevel")).strip())
    except GitError:
        return None


async def remotes(git: Git) -> dict[str, str]:
    """Each remote's URL as configured (before `url.*.insteadOf` rewrites it: the name the person gave)."""
    try:
        listed = await git.run("config", "--get-regexp", r"^remote\..*\.url$")
    except GitError:
        return {}  # exit 1: no remote at all
    found: dict[str, str] = {}
    for line in listed.splitlines():
        key, _, url = line.partition(" ")
        found[key.removeprefix("remote.").removesuffix(".url")] = url
    return found
