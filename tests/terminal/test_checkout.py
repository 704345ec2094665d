"""`checkout` (issue 24) against local bare repositories standing in for GitHub.

The clone's remote is the agent's `https://github.com/your-org/your-repo`; git's `url.<base>.insteadOf` (in a
global config of the test's own) maps it to a bare repository in `tmp_path`, which holds `main` and the
agent's branch. Every refusal is checked to leave the repository, its refs, worktrees and config, and the
folder around it exactly as they were.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from cursor_cloud_agents.core.review.git import branch_problem, repository_key
from cursor_cloud_agents.simulator import ManualClock, RunScript, World
from cursor_cloud_agents.terminal.checkout import Where, checkout
from cursor_cloud_agents.terminal.dispatch import execute
from cursor_cloud_agents.terminal.exits import OK, USAGE
from tests.terminal.conftest import Rig, RigFactory

pytestmark = pytest.mark.anyio

GITHUB_URL = "https://github.com/your-org/your-repo"


def git(cwd: Path, *args: str, env: dict[str, str]) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=60, check=True)
    return done.stdout


@dataclass
class Repos:
    """The bare repository standing in for GitHub, a clone of it, and git's environment."""

    root: Path
    bare: Path
    work: Path
    env: dict[str, str]

    def git(self, *args: str, cwd: Path | None = None) -> str:
        return git(cwd or self.work, *args, env=self.env)

    def push_branch(self, branch: str, file: str = "agent.txt", text: str = "the agent's change\n") -> None:
        """Commit `file` on `branch` (from main) in a scratch clone and push it to the bare repository."""
        scratch = self.root / "scratch"
        if not scratch.exists():
            git(self.root, "clone", "--quiet", str(self.bare), str(scratch), env=self.env)
        git(scratch, "switch", "--quiet", "-C", branch, "origin/main", env=self.env)
        (scratch / file).write_text(text)
        git(scratch, "add", file, env=self.env)
        git(scratch, "commit", "--quiet", "-m", f"Change {file}", env=self.env)
        git(scratch, "push", "--quiet", "origin", f"HEAD:refs/heads/{branch}", env=self.env)

    def state(self) -> dict[str, object]:
        """What a refusal must leave as it was."""
        return {
            "refs": self.git("for-each-ref"),
            "worktrees": self.git("worktree", "list", "--porcelain"),
            "config": self.git("config", "--local", "--list"),
            "status": self.git("status", "--porcelain"),
            "head": self.git("rev-parse", "--abbrev-ref", "HEAD"),
            "around": sorted(p.name for p in self.root.iterdir()),
        }


@pytest.fixture
def repos(tmp_path: Path) -> Repos:
    """A bare `your-org/your-repo` with `main`, and a clone of it whose origin is the GitHub URL."""
    root = tmp_path / "place"
    root.mkdir()
    config = tmp_path / "gitconfig"
    env = {
        "PATH": os.environ.get("PATH", os.defpath),
        "HOME": str(tmp_path),
        "GIT_CONFIG_GLOBAL": str(config),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "T",
        "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_NAME": "T",
        "GIT_COMMITTER_EMAIL": "t@example.invalid",
    }
    bare = tmp_path / "github" / "your-repo.git"
    bare.parent.mkdir()
    git(tmp_path, "init", "--quiet", "--bare", "--initial-branch=main", str(bare), env=env)
    config.write_text(f'[url "{bare}"]\n\tinsteadOf = {GITHUB_URL}\n[init]\n\tdefaultBranch = main\n')
    seed = tmp_path / "seed"
    git(tmp_path, "init", "--quiet", str(seed), env=env)
    (seed / "README.md").write_text("hello\n")
    git(seed, "add", "README.md", env=env)
    git(seed, "commit", "--quiet", "-m", "First", env=env)
    git(seed, "push", "--quiet", GITHUB_URL, "HEAD:refs/heads/main", env=env)
    work = root / "work"
    git(root, "clone", "--quiet", GITHUB_URL, str(work), env=env)
    assert git(work, "config", "remote.origin.url", env=env).strip() == GITHUB_URL
    return Repos(root, bare, work, env)


def finished_agent(world: World) -> tuple[str, str]:
    """An agent whose run finished an hour ago, and its branch."""
    agent = world.add_agent("Fix the flaky login test", created_ago=3600.0)
    return agent.id, agent.branches[0]["branch"]


async def run_checkout(rig: Rig, repos: Repos, agent_id: str, where: Where, cwd: Path | None = None) -> int:
    command = checkout(rig.term, agent_id=agent_id, where=where, cwd=cwd or repos.work, env=repos.env)
    return await execute(rig.term, lambda _term: command)


