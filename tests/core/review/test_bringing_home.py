"""Bringing the work home safely (issue 42), against a hand-made API stand-in and a bare remote.

Every ref the API hands over is a value: hostile branch names and starting refs are refused with VALIDATION
at every git call site, before git writes anything, and the person's refs, config and FETCH_HEAD are byte for
byte as before. Remote branches are read by their exact full name. Reading a change writes nothing of the
person's. `apply` lands only the commit reviewed, never over a file git ignores or does not track.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from cursor_cloud_agents.core import checkout as core_checkout
from cursor_cloud_agents.core.failures import ToolFailure
from cursor_cloud_agents.core.review.applying import Mode, apply_change, clone_place
from cursor_cloud_agents.core.review.changes import (
    AgentBranch,
    Place,
    diff,
    diff_page,
    fetch_ref,
    read_change,
    read_target,
    stream_diff,
)
from cursor_cloud_agents.core.review.git import Git
from cursor_cloud_agents.core.review.refs import branch_problem, path_problem
from tests.handmade import AGENT, REPO, HandApi, HandRemote, git, make_hand_remote

pytestmark = pytest.mark.anyio

HOSTILE = [
    "x:refs/heads/main",
    "cursor/a:refs/heads/main",
    "+cursor/a",
    "+refs/heads/cursor/a:refs/heads/main",
    "refs/tags/v1",
    "refs/heads/main",
    "refs/remotes/origin/main",
    "HEAD:",
    "HEAD",
    "cursor/*",
    "cursor/a?",
    "cursor/[a]",
    "a/refs/heads/cursor/a",
    "cursor/a\u200b",
    "cursor/\u202eevil",
    "cursor/a\u2066",
    "-x",
    "--upload-pack=touch PWNED",
    "main..cursor/a",
    "@{-1}",
    "@",
    "main~1",
    "main^",
    "x\\y",
    "a b",
    "x.lock",
    "x/.hidden",
    "x\x1b[2J",
    "x\n",
    "",
]


@pytest.fixture
def remote(tmp_path: Path) -> HandRemote:
    """A fresh remote and clone, for a test that changes them (about 0.5 s of git on a loaded machine)."""
    made = make_hand_remote(tmp_path / "place")
    made.push("cursor/a", {"agent.txt": "agent a\n"})
    return made


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> HandRemote:
    """One remote and clone for the refusals, which must leave them as they were."""
    made = make_hand_remote(tmp_path_factory.mktemp("shared") / "place")
    made.push("cursor/a", {"agent.txt": "agent a\n"})
    return made


async def refused(action: object) -> ToolFailure:
    with pytest.raises(ToolFailure) as caught:
        await action  # type: ignore[misc]  # pyright: ignore[reportGeneralTypeIssues] -- an awaitable given
    return caught.value


@pytest.mark.parametrize("hostile", [h for h in HOSTILE if h], ids=ascii)
async def test_a_hostile_branch_name_from_the_api_is_refused_before_git_h_01(shared: HandRemote, hostile: str) -> None:
    """H-01: the branch the run reports is refused with VALIDATION; nothing of the person's changes."""
    api = HandApi(branch=hostile)
    before = shared.person_state()
    async with api.client() as client:
        failure = await refused(read_target(client, AGENT, None))
    assert failure.code == "VALIDATION" and "is refused" in failure.message
    assert shared.person_state() == before and not (shared.root / "cache").exists()


@pytest.mark.parametrize("hostile", [h for h in HOSTILE if h and not h.startswith("refs/heads/main")], ids=ascii)
async def test_a_hostile_starting_ref_from_the_api_is_refused_before_git_h_02(shared: HandRemote, hostile: str) -> None:
    """H-02: the run's starting ref (the reproduction: `<agent branch>:refs/heads/main` moved `main`) is refused
    with VALIDATION; `main` and every other ref stay where they were."""
    api = HandApi(starting_ref=hostile)
    before = shared.person_state()
    async with api.client() as client:
        failure = await refused(read_target(client, AGENT, None))
    assert failure.code == "VALIDATION" and "starting ref" in failure.message
    assert shared.person_state() == before


