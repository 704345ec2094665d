"""An agent's change, brought home: found in git where the person has it, measured, and its diff read.

What changed is what git says between the ref the agent's run started from and the branch it pushed:
`git diff -M base...head`, the files with their status and line counts, and the unified diff. Git is found
where the person has it (`locate`): a clone among the folders the person shares (the client's roots, the
working directory) whose remote is the agent's repository, else a bare cache under the state folder, fetched
with the person's own git credentials. The Cursor key never reaches git: every variable `CURSOR_*` is
removed from git's environment (`git.git_environment`).

Nothing is left half-made: the only thing written to a person's clone is objects (no ref, no FETCH_HEAD, no
config), and the cache is made whole in a temporary folder before it is renamed into place. The branch name
and the starting ref are agent text and API data: checked (`git.branch_problem`) before they reach git.
"""

from __future__ import annotations

import codecs
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from cursor_cloud_agents.core.advice import Advice, Step, advice
from cursor_cloud_agents.core.failures import Code, ToolFailure
from cursor_cloud_agents.core.network import NETWORK_ADVICE, unreachable
from cursor_cloud_agents.core.review import git as gitlib
from cursor_cloud_agents.core.review import refs
from cursor_cloud_agents.core.review.hosts import refuse_host
from cursor_cloud_agents.core.untrusted import strip_hidden

if TYPE_CHECKING:
    from cursor_cloud_agents.api import Agent, CursorClient, Run

Status = Literal["added", "modified", "renamed", "deleted"]
_STATUS: dict[str, Status] = {
    "A": "added",
    "C": "added",
    "M": "modified",
    "T": "modified",
    "R": "renamed",
    "D": "deleted",
}
_SAFE_PART = re.compile(r"[A-Za-z0-9._-]+")
MAX_DIFF_BYTES = 64 * 1024 * 1024
"""The most of a diff git is asked for (a larger one is cut and said so: ask for a path instead)."""
_DIFF_OPTIONS = ("-M", "--no-color", "--no-ext-diff", "--no-textconv", "--src-prefix=a/", "--dst-prefix=b/")
"""Git's plain unified diff whatever the person's settings (colour, an external diff tool, no prefixes)."""


DEFAULT_GIT_HOSTS = ("github.com",)


@dataclass(frozen=True)
class GitPlaces:
    """Where git work for agents' repositories happens, as the composition root chose it."""

    env: Mapping[str, str]
    """This process's environment; git gets it without any `CURSOR_*` variable."""
    cache_dir: Path
    """Where bare caches of repositories no shared folder holds are kept (under CURSOR_MCP_STATE_DIR)."""
    config: tuple[tuple[str, str], ...] = ()
    """Git settings for this process's git only (simulated mode: the stand-in remote's `insteadOf`)."""
    interactive: bool = False
    """Whether git may prompt for credentials (a terminal); never in the server."""
    working_dir: Path | None = None
    """The working directory, looked in after the client's roots."""
    hosts: tuple[str, ...] = DEFAULT_GIT_HOSTS
    """Hosts the cache may fetch from besides those the person's clones use (CURSOR_MCP_GIT_HOSTS)."""

    def git(self, cwd: Path) -> gitlib.Git | None:
        """Git working in `cwd`, with the environment it may see; None when there is no git on PATH."""
        return gitlib.Git.find(cwd, gitlib.git_environment(self.env, interactive=self.interactive, config=self.config))


@dataclass(frozen=True)
class AgentBranch:
    """The change to read: an agent's branch, where it started, and the run that pushed it."""

    agent_id: str
    run_id: str | None
    run_status: str | None
    run_active: bool
    repo_url: str
    branch: str
    starting_ref: str | None
    pr_url: str | None


@dataclass(frozen=True)
class Place:
    """A git repository holding (or able to fetch) the agent's branch: a person's clone, or the cache."""

    git: gitlib.Git
    remote: str
    """What to fetch from: a remote's name in a clone, the repository's URL in the cache."""
    kind: Literal["clone", "cache"]