async def test_checkout_makes_a_worktree_beside_the_clone_with_the_branch_and_prints_the_diffstat(
    rig_factory: RigFactory, repos: Repos
) -> None:
    """Issue 24: the default: a new worktree `../work-<branch>` on the agent's branch, its upstream set, the
    diffstat against the run's starting ref (main) and where to look; this checkout is untouched."""
    world = World(ManualClock())
    agent_id, branch = finished_agent(world)
    repos.push_branch(branch)
    before = repos.state()
    async with rig_factory(world) as rig:
        code = await run_checkout(rig, repos, agent_id, Where(None, False, None))
        shown = rig.text()
    folder = repos.root / f"work-{branch.replace('/', '-')}"
    assert code == OK, rig.errors()
    assert repos.git("rev-parse", "--abbrev-ref", "HEAD", cwd=folder).strip() == branch
    assert (folder / "agent.txt").read_text() == "the agent's change\n"
    assert repos.git("config", f"branch.{branch}.merge").strip() == f"refs/heads/{branch}"
    assert f"checked out {branch} of {agent_id} from origin in {folder}" in shown
    assert "against main" in shown and "agent.txt | 1 +" in shown and f"cd {folder} && git log --stat" in shown
    assert repos.state()["head"] == before["head"] and repos.state()["status"] == before["status"]


async def test_an_agent_started_without_a_starting_ref_gets_its_diffstat_against_the_default_branch_k_66(
    rig_factory: RigFactory, repos: Repos
) -> None:
    """K-66: a run given no starting ref started from the repository's default branch, so its checkout shows the
    diffstat against it, not "the run's starting ref could not be fetched"."""
    world = World(ManualClock())
    agent = world.add_agent("Fix the flaky login test", created_ago=3600.0)
    for repo in agent.repos:
        repo.pop("startingRef")
    branch = agent.branches[0]["branch"]
    repos.push_branch(branch)
    async with rig_factory(world) as rig:
        code = await run_checkout(rig, repos, agent.id, Where(None, False, None))
        shown = rig.text()
    assert code == OK, rig.errors()
    assert "no diffstat" not in shown
    assert "against main" in shown and "agent.txt | 1 +" in shown


async def test_checkout_worktree_dir_puts_it_where_asked(rig_factory: RigFactory, repos: Repos) -> None:
    """Issue 24: `--worktree DIR` (relative to where the command runs)."""
    world = World(ManualClock())
    agent_id, branch = finished_agent(world)
    repos.push_branch(branch)
    async with rig_factory(world) as rig:
        code = await run_checkout(rig, repos, agent_id, Where("../review", False, None))
    assert code == OK and (repos.root / "review" / "agent.txt").exists()
    assert repos.git("rev-parse", "--abbrev-ref", "HEAD", cwd=repos.root / "review").strip() == branch


async def test_checkout_branch_switches_this_clean_tree_to_the_agents_branch(
    rig_factory: RigFactory, repos: Repos
) -> None:
    """Issue 24: `--branch` makes the local branch and switches to it in place; no worktree is added."""
    world = World(ManualClock())
    agent_id, branch = finished_agent(world)
    repos.push_branch(branch)
    async with rig_factory(world, json_output=True) as rig:
        code = await run_checkout(rig, repos, agent_id, Where(None, True, None))
        [document] = rig.documents()
    assert code == OK and repos.git("rev-parse", "--abbrev-ref", "HEAD").strip() == branch
    assert (repos.work / "agent.txt").exists() and len(repos.git("worktree", "list").splitlines()) == 1
    assert document["branch"] == branch and document["worktree"] is None and "agent.txt" in document["diffstat"]


async def test_outside_a_git_repository_it_refuses_before_any_request(rig_factory: RigFactory, repos: Repos) -> None:
    """Issue 24: not a git repository: exit 2, nothing read at Cursor, nothing made."""
    world = World(ManualClock())
    agent_id, _ = finished_agent(world)
    elsewhere = repos.root.parent / "elsewhere"
    elsewhere.mkdir()
    async with rig_factory(world) as rig:
        code = await run_checkout(rig, repos, agent_id, Where(None, False, None), cwd=elsewhere)
        sent = rig.requests()
    assert code == USAGE and sent == [] and "is not in a git repository" in rig.errors()
    assert list(elsewhere.iterdir()) == []