@pytest.mark.parametrize("hostile", HOSTILE, ids=ascii)
async def test_every_git_call_site_refuses_a_hostile_ref_itself_h_03(shared: HandRemote, hostile: str) -> None:
    """H-03: past the API's check, each place that hands a ref to git checks it again: the fetch of a change,
    the checkout's source and the apply; VALIDATION, the person's clone byte for byte as before."""
    git_ = Git.find(shared.person, shared.env)
    assert git_ is not None
    place = Place(git_, "origin", "clone")
    before = shared.person_state()
    assert (await refused(fetch_ref(place, hostile))).code == "VALIDATION"
    reported = [core_checkout.Reported(REPO, hostile, None)]
    with pytest.raises(ToolFailure) as caught:
        core_checkout.source_of(reported, {}, {"origin": "https://github.com/org/repo"}, None)
    assert caught.value.code == "VALIDATION"
    if hostile and branch_problem(hostile.removeprefix("refs/heads/")) is not None:
        with pytest.raises(ToolFailure) as start:
            core_checkout.source_of(
                [core_checkout.Reported(REPO, "cursor/a", None)], {REPO: hostile}, {"o": REPO}, None
            )
        assert start.value.code == "VALIDATION"
    target = target_with(shared, branch=hostile)
    assert (await refused(apply_change(place, target, "fast-forward", "a" * 40))).code == "VALIDATION"
    assert shared.person_state() == before


def target_with(
    remote: HandRemote, *, branch: str = "cursor/a", start: str | None = "main", active: bool = False
) -> AgentBranch:
    """What `read_target` makes of the stand-in's answers, for the apply tests (`remote` for symmetry)."""
    del remote
    status = "RUNNING" if active else "FINISHED"
    return AgentBranch(AGENT, "run-1", status, active, REPO, branch, start, None)


async def test_a_branch_is_read_by_its_exact_name_never_one_ending_the_same_way_h_04(remote: HandRemote) -> None:
    """H-04: `ls-remote` matches the end of a name and its first line wins: another agent's branch
    `a/refs/heads/cursor/a` (listed first) would stand for `cursor/a`. Read by exact name, `cursor/a` is its
    own commit; with `cursor/a` gone, it is NOT_FOUND, never the other's."""
    own = git(remote.bare, "rev-parse", "refs/heads/cursor/a", env=remote.env).strip()
    other = remote.push("a/refs/heads/cursor/a", {"other.txt": "agent b\n"}, message="Agent B")
    api = HandApi()
    async with api.client() as client:
        change = await read_change(remote.places(), await read_target(client, AGENT, None), [remote.person])
        assert change.head == own != other
        git(remote.bare, "update-ref", "-d", "refs/heads/cursor/a", env=remote.env)
        failure = await refused(read_change(remote.places(), await read_target(client, AGENT, None), [remote.person]))
    assert failure.code == "NOT_FOUND"


async def test_a_tag_of_the_branchs_name_is_not_the_branch_h_05(remote: HandRemote) -> None:
    """H-05: only `refs/heads/NAME` is read: a tag `cursor/t` does not answer for a branch `cursor/t`."""
    scratch = remote.root / "scratch"
    git(scratch, "tag", "cursor/t", env=remote.env)
    git(scratch, "push", "--quiet", "origin", "refs/tags/cursor/t", env=remote.env)
    git_ = Git.find(remote.person, remote.env)
    assert git_ is not None
    assert await fetch_ref(Place(git_, "origin", "clone"), "cursor/t") is None


GIT_ACCEPTS = ["cursor/fix-login", "a", "feature/x_y-1.2", "cursor/$(touch${IFS}x);`id`|&", "ünïcode/branch", "a/b/c/d"]


@pytest.mark.parametrize("name", GIT_ACCEPTS + HOSTILE, ids=ascii)
def test_what_the_check_accepts_git_accepts_as_a_branch_h_06(tmp_path: Path, name: str) -> None:
    """H-06: the Python rules are at least as strict as `git check-ref-format --branch`: every name they accept,
    git accepts; the plain names agents use pass."""
    if "\x00" in name or "\n" in name:
        assert branch_problem(name) is not None
        return
    done = subprocess.run(
        ["git", "check-ref-format", "--branch", name], cwd=tmp_path, capture_output=True, check=False, timeout=30
    )
    if branch_problem(name) is None:
        assert done.returncode == 0, name
    if name in GIT_ACCEPTS:
        assert branch_problem(name) is None