@dataclass(frozen=True)
class FileChange:
    """One file of the change: its status, and its lines added and removed (None for a binary file)."""

    path: str
    status: Status
    binary: bool
    additions: int | None
    deletions: int | None
    old_path: str | None = None


@dataclass(frozen=True)
class ChangeSize:
    """How big a change is: files touched, lines added, lines removed (binary files count as files only)."""

    files: int
    additions: int
    deletions: int

    @classmethod
    def of(cls, files: Sequence[FileChange]) -> ChangeSize:
        """The totals of `files`."""
        return cls(len(files), sum(f.additions or 0 for f in files), sum(f.deletions or 0 for f in files))


@dataclass(frozen=True)
class AgentChange:
    """An agent's change as git sees it in `place`: from `base` (where the run started) to `head` (the branch)."""

    target: AgentBranch
    place: Place
    base: str
    head: str
    files: list[FileChange] = field(default_factory=list[FileChange])
    commits: int = 0

    @property
    def size(self) -> ChangeSize:
        """The totals of the change."""
        return ChangeSize.of(self.files)


@dataclass(frozen=True)
class Diff:
    """The unified diff of a change, cleaned: hidden and bidi characters removed (and how many), and whether
    it was cut at `MAX_DIFF_BYTES`."""

    text: str
    hidden_removed: int
    cut: bool


# --- what to read ------------------------------------------------------------------------------------


async def read_target(api: CursorClient, agent_id: str, run_id: str | None) -> AgentBranch:
    """The branch of the agent's run (its latest, or `run_id`), checked before it goes near git.

    Raises:
        ToolFailure: no run, no branch (with the run to wait for when it is still going), a refused name.
    """
    agent = await api.get_agent(agent_id)
    chosen = run_id or agent.latest_run_id
    run = None if chosen is None else await api.get_run(agent_id, chosen)
    return target_of(agent, run)


def target_of(agent: Agent, run: Run | None) -> AgentBranch:
    """The branch `run` reports for `agent` (the first with a name), and the ref it started from."""
    branches = [branch for branch in (run.git.branches if run and run.git else []) if branch.branch]
    if run is None or not branches:
        raise not_pushed(agent.id, run)
    branch = branches[0]
    name = refs.checked_branch(branch.branch)
    key = gitlib.repository_key(branch.repo_url)
    starts = [repo.starting_ref for repo in agent.repos or [] if gitlib.repository_key(repo.url) == key]
    start = refs.checked_start(starts[0]) if starts and starts[0] else None
    return AgentBranch(agent.id, run.id, run.status, not run.is_terminal, branch.repo_url, name, start, branch.pr_url)


def not_pushed(agent_id: str, run: Run | None) -> ToolFailure:
    """The failure for a branch that is not there: the run to wait for, or that it ended without one."""
    if run is None:
        return ToolFailure(Code.NOT_FOUND, f"Agent {agent_id} has no run yet, so no change.", agent_id=agent_id)
    if not run.is_terminal:
        return ToolFailure(
            Code.AGENT_BUSY,
            f"Agent {agent_id} has not pushed its branch yet: run {run.id} is {run.status}.",
            advice=_wait_for(agent_id, run.id),
            agent_id=agent_id,
            run_id=run.id,
            run_status=run.status,
        )
    return ToolFailure(
        Code.NOT_FOUND,
        f"Agent {agent_id}'s run {run.id} ended {run.status} without pushing a branch: there is no change to read.",
        agent_id=agent_id,
        run_id=run.id,
        run_status=run.status,
    )


# --- where git is ------------------------------------------------------------------------------------


def no_git() -> ToolFailure:
    """The failure for a machine without git."""
    return ToolFailure(
        Code.CONFIGURATION,
        "git is not on this machine's PATH (of the process serving this): install git to read an agent's change.",
    )