async def test_refusals_name_what_to_change_and_leave_nothing_behind(rig_factory: RigFactory, repos: Repos) -> None:
    """Issue 24: each refusal (no matching remote, an unknown --remote, a dirty tree for --branch, a branch or a
    folder that exists) exits 2 with what to change, and the repository and its surroundings are as before."""
    world = World(ManualClock())
    agent_id, branch = finished_agent(world)
    repos.push_branch(branch)
    (repos.work / "README.md").write_text("edited\n")
    cases: list[tuple[Where, str]] = [
        (Where(None, True, None), "uncommitted changes"),
        (Where(None, False, "upstream"), "no remote named 'upstream'"),
    ]
    async with rig_factory(world) as rig:
        for where, said in cases:
            before = repos.state()
            assert await run_checkout(rig, repos, agent_id, where) == USAGE and said in rig.errors()
            assert repos.state() == before
        repos.git("checkout", "--quiet", "README.md")
        repos.git("branch", branch, "main")
        before = repos.state()
        assert await run_checkout(rig, repos, agent_id, Where(None, False, None)) == USAGE
        assert f"a local branch {branch} exists already" in rig.errors() and repos.state() == before
        repos.git("branch", "-D", branch)
        (repos.root / "taken").mkdir()
        before = repos.state()
        assert await run_checkout(rig, repos, agent_id, Where("../taken", False, None)) == USAGE
        assert "exists already" in rig.errors() and repos.state() == before
        repos.git("remote", "set-url", "origin", "https://github.com/someone/else")
        before = repos.state()
        assert await run_checkout(rig, repos, agent_id, Where(None, False, None)) == USAGE
        assert "no remote of this repository is github.com/your-org/your-repo" in rig.errors()
        assert repos.state() == before


async def test_a_branch_not_pushed_yet_says_which_run_to_wait_for(rig_factory: RigFactory, repos: Repos) -> None:
    """Issue 24: the run is still going and its branch is not on the remote: exit 2, the `wait` command for that
    run, nothing made."""
    world = World(ManualClock())
    agent = world.add_agent("Long job", script=RunScript(running_seconds=3600), created_ago=60)
    run_id = agent.runs[-1].id
    before = repos.state()
    async with rig_factory(world) as rig:
        code = await run_checkout(rig, repos, agent.id, Where(None, False, None))
    assert code == USAGE and f"cursor-cloud-agents wait {agent.id}:{run_id}" in rig.errors()
    assert repos.state() == before


async def test_a_run_not_started_has_no_branch_and_says_which_run_to_wait_for(
    rig_factory: RigFactory, repos: Repos
) -> None:
    """Issue 24: no branch reported at all yet (the run is being created): the same refusal."""
    world = World(ManualClock())
    agent = world.add_agent("Just started", script=RunScript(creating_seconds=60, running_seconds=600))
    async with rig_factory(world) as rig:
        code = await run_checkout(rig, repos, agent.id, Where(None, False, None))
    assert code == USAGE and f"wait {agent.id}:{agent.runs[-1].id}" in rig.errors()


@pytest.mark.parametrize(
    "hostile",
    [
        "--upload-pack=touch PWNED",
        "-b",
        "../../../../tmp/escape",
        "cursor/a..b",
        "a b",
        "x\x1b[2Jy",
        "@{-1}",
        "refs/heads/../../x",
        ".hidden",
        "x.lock",
        "trailing/",
        "tab\there",
        "nul\x00byte",
        "q?",
        "star*",
        "x" * 300,
    ],
)
async def test_a_hostile_branch_name_from_the_agent_is_refused_and_nothing_is_made_p_21(
    rig_factory: RigFactory, repos: Repos, hostile: str
) -> None:
    """P-21: a branch name the agent reported that git would read as an option, that climbs out of a folder or
    that git refuses, is refused before git sees it: exit 2, nothing fetched or made anywhere."""
    world = World(ManualClock())
    agent_id, _ = finished_agent(world)
    world.agent(agent_id).branches[0]["branch"] = hostile
    before = repos.state()
    async with rig_factory(world) as rig:
        code = await run_checkout(rig, repos, agent_id, Where(None, False, None))
        said = rig.errors()
    assert code == USAGE and "is refused" in said and "\x1b" not in said
    assert repos.state() == before and not list(repos.root.parent.rglob("PWNED"))


async def test_a_branch_name_with_shell_characters_is_checked_out_literally_p_22(
    rig_factory: RigFactory, repos: Repos
) -> None:
    """P-22: a name git allows but a shell would run (`$(...)`, `;`, backquotes) is only ever an argument: the
    branch is checked out under its own name, the folder's name is made of safe characters, nothing runs."""
    world = World(ManualClock())
    agent_id, _ = finished_agent(world)
    branch = "cursor/$(touch${IFS}PWNED);`id`>PWNED2|&"
    world.agent(agent_id).branches[0]["branch"] = branch
    repos.push_branch(branch)
    async with rig_factory(world) as rig:
        code = await run_checkout(rig, repos, agent_id, Where(None, False, None))
    folder = repos.root / "work-cursor-touch-IFS-PWNED-id-PWNED2"
    assert code == OK, rig.errors()
    assert repos.git("rev-parse", "--abbrev-ref", "HEAD", cwd=folder).strip() == branch
    assert not [path for path in repos.root.parent.rglob("PWNED*") if path.is_file()]