async def test_reading_a_change_writes_no_ref_config_or_fetch_head_in_the_persons_clone_h_07(
    remote: HandRemote,
) -> None:
    """H-07, F-53 (replaces the F-53 test whose clone already had every branch, so it never fetched): the person's
    clone was made before the agent pushed; reading the change fetches its objects there, and its refs
    (no `refs/remotes/origin/cursor/a`), config and FETCH_HEAD are byte for byte as before."""
    head = git(remote.bare, "rev-parse", "refs/heads/cursor/a", env=remote.env).strip()
    assert subprocess.run(["git", "cat-file", "-e", head], cwd=remote.person, env=remote.env, check=False).returncode
    before = remote.person_state()
    async with HandApi().client() as client:
        change = await read_change(remote.places(), await read_target(client, AGENT, None), [remote.person])
    assert change.place.kind == "clone" and change.head == head and change.size.files == 1
    assert remote.person_state() == before
    git(remote.person, "cat-file", "-e", head, env=remote.env)  # the objects came: it did fetch


@pytest.mark.parametrize(
    ("repo_url", "hosts"),
    [
        ("169.254.169.254/org/repo", ("github.com",)),
        ("127.0.0.1/org/repo", ("github.com",)),
        ("127.1/org/repo", ("github.com",)),
        ("2130706433/org/repo", ("github.com",)),
        ("10.1.2.3/org/repo", ("github.com",)),
        ("192.168.0.1/org/repo", ("github.com",)),
        ("evil.example/org/repo", ("github.com",)),
        ("127.0.0.1/org/repo", ("localhost",)),
    ],
)
async def test_the_cache_never_fetches_from_a_host_the_person_does_not_use_or_list_h_08(
    remote: HandRemote, repo_url: str, hosts: tuple[str, ...]
) -> None:
    """H-08: with no clone of the repository, the cache fetches only from a host the person's clones use or
    CURSOR_MCP_GIT_HOSTS lists, never a private, loopback or link-local address: refused before git runs, no
    cache made."""
    async with HandApi(repo_url=repo_url).client() as client:
        target = await read_target(client, AGENT, None)
    failure = await refused(read_change(remote.places(hosts=hosts), target, [remote.root / "home"]))
    assert failure.code == "CONFIGURATION" and "CURSOR_MCP_GIT_HOSTS" in failure.message
    assert not (remote.root / "cache").exists()


async def test_a_private_address_a_clone_of_the_person_uses_is_still_refused_h_08(remote: HandRemote) -> None:
    """H-08: a clone whose remote is on 10.1.2.3 makes that host usable for names, never for an address: only
    the setting listing 10.1.2.3 itself allows it."""
    other = remote.root / "other"
    git(remote.root, "init", "--quiet", str(other), env=remote.env)
    git(other, "remote", "add", "origin", "https://10.1.2.3/org/other", env=remote.env)
    async with HandApi(repo_url="10.1.2.3/org/repo").client() as client:
        target = await read_target(client, AGENT, None)
    failure = await refused(read_change(remote.places(), target, [other]))
    assert failure.code == "CONFIGURATION" and "private" in failure.message
    assert not (remote.root / "cache").exists()


async def test_a_loopback_stand_in_is_reached_only_when_the_setting_lists_it_h_09(remote: HandRemote) -> None:
    """H-09: the test-only allowance is the setting itself: `127.0.0.1` listed, the cache is made for it (the
    fetch then fails: nothing listens), which the same address unlisted never reaches."""
    async with HandApi(repo_url="127.0.0.1/org/repo").client() as client:
        target = await read_target(client, AGENT, None)
    failure = await refused(read_change(remote.places(hosts=("127.0.0.1",)), target, [remote.root / "home"]))
    assert failure.code == "NETWORK" and (remote.root / "cache" / "127.0.0.1").exists()  # nothing listens there


@pytest.mark.parametrize(
    "path", ["../../etc/passwd", "/etc/passwd", "src/../../x", "a\x1bb", "a\u202eb", "a\ud800", "-x", ":(top)x", " "]
)
def test_a_path_outside_the_repository_or_holding_hidden_characters_is_refused_h_10(path: str) -> None:
    """H-10: what `cursor_get_changes` and `diff` take as a path (the tool refuses it with VALIDATION before any
    request: tests/server/tools/test_changes.py)."""
    assert path_problem(path) is not None
    assert path_problem("src/app.py") is None and path_problem("docs/a b.md") is None