async def locate(places: GitPlaces, repo_url: str, roots: Sequence[Path] = ()) -> Place:
    """A clone among `roots` (then the working directory) whose remote is `repo_url`, else the cache's
    repository for it (made on first use, whole or not at all).

    Raises:
        ToolFailure: no git on this machine, or the cache cannot be made.
    """
    folders = [*roots, *([places.working_dir] if places.working_dir is not None else [])]
    git = places.git(folders[0] if folders else places.cache_dir)
    if git is None:
        raise no_git()
    key = gitlib.repository_key(repo_url)
    used: set[str] = set()
    for folder in folders:
        if not folder.is_dir():
            continue
        top = await gitlib.toplevel(git.at(folder))
        if top is None:
            continue
        for name, url in (await gitlib.remotes(git.at(top))).items():
            if gitlib.repository_key(url) == key:
                return Place(git.at(top), name, "clone")
            used.add(gitlib.repository_key(url).split("/")[0])
    refuse_host(key.split("/")[0], places.hosts, used)
    return Place(git.at(await _cache(git, places.cache_dir, key)), f"https://{key}", "cache")


async def _cache(git: gitlib.Git, cache_dir: Path, key: str) -> Path:
    """The bare cache of `key` (`host/owner/repo`), made in a temporary folder and renamed into place (another
    process making it at the same moment is fine: the first rename wins, the other folder is dropped)."""
    parts = key.split("/")
    if len(parts) < 2 or not all(_SAFE_PART.fullmatch(part) and part not in (".", "..") for part in parts):
        raise ToolFailure(Code.VALIDATION, f"The agent's repository {key!r} is not a host/owner/repo git can cache.")
    path = cache_dir.joinpath(*parts[:-1], f"{parts[-1]}.git")
    if (path / "HEAD").exists():
        return path
    fresh: Path | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fresh = Path(tempfile.mkdtemp(prefix=".making-", dir=path.parent))
        await git.at(fresh).run("init", "--quiet", "--bare")
        fresh.rename(path)
    except (OSError, gitlib.GitError) as exc:
        if fresh is not None:
            shutil.rmtree(fresh, ignore_errors=True)
        if (path / "HEAD").exists():
            return path  # made meanwhile by another call or process
        raise ToolFailure(
            Code.CONFIGURATION,
            f"The git cache {path} cannot be made ({exc}): make CURSOR_MCP_STATE_DIR writable, or share a clone of "
            "the agent's repository with the client (its roots) or start the server in one.",
        ) from None
    return path


# --- reading the change ------------------------------------------------------------------------------


async def fetch_ref(place: Place, ref: str) -> str | None:
    """The commit `ref` (a branch name or a full commit id) names on the place's remote, its objects fetched
    into the place's repository and nothing else written (no ref, no FETCH_HEAD); None when the remote has no
    such branch. The branch is read by its exact full name: `ls-remote` matches the end of a name, so
    `a/refs/heads/cursor/a` would answer for `cursor/a` if its lines were not filtered to the one named.

    Raises:
        ToolFailure: VALIDATION for a ref that is not a plain branch name or commit id (before any git); the
            remote cannot be read (no access, no network).
    """
    if refs.is_commit_id(ref):
        sha = ref.lower()
        if not await place.git.succeeds("cat-file", "-e", f"{sha}^{{commit}}"):
            await _fetch(place, sha)
        return sha
    full = refs.full_ref(ref)
    try:
        listed = await place.git.run("ls-remote", "--", place.remote, full)
    except gitlib.GitError as exc:
        raise no_access(place, exc) from None
    sha = exact_ref(listed, full)
    if sha is None:
        return None
    if not await place.git.succeeds("cat-file", "-e", f"{sha}^{{commit}}"):
        await _fetch(place, full)
        if not await place.git.succeeds("cat-file", "-e", f"{sha}^{{commit}}"):
            raise ToolFailure(
                Code.UPSTREAM, f"{ref} moved on {place.remote} while it was read: ask again to read its new commit."
            )
    return sha


def exact_ref(listed: str, full: str) -> str | None:
    """The commit `ls-remote` lists for exactly `full` (a full ref name), or None; other names ending the same
    way are not it."""
    for line in listed.splitlines():
        sha, _, name = line.partition("\t")
        if name == full and refs.is_commit_id(sha):
            return sha.lower()
    return None


