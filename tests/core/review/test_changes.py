"""`core/review/changes.py` (issue 30) against the simulator's stand-in remote and real git.

One stand-in remote and one clone serve the whole module (a git repository costs tens of milliseconds):
the `changes` world pushes one finished agent per named change there.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from cursor_cloud_agents.core.failures import ToolFailure
from cursor_cloud_agents.core.review.changes import AgentBranch, GitPlaces, diff, read_change
from cursor_cloud_agents.core.review.git import git_environment
from cursor_cloud_agents.simulator import CHANGES, World
from tests.stand_in import Remote, agent_named, changes_world, git, make_remote, target_of

pytestmark = pytest.mark.anyio
_STAT_TOTALS = re.compile(r"(\d+) files? changed(?:, (\d+) insertions?\(\+\))?(?:, (\d+) deletions?\(-\))?")


@pytest.fixture(scope="module")
def pushed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Remote, World]:
    """Module setup, about 1 s on a loaded machine: one remote, eight pushes, one clone (below)."""
    made = make_remote(tmp_path_factory.mktemp("stand-in"))
    return made, changes_world(made)


@pytest.fixture(scope="module")
def remote(pushed: tuple[Remote, World]) -> Remote:
    return pushed[0]


@pytest.fixture(scope="module")
def targets(pushed: tuple[Remote, World]) -> dict[str, AgentBranch]:
    return {name: target_of(agent_named(pushed[1], name)) for name in CHANGES}


@pytest.fixture(scope="module")
def clone(remote: Remote) -> Path:
    return remote.clone("clone")


def repository_state(folder: Path, remote: Remote) -> dict[str, str]:
    """What a read of the change must leave as it was in the person's clone."""
    return {
        "refs": git(folder, "for-each-ref", env=remote.env),
        "config": (folder / ".git" / "config").read_text(),
        "status": git(folder, "status", "--porcelain", "--untracked-files=all", env=remote.env),
        "fetch_head": str((folder / ".git" / "FETCH_HEAD").exists()),
    }


@pytest.mark.parametrize("name", ["small", "many-files", "binary", "rename", "deletion", "large"])
async def test_the_files_and_totals_are_those_of_git_diff_stat(
    remote: Remote, targets: dict[str, AgentBranch], clone: Path, name: str
) -> None:
    """D-50: files, additions and deletions as `git diff --stat` of the branch counts them."""
    change = await read_change(remote.places(working_dir=clone), targets[name])
    branch = f"origin/{targets[name].branch}"
    git(clone, "fetch", "--quiet", "origin", env=remote.env)
    stat = git(clone, "diff", "--stat", "-M", f"origin/main...{branch}", env=remote.env)
    totals = _STAT_TOTALS.search(stat)
    assert totals is not None, stat
    files, added, removed = totals.groups()
    assert (change.size.files, change.size.additions, change.size.deletions) == (
        int(files),
        int(added or 0),
        int(removed or 0),
    )
    assert change.commits == 1


async def test_the_diff_is_git_diff_byte_for_byte(remote: Remote, targets: dict[str, AgentBranch], clone: Path) -> None:
    """D-50: the text is `git diff` of the starting ref against the branch, nothing added or lost."""
    change = await read_change(remote.places(working_dir=clone), targets["many-files"])
    text = await diff(change.place.git, change.base, change.head)
    expected = git(clone, "diff", f"{change.base}...{change.head}", env=remote.env)
    assert text.text == expected and text.hidden_removed == 0 and not text.cut
    assert "@@" in text.text


async def test_a_binary_file_is_named_never_dumped_and_a_rename_is_a_rename(
    remote: Remote, targets: dict[str, AgentBranch]
) -> None:
    """D-50: binary files have no line counts and the diff says `Binary files ... differ`; a moved file is `renamed`."""
    binary = await read_change(remote.places(), targets["binary"])
    assert {(f.path, f.status, f.binary, f.additions) for f in binary.files} == {
        ("assets/logo.png", "modified", True, None),
        ("assets/screenshot.png", "added", True, None),
    }
    text = await diff(binary.place.git, binary.base, binary.head)
    assert "Binary files" in text.text and "\x89PNG" not in text.text
    renamed = await read_change(remote.places(), targets["rename"])
    moved = next(f for f in renamed.files if f.status == "renamed")
    assert (moved.old_path, moved.path) == ("src/util.py", "src/text.py")
    deleted = await read_change(remote.places(), targets["deletion"])
    assert ("manual/guide.md", "deleted") in {(f.path, f.status) for f in deleted.files}


async def test_hidden_and_bidi_characters_in_the_diff_are_removed_and_counted(
    remote: Remote, targets: dict[str, AgentBranch]
) -> None:
    """P-52: the zero-width space, the right-to-left override and its pop, and the isolate planted in a line."""
    change = await read_change(remote.places(), targets["hidden-characters"])
    text = await diff(change.place.git, change.base, change.head)
    assert text.hidden_removed == 4
    assert "Note for reviewers: ok siht is fine." in text.text
    assert not any(char in text.text for char in "\u200b\u202e\u202c\u2066")


async def test_a_path_narrows_the_diff_to_that_file(remote: Remote, targets: dict[str, AgentBranch]) -> None:
    change = await read_change(remote.places(), targets["small"])
    text = await diff(change.place.git, change.base, change.head, ["src/app.py"])
    assert "a/src/app.py" in text.text and "README.md" not in text.text