async def reviewed_plan(remote: HandRemote) -> tuple[Place, str]:
    place = await clone_place(remote.places(), remote.person, REPO)
    return place, git(remote.bare, "rev-parse", "refs/heads/cursor/a", env=remote.env).strip()


async def test_apply_refuses_a_branch_that_moved_since_it_was_reviewed_h_11(remote: HandRemote) -> None:
    """H-11: the commit reviewed is `head`; the agent pushes again; apply refuses, naming both commits, and the
    person's clone is as it was."""
    place, seen = await reviewed_plan(remote)
    moved = remote.push("cursor/a", {"agent.txt": "pushed after the review\n"})
    before = remote.person_state()
    failure = await refused(apply_change(place, target_with(remote), "fast-forward", seen))
    assert failure.code == "CONFLICT" and seen[:12] in failure.message and moved[:12] in failure.message
    assert remote.person_state() == before


async def test_apply_refuses_while_the_agents_run_is_still_going_h_12(remote: HandRemote) -> None:
    """H-12: a running run may push again: refused before anything is fetched."""
    place, seen = await reviewed_plan(remote)
    before = remote.person_state()
    failure = await refused(apply_change(place, target_with(remote, active=True), "merge", seen))
    assert failure.code == "AGENT_BUSY" and "still RUNNING" in failure.message
    assert remote.person_state() == before


@pytest.mark.parametrize("mode", ["fast-forward", "merge", "cherry-pick"])
@pytest.mark.parametrize(
    ("mine", "theirs"),
    [
        (".env", ".env"),  # ignored by the person's .gitignore, tracked by the agent
        ("notes.txt", "notes.txt"),  # untracked
        ("build/out.js", "build/out.js"),  # inside an ignored folder
        ("data", "data/file.txt"),  # an untracked file where the change needs a folder
    ],
)
async def test_apply_never_overwrites_a_file_git_ignores_or_does_not_track_h_13(
    remote: HandRemote, mode: Mode, mine: str, theirs: str
) -> None:
    """H-13: in every mode, a change that would replace a file of the person's that git ignores or does not
    track is refused before anything moves, naming the file; the tree, index, HEAD and refs as they were."""
    remote.push("cursor/a", {theirs: "AGENT=1\n", "agent.txt": "agent a\n"})
    if mode != "fast-forward":
        (remote.person / "own.txt").write_text("the person's commit\n")
        git(remote.person, "add", "own.txt", env=remote.env)
        git(remote.person, "commit", "--quiet", "-m", "Own", env=remote.env)
    (remote.person / mine).parent.mkdir(parents=True, exist_ok=True)
    (remote.person / mine).write_text("SECRET=mine\n")
    place, seen = await reviewed_plan(remote)
    before = remote.person_state()
    failure = await refused(apply_change(place, target_with(remote), mode, seen))
    assert failure.code == "CONFLICT" and mine in failure.message and "Nothing was changed" in failure.message
    assert remote.person_state() == before and (remote.person / mine).read_text() == "SECRET=mine\n"


async def test_apply_lands_exactly_the_commit_reviewed_h_14(remote: HandRemote) -> None:
    """H-14: with nothing in the way, the reviewed commit is what HEAD becomes."""
    place, seen = await reviewed_plan(remote)
    applied = await apply_change(place, target_with(remote), "fast-forward", seen)
    assert applied.after == seen == git(remote.person, "rev-parse", "HEAD", env=remote.env).strip()


@pytest.mark.parametrize("path", ["../../etc/passwd", "/etc/passwd", "a\u202eb"])
async def test_the_cores_diff_readers_refuse_such_a_path_themselves_h_10(shared: HandRemote, path: str) -> None:
    """H-10 at every git call site that takes a path: `diff`, `diff_page` and `stream_diff` refuse it before
    git runs, whatever face called them."""
    git_ = Git.find(shared.person, shared.env)
    assert git_ is not None
    head = git(shared.person, "rev-parse", "HEAD", env=shared.env).strip()
    readers = [
        diff(git_, head, head, [path]),
        diff_page(git_, head, head, [path], prepare=str, offset=0, window=10, whole_known=False),
        stream_diff(git_, head, head, [path], emit=lambda _text: None),
    ]
    for reader in readers:
        assert (await refused(reader)).code == "VALIDATION"