FETCH_OPTIONS = (
    "--quiet",
    "--no-tags",
    "--no-write-fetch-head",
    "--refmap=",
    "--no-recurse-submodules",
    "--no-auto-gc",
)
"""A fetch that brings objects only: no tag, no FETCH_HEAD, no remote-tracking ref (an empty `--refmap`: git
would otherwise update `refs/remotes/<remote>/<branch>` for a branch named on its command line), no
submodule, no maintenance."""


async def _fetch(place: Place, what: str) -> None:
    """Fetch `what` (a full ref name built by `refs.full_ref`, or a commit id): a source only, never a refspec
    with a destination, so git writes no ref."""
    try:
        await place.git.run("fetch", *FETCH_OPTIONS, "--", place.remote, what)
    except gitlib.GitError as exc:
        raise no_access(place, exc) from None


def no_access(place: Place, exc: gitlib.GitError) -> ToolFailure:
    """The failure for a remote git cannot read, with git's own last words and how to give access."""
    said = strip_hidden(exc.stderr.strip().splitlines()[-1] if exc.stderr.strip() else f"exit {exc.code}")
    where = f"remote {place.remote} of {place.git.cwd}" if place.kind == "clone" else place.remote
    if unreachable(exc.stderr):
        return ToolFailure(Code.NETWORK, f"git cannot reach {where} ({said[:300]}): {NETWORK_ADVICE}.")
    return ToolFailure(
        Code.PERMISSION_DENIED,
        f"git cannot read {where} ({said[:300]}). Give this machine's git access to the repository (a credential "
        "helper such as `gh auth login`, or an SSH key), or share a clone of it with the client (its roots).",
    )


async def read_change(places: GitPlaces, target: AgentBranch, roots: Sequence[Path] = ()) -> AgentChange:
    """The agent's change: its branch and starting ref fetched where git is, and the files between them.

    Raises:
        ToolFailure: no git, no access, the branch not pushed (yet), the starting ref gone.
    """
    place = await locate(places, target.repo_url, roots)
    head = await fetch_ref(place, target.branch)
    if head is None:
        raise branch_missing(target)
    starting_ref = target.starting_ref or await default_branch(place)
    start = await fetch_ref(place, starting_ref) if starting_ref else None
    if start is None:
        raise ToolFailure(
            Code.NOT_FOUND,
            f"The ref the agent started from ({starting_ref or 'none given'}) is not on {target.repo_url}: "
            "the change cannot be told apart from the rest of the branch. Its commits: `git log` of "
            f"{target.branch}.",
            agent_id=target.agent_id,
        )
    base = (await place.git.run("merge-base", start, head)).strip() or start
    files = await files_between(place.git, base, head)
    commits = int((await place.git.run("rev-list", "--count", f"{base}..{head}")).strip() or 0)
    return AgentChange(replace(target, starting_ref=starting_ref), place, base, head, files, commits)


async def default_branch(place: Place) -> str | None:
    """The remote's default branch (where a run given no starting ref starts), or None when it names none."""
    try:
        listed = await place.git.run("ls-remote", "--symref", "--", place.remote, "HEAD")
    except gitlib.GitError as exc:
        raise no_access(place, exc) from None
    for line in listed.splitlines():
        if line.startswith("ref: refs/heads/") and line.endswith("\tHEAD"):
            return refs.checked_branch(line.removeprefix("ref: refs/heads/").removesuffix("\tHEAD"), "default branch")
    return None


def _wait_for(agent_id: str, run_id: str | None) -> Advice:
    return advice(Step.WAIT_THEN_ASK_AGAIN, agent_id=agent_id, run_id=run_id)


def branch_missing(target: AgentBranch) -> ToolFailure:
    if target.run_active:
        return ToolFailure(
            Code.AGENT_BUSY,
            f"Agent {target.agent_id} has not pushed {target.branch} yet: run {target.run_id} is {target.run_status}.",
            advice=_wait_for(target.agent_id, target.run_id),
            agent_id=target.agent_id,
            run_id=target.run_id,
            run_status=target.run_status,
        )
    return ToolFailure(
        Code.NOT_FOUND,
        f"{target.repo_url} has no branch {target.branch} (run {target.run_id} ended {target.run_status}): it was "
        "never pushed, or deleted since.",
        agent_id=target.agent_id,
        run_id=target.run_id,
    )