async def test_a_step_failing_after_the_branch_was_made_undoes_it_whole(rig_factory: RigFactory, repos: Repos) -> None:
    """Issue 24, nothing half done: when switching to the new branch fails (here a post-checkout hook exits 1,
    which git reports as the switch's failure), the branch and its upstream are removed and HEAD is back."""
    world = World(ManualClock())
    agent_id, branch = finished_agent(world)
    repos.push_branch(branch)
    hook = repos.work / ".git" / "hooks" / "post-checkout"
    hook.write_text("#!/bin/sh\nexit 1\n")
    hook.chmod(0o755)
    before = repos.state()
    async with rig_factory(world) as rig:
        code = await run_checkout(rig, repos, agent_id, Where(None, True, None))
    assert code != OK and repos.state() == before


async def test_git_runs_without_the_cursor_key_in_its_environment_p_23_h_30(
    rig_factory: RigFactory, repos: Repos
) -> None:
    """P-23, H-30: git (and the hooks, credential helpers and ssh it starts) never sees CURSOR_API_KEY or any other
    CURSOR_* variable: a hook writes down the environment it got. The command is handed the environment with the
    key in it, as the process has it: the product removes it (issue 42: this test stripped it itself before)."""
    world = World(ManualClock())
    agent_id, branch = finished_agent(world)
    repos.push_branch(branch)
    seen = repos.root.parent / "hook-env"
    hook = repos.work / ".git" / "hooks" / "post-checkout"
    hook.write_text(f"#!/bin/sh\nenv > '{seen}'\n")
    hook.chmod(0o755)
    key = "key_" + "k" * 60
    env = repos.env | {"CURSOR_API_KEY": key, "CURSOR_TEAM_ID": "team", "cursor_mcp_state_dir": "/x"}
    async with rig_factory(world) as rig:
        command = checkout(rig.term, agent_id=agent_id, where=Where(None, True, None), cwd=repos.work, env=env)
        code = await execute(rig.term, lambda _term: command)
    got = seen.read_text()
    assert code == OK and f"HOME={repos.env['HOME']}" in got
    assert "CURSOR_" not in got.upper() and key not in got


@pytest.mark.parametrize(
    ("url", "key"),
    [
        ("https://github.com/Your-Org/your-repo.git", "github.com/your-org/your-repo"),
        ("git@github.com:your-org/your-repo.git", "github.com/your-org/your-repo"),
        ("ssh://git@github.com/your-org/your-repo", "github.com/your-org/your-repo"),
        ("https://user@github.com/your-org/your-repo/", "github.com/your-org/your-repo"),
        ("github.com/your-org/your-repo", "github.com/your-org/your-repo"),
    ],
)
def test_every_spelling_of_a_remote_url_matches_the_agents_repository(url: str, key: str) -> None:
    """Issue 24: the remote is found whatever the clone's URL form (https, ssh, scp-like, the API's own)."""
    assert repository_key(url) == key


def test_ordinary_agent_branch_names_pass_the_check() -> None:
    """The names agents push (`cursor/...`, a person's `feature/x-1.2`) are not refused."""
    assert branch_problem("cursor/fix-the-flaky-7a02") is None and branch_problem("feature/x-1.2_b") is None


@pytest.mark.parametrize("start", ["{branch}:refs/heads/main", "+{branch}:refs/heads/main", "refs/tags/v1", "HEAD:"])
async def test_a_starting_ref_that_is_a_refspec_moves_nothing_h_02(
    rig_factory: RigFactory, repos: Repos, start: str
) -> None:
    """H-02, the reproduction at the terminal: a starting ref of `<agent branch>:refs/heads/main` moved the
    person's `main` to the agent's commit, exit 0. Now refused (exit 2) before the fetch: refs as they were."""
    world = World(ManualClock())
    agent_id, branch = finished_agent(world)
    repos.push_branch(branch)
    world.agent(agent_id).repos[0]["startingRef"] = start.format(branch=branch)
    before = repos.state()
    async with rig_factory(world) as rig:
        code = await run_checkout(rig, repos, agent_id, Where(None, False, None))
    assert code == USAGE and "starting ref" in rig.errors() and "is refused" in rig.errors()
    assert repos.state() == before