async def test_without_a_clone_the_cache_is_made_and_fetched(remote: Remote, targets: dict[str, AgentBranch]) -> None:
    """F-53: no clone shared: a bare cache under the state folder, made whole."""
    places = remote.places(cache="fresh-cache")
    change = await read_change(places, targets["small"], roots=[remote.root / "home"])
    assert change.place.kind == "cache"
    assert (remote.root / "fresh-cache" / "github.com" / "your-org" / "your-repo.git" / "HEAD").exists()
    assert not list((remote.root / "fresh-cache" / "github.com" / "your-org").glob(".making-*"))


async def test_a_branch_not_pushed_by_a_running_run_names_the_run_to_wait_for(
    remote: Remote, targets: dict[str, AgentBranch]
) -> None:
    """F-53: AGENT_BUSY with the run id and how to wait for it."""
    target = targets["small"]
    running = replace(target, run_status="RUNNING", run_active=True, branch="cursor/not-yet")
    with pytest.raises(ToolFailure) as raised:
        await read_change(remote.places(), running)
    assert raised.value.code == "AGENT_BUSY"
    advice = raised.value.advice
    assert f"run {target.run_id} is RUNNING" in raised.value.message and advice is not None
    assert advice.step == "wait_then_ask_again" and advice.fact("run_id") == target.run_id  # each face says how


async def test_a_repository_git_cannot_read_says_how_to_give_access_and_changes_nothing(
    remote: Remote, targets: dict[str, AgentBranch], tmp_path: Path
) -> None:
    """F-53: the clone's remote points where nothing answers: PERMISSION_DENIED, the clone as it was."""
    lost = remote.clone("lost-clone")
    config = lost / ".git" / "config"
    config.write_text(config.read_text().replace(remote.folder.as_uri(), "file:///nonexistent"))
    before = repository_state(lost, remote)
    places = GitPlaces(remote.env, tmp_path / "cache")  # no rewrite to the stand-in: the clone's own setting rules
    with pytest.raises(ToolFailure) as raised:
        await read_change(places, targets["small"], roots=[lost])
    assert raised.value.code == "PERMISSION_DENIED"
    assert "credential helper" in raised.value.message
    assert repository_state(lost, remote) == before


async def test_a_remote_git_cannot_reach_is_a_network_failure_not_a_permission_k_65(
    remote: Remote, targets: dict[str, AgentBranch], tmp_path: Path
) -> None:
    """K-65: the remote's host refuses the connection (a loopback port nothing listens on): NETWORK, naming the
    network, with no advice about credentials; the clone as it was."""
    cut_off = remote.clone("cut-off-clone")
    config = cut_off / ".git" / "config"
    config.write_text(config.read_text().replace(remote.folder.as_uri(), "http://127.0.0.1:9"))
    before = repository_state(cut_off, remote)
    places = GitPlaces(remote.env, tmp_path / "cache")
    with pytest.raises(ToolFailure) as raised:
        await read_change(places, targets["small"], roots=[cut_off])
    assert raised.value.code == "NETWORK", raised.value.message
    assert "network failure, not a permission" in raised.value.message and "credential" not in raised.value.message
    assert repository_state(cut_off, remote) == before


async def test_no_git_on_the_machine_is_said_plainly(
    remote: Remote, targets: dict[str, AgentBranch], tmp_path: Path
) -> None:
    """F-53: a PATH without git: CONFIGURATION, nothing made."""
    places = GitPlaces({"PATH": str(tmp_path)}, tmp_path / "cache")
    with pytest.raises(ToolFailure) as raised:
        await read_change(places, targets["small"])
    assert raised.value.code == "CONFIGURATION" and "install git" in raised.value.message
    assert not (tmp_path / "cache").exists()


def test_git_never_sees_a_cursor_variable_and_gets_the_stand_in_setting_after_the_persons() -> None:
    """S-54: the key, the base URL, any CURSOR_* goes; GIT_CONFIG_* given by the person are kept, ours follow."""
    env = {"CURSOR_API_KEY": "key", "cursor_mcp_x": "1", "PATH": "/bin", "GIT_CONFIG_COUNT": "1"}
    env |= {"GIT_CONFIG_KEY_0": "a.b", "GIT_CONFIG_VALUE_0": "c"}
    made = git_environment(env, interactive=False, config=(("url.x.insteadOf", "https://"),))
    assert not any(name.upper().startswith("CURSOR_") for name in made)
    assert made["GIT_CONFIG_COUNT"] == "2" and made["GIT_CONFIG_KEY_1"] == "url.x.insteadOf"
    assert made["GIT_CONFIG_KEY_0"] == "a.b" and made["GIT_TERMINAL_PROMPT"] == "0"


async def test_a_repository_url_that_would_leave_the_cache_folder_is_refused(remote: Remote, tmp_path: Path) -> None:
    """F-53: `github.com/../../x` from the API never names a folder outside the cache; nothing is made."""
    target = AgentBranch("bc-x", "run-x", "FINISHED", False, "github.com/../../escape", "cursor/x", "main", None)
    with pytest.raises(ToolFailure) as raised:
        await read_change(remote.places(cache=tmp_path.name), target)
    assert raised.value.code == "VALIDATION" and not (remote.root / "escape").exists()