async def files_between(git: gitlib.Git, base: str, head: str) -> list[FileChange]:
    """The files changed from `base` to `head` (renames found), with their line counts (None: binary)."""
    statuses = (await git.run("diff", "--name-status", "-z", "-M", base, head, "--")).split("\0")
    counts = (await git.run("diff", "--numstat", "-z", "-M", base, head, "--")).split("\0")
    numbers: list[tuple[str, str]] = []
    index = 0
    while index < len(counts) and counts[index]:
        added, removed, path = counts[index].split("\t", 2)
        numbers.append((added, removed))
        index += 1 if path else 3  # a rename: `added\tremoved\t`, then its old and new paths
    files: list[FileChange] = []
    index = 0
    while index < len(statuses) and statuses[index]:
        letter = statuses[index][0]
        if letter in "RC":
            old, path, index = statuses[index + 1], statuses[index + 2], index + 3
        else:
            old, path, index = None, statuses[index + 1], index + 2
        added, removed = numbers[len(files)] if len(files) < len(numbers) else ("-", "-")
        binary = added == "-"
        files.append(
            FileChange(
                strip_hidden(path),
                _STATUS.get(letter, "modified"),
                binary,
                None if binary else int(added),
                None if binary else int(removed),
                None if old is None or letter != "R" else strip_hidden(old),
            )
        )
    return files


def _diff_args(base: str, head: str, paths: Sequence[str]) -> tuple[str, ...]:
    """`git diff` of the change as plain text, limited to `paths` once they are checked."""
    return ("diff", *_DIFF_OPTIONS, base, head, "--", *refs.checked_paths(paths))


async def diff(
    git: gitlib.Git, base: str, head: str, paths: Sequence[str] = (), *, cleaner: Callable[[str], str] = strip_hidden
) -> Diff:
    """The unified diff from `base` to `head` (limited to `paths`), cleaned by `cleaner` (hidden and bidi
    characters; a terminal's also removes escape sequences whole); binary files are named, never dumped
    (git's `Binary files ... differ`)."""
    raw, cut = await git.output(*_diff_args(base, head, paths), limit=MAX_DIFF_BYTES)
    text = raw.decode(errors="replace")
    cleaned = cleaner(text)
    return Diff(cleaned, len(text) - len(cleaned), cut)


DIFF_CHUNK_BYTES = 256 * 1024
"""How much of a diff is prepared at once when it is paged (`diff_page`)."""


@dataclass(frozen=True)
class DiffPage:
    """Up to `window` characters of a prepared diff from `offset`, and what is known of the whole: its length
    in prepared characters, the hidden characters removed from it, whether it was cut at `MAX_DIFF_BYTES`
    (None while not read to its end)."""

    text: str
    total: int | None
    hidden_removed: int | None
    cut: bool | None


@dataclass
class _Paging:
    prepare: Callable[[str], str]
    offset: int
    window: int
    kept: list[str] = field(default_factory=list[str])
    kept_chars: int = 0
    total: int = 0
    hidden: int = 0
    image_open: bool = False
    stop_when_kept: bool = False

    def take(self, text: str) -> bool:
        """Prepare one chunk; keep what falls in the window; False once the window is full and the rest is
        not needed."""
        cleaned = strip_hidden(text)
        self.hidden += len(text) - len(cleaned)
        self.image_open = self.image_open or "![" in cleaned
        if self.image_open and "](" in cleaned:
            # An image whose `![` is in an earlier chunk (its alt broken across lines) is not seen whole by the
            # chunk's cleaning: no `](` is left once an `![` was seen, as the whole text's cleaning would do.
            cleaned = cleaned.replace("](", "] (")
        prepared = self.prepare(cleaned)
        start, end = self.total, self.total + len(prepared)
        self.total = end
        want_from, want_to = self.offset + self.kept_chars, self.offset + self.window
        if end > want_from and start < want_to:
            piece = prepared[max(0, want_from - start) : want_to - start]
            self.kept.append(piece)
            self.kept_chars += len(piece)
        return not (self.stop_when_kept and self.total >= self.offset + self.window)


