"""`core/review/check_place.py` (issue 42): the check's throwaway clone, and its environment built from an allow-list.

Each test plants an escape in the agent's commit (`tests/core/hostile_repo.py`) and runs the real check on it,
without the sandbox (`sandbox="off"`): these are the guarantees every platform gets. The person's `.git` is
hashed file by file before and after.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cursor_cloud_agents.core.review.check_place import CheckFolder, check_environment
from cursor_cloud_agents.core.review.checks import CheckRules, run_check
from tests.core.review.hostile_repo import Hostile, make_hostile

pytestmark = pytest.mark.anyio
BARE = CheckRules(sandbox="off")
SECRETS = {
    "GITHUB_TOKEN": "ghp_planted1",
    "GH_TOKEN": "gho_planted2",
    "AWS_SECRET_ACCESS_KEY": "aws_planted3",
    "SSH_AUTH_SOCK": "/tmp/ssh-planted4/agent.1",
    "CURSOR_API_KEY": "key_planted5",
    "CURSOR_MCP_STATE_DIR": "/planted6",
    "GIT_DIR": "/planted7",
    "PYTHONPATH": "/planted8",
}


@pytest.fixture
def hostile(tmp_path: Path) -> Hostile:
    return make_hostile(tmp_path)


async def test_agent_code_writing_hooks_config_refs_and_objects_leaves_the_persons_git_as_it_was_h_50(
    hostile: Hostile,
) -> None:
    """H-50: the agent's script writes `.git/hooks/post-checkout` and `pre-commit`, `core.pager`,
    `core.fsmonitor`, an alias, `core.hooksPath`, a filter in `.git/config`, commits, moves `main`, a
    remote-tracking ref and a tag, and runs gc, repack and prune: all of it lands in its own clone's `.git`,
    and the person's `.git` is byte for byte as before."""
    before = hostile.fingerprint()
    result = await run_check(hostile.git, hostile.commit, "sh escape.sh", env=hostile.env, timeout=20, rules=BARE)
    assert result.passed, result.last_lines
    assert "escape-done" in result.last_lines
    assert hostile.fingerprint() == before


async def test_the_persons_filters_hooks_fsmonitor_and_submodules_do_not_run_on_the_agents_tree_h_51(
    hostile: Hostile,
) -> None:
    """H-51: the agent's `.gitattributes` names a smudge filter and a diff driver the person's global config
    defines, the person's config has a hooks folder, an fsmonitor and `submodule.recurse`, and the tree has a
    `.gitmodules` pointing at a local repository: the clone and its checkout run none of them, fetch no
    submodule, and leave the file unfiltered."""
    command = "cat data.txt; echo sub-files=$(ls -A sub | wc -l); git status --short | wc -l; git diff HEAD~0"
    result = await run_check(hostile.git, hostile.commit, command, env=hostile.env, timeout=20, rules=BARE)
    assert result.passed, result.last_lines
    assert "smudged if a filter ran" in result.last_lines and "sub-files=0" in result.last_lines
    assert hostile.ran() == []


async def test_the_check_runs_in_a_clone_of_its_own_removed_afterwards_h_52(hostile: Hostile) -> None:
    """H-52: the command's `.git` is a folder of its own (not a worktree's `.git` file naming the person's),
    at the agent's commit, borrowing objects through alternates; its folder is gone afterwards."""
    command = "pwd; test -d .git && echo own-git-dir; git rev-parse HEAD; cat .git/objects/info/alternates"
    result = await run_check(hostile.git, hostile.commit, command, env=hostile.env, timeout=20, rules=BARE)
    lines = result.last_lines.splitlines()
    assert result.passed and lines[1] == "own-git-dir" and lines[2] == hostile.commit
    assert lines[3] == str(hostile.person / ".git" / "objects")
    assert not Path(lines[0]).exists() and Path(lines[0]).name == "tree"


async def test_tokens_and_keys_do_not_reach_the_check_unless_the_person_lists_them_h_53(hostile: Hostile) -> None:
    """H-53: GITHUB_TOKEN, GH_TOKEN, AWS_SECRET_ACCESS_KEY, SSH_AUTH_SOCK, GIT_DIR, PYTHONPATH and every
    CURSOR_* variable stay out; PATH, LANG, TZ, TERM pass; HOME and TMPDIR are the throwaway's."""
    env = hostile.env | SECRETS | {"LANG": "C.UTF-8", "TZ": "UTC", "TERM": "dumb"}
    result = await run_check(hostile.git, hostile.commit, "env", env=env, timeout=20, rules=BARE)
    seen = dict(line.split("=", 1) for line in result.last_lines.splitlines() if "=" in line)
    assert result.passed
    assert not [value for value in SECRETS.values() if value in result.last_lines]
    assert (
        {"PATH", "LANG", "TZ", "TERM", "HOME", "TMPDIR"}
        <= set(seen)
        <= {"PATH", "LANG", "TZ", "TERM", "HOME", "TMPDIR", "PWD", "SHLVL", "_", "OLDPWD"}
    )
    assert seen["HOME"] != hostile.env["HOME"] and seen["HOME"].endswith("/home")
    assert seen["TMPDIR"].endswith("/tmp") and seen["LANG"] == "C.UTF-8"


async def test_a_listed_variable_reaches_the_check_and_a_cursor_one_never_does_even_listed_h_54(
    hostile: Hostile,
) -> None:
    """H-54: the names in `CURSOR_MCP_CHECK_ENV` pass; `CURSOR_API_KEY` listed anyway does not (the settings
    refuse it, and the core drops it again); HOME listed stays the throwaway's."""
    env = hostile.env | SECRETS
    rules = CheckRules(env_names=("GH_TOKEN", "CURSOR_API_KEY", "HOME"), sandbox="off")
    result = await run_check(hostile.git, hostile.commit, "env", env=env, timeout=20, rules=rules)
    assert "GH_TOKEN=gho_planted2" in result.last_lines
    assert "key_planted5" not in result.last_lines and "ghp_planted1" not in result.last_lines
    assert f"HOME={hostile.env['HOME']}" not in result.last_lines


def test_the_environment_is_built_from_the_allow_list_alone_h_53(tmp_path: Path) -> None:
    """H-53: nothing of the process's environment but the allowed names; PATH defaults when absent."""
    place = CheckFolder(tmp_path, tmp_path / "tree", tmp_path / "home", tmp_path / "tmp", tmp_path / "output")
    built = check_environment(SECRETS | {"EXTRA": "x", "TERM": "xterm"}, ["EXTRA", "CURSOR_API_KEY", "TMPDIR"], place)
    assert set(built) == {"PATH", "TERM", "EXTRA", "HOME", "TMPDIR"}
    assert built["HOME"] == str(tmp_path / "home") and built["TMPDIR"] == str(tmp_path / "tmp")


async def test_a_commit_that_is_not_a_full_id_is_refused_before_any_git_command(hostile: Hostile) -> None:
    """H-55: a ref or an option where a commit id belongs never reaches git."""
    for commit in ("main", "--upload-pack=touch x", hostile.commit[:12], "HEAD"):
        with pytest.raises(Exception, match="full commit id"):
            await run_check(hostile.git, commit, "true", env=hostile.env, timeout=5, rules=BARE)
    assert hostile.ran() == []