async def diff_page(
    git: gitlib.Git,
    base: str,
    head: str,
    paths: Sequence[str],
    *,
    prepare: Callable[[str], str],
    offset: int,
    window: int,
    whole_known: bool,
) -> DiffPage:
    """A window of the unified diff from `base` to `head`, prepared chunk by chunk by `prepare` (hidden and
    bidi characters removed first): never more than a few chunks and the window are held, whatever the diff's
    size. When `whole_known` (its length was measured by an earlier call), git is stopped once the window is
    full; else it is read to its end, to measure it."""
    paging = _Paging(prepare, offset, window, stop_when_kept=whole_known)
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    cut, stopped = await git.each_chunk(
        *_diff_args(base, head, paths),
        limit=MAX_DIFF_BYTES,
        chunk_bytes=DIFF_CHUNK_BYTES,
        consume=lambda chunk: paging.take(decoder.decode(chunk)),
    )
    if not stopped:
        paging.take(decoder.decode(b"", final=True))
    whole = not stopped
    return DiffPage(
        "".join(paging.kept),
        paging.total if whole else None,
        paging.hidden if whole else None,
        cut if whole else None,
    )


async def stream_diff(
    git: gitlib.Git,
    base: str,
    head: str,
    paths: Sequence[str],
    *,
    emit: Callable[[str], None],
    cleaner: Callable[[str], str] = strip_hidden,
) -> tuple[int, bool]:
    """The unified diff from `base` to `head` handed to `emit` in whole lines, cleaned by `cleaner`, chunk by
    chunk (a terminal prints a diff of any size without holding it); the hidden characters removed, and
    whether it was cut at `MAX_DIFF_BYTES`."""
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    carry = [""]
    hidden = [0]

    def send(text: str) -> None:
        cleaned = cleaner(text)
        hidden[0] += len(text) - len(cleaned)
        emit(cleaned)

    def take(chunk: bytes) -> bool:
        text = carry[0] + decoder.decode(chunk)
        end = text.rfind("\n") + 1
        carry[0] = text[end:]
        if end:
            send(text[:end])
        return True

    cut, _ = await git.each_chunk(
        *_diff_args(base, head, paths),
        limit=MAX_DIFF_BYTES,
        chunk_bytes=DIFF_CHUNK_BYTES,
        consume=take,
    )
    rest = carry[0] + decoder.decode(b"", final=True)
    if rest:
        send(rest)
    return hidden[0], cut


def cache_dir_for(state_dir: Path | None) -> Path:
    """Where the cache of repositories lives: `git/` in CURSOR_MCP_STATE_DIR, or a folder of this user in the
    temporary directory when the state is kept in memory."""
    if state_dir is not None:
        return state_dir / "git"
    return Path(tempfile.gettempdir()) / f"cursor-cloud-agents-git-{os.getuid()}"


async def read_agent_change(
    places: GitPlaces | None, api: CursorClient, agent_id: str, run_id: str | None, roots: Sequence[Path] = ()
) -> AgentChange:
    """The change of the agent's run (its latest, or `run_id`), read where git is.

    Raises:
        ToolFailure: as `read_target` and `read_change` do; no git when `places` is None.
    """
    if places is None:
        raise no_git()
    return await read_change(places, await read_target(api, agent_id, run_id), roots)


async def measure(places: GitPlaces, api: CursorClient, agent_id: str, run_id: str | None = None) -> ChangeSize:
    """The size of an agent's change (files, lines added, lines removed): for comparing agents' work.

    Raises:
        ToolFailure: as `read_change` (and `read_target`) do.
    """
    return (await read_agent_change(places, api, agent_id, run_id)).size
