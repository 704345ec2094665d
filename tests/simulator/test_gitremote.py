"""The simulator pushes real branches (issue 30): a bare repository standing in for GitHub, seeded with a
small project; a run that ends FINISHED with a branch has a real commit on it, from the ref it reports."""

from __future__ import annotations

from pathlib import Path

import pytest

from cursor_cloud_agents.simulator import SEED, ManualClock, RunScript, StandInRemote, World, build_scenario
from tests.stand_in import GITHUB_URL, Remote, git, make_remote


@pytest.fixture(scope="module")
def remote(tmp_path_factory: pytest.TempPathFactory) -> Remote:
    return make_remote(tmp_path_factory.mktemp("remote"))


def bare(remote: Remote) -> Path:
    return remote.folder / "github.com" / "your-org" / "your-repo.git"


def branches(remote: Remote) -> str:
    return git(bare(remote), "for-each-ref", "--format=%(refname:short)", "refs/heads", env=remote.env)


def test_the_stand_in_is_seeded_with_the_project_on_main(remote: Remote) -> None:
    StandInRemote(remote.folder).ensure(GITHUB_URL)
    listed = git(bare(remote), "ls-tree", "-r", "--name-only", "main", env=remote.env).split()
    assert sorted(listed) == sorted(SEED)


def test_a_finished_run_has_one_real_commit_on_its_branch_from_its_starting_ref(remote: Remote) -> None:
    clock = ManualClock()
    world = remote.attach(World(clock))
    agent = world.add_agent("Add a farewell", created_ago=3600)
    branch = agent.branches[0]["branch"]
    assert branch not in branches(remote)  # nothing is pushed before someone reads the agent
    world.agent(agent.id)
    assert git(bare(remote), "rev-list", "--count", f"main..{branch}", env=remote.env).strip() == "1"
    assert git(bare(remote), "merge-base", "main", branch, env=remote.env) == git(
        bare(remote), "rev-parse", "main", env=remote.env
    )
    assert git(bare(remote), "log", "-1", "--format=%s", branch, env=remote.env).strip() == "Add a farewell"


def test_a_running_run_pushes_when_it_ends_and_a_follow_up_continues_the_branch(remote: Remote) -> None:
    clock = ManualClock()
    world = remote.attach(World(clock))
    agent = world.add_agent("Make it shout", script=RunScript(running_seconds=100), created_ago=10)
    branch = agent.branches[0]["branch"]
    world.agent(agent.id)
    assert branch not in branches(remote)
    clock.advance(200)
    world.agent(agent.id)
    world.queue_script(RunScript(running_seconds=10, change="rename"))
    world.follow_up(agent.id, {"prompt": {"text": "Now rename util"}})
    clock.advance(60)
    world.agent(agent.id)
    assert git(bare(remote), "rev-list", "--count", f"main..{branch}", env=remote.env).strip() == "2"


def test_an_errored_run_and_a_world_without_a_remote_push_nothing(remote: Remote) -> None:
    world = remote.attach(World(ManualClock()))
    failed = world.add_agent("Break everything", script=RunScript(outcome="ERROR"), created_ago=3600)
    world.agent(failed.id)
    assert failed.branches[0]["branch"] not in branches(remote)
    offline = World(ManualClock())
    quiet = offline.add_agent("Offline change", created_ago=3600)
    offline.agent(quiet.id)
    assert quiet.branches[0]["branch"] not in branches(remote)


def test_the_demo_world_has_its_finished_agents_branches_there(remote: Remote) -> None:
    world = remote.attach(build_scenario("demo", ManualClock()))
    world.push_ended()
    pushed = branches(remote)
    for agent in world.agents.values():
        finished = agent.runs[-1].outcome == "FINISHED" and agent.runs[-1].ended_at <= world.now()
        assert (agent.branches[0]["branch"] in pushed) == finished, agent.name


def test_a_clone_made_as_simulate_prints_has_the_github_url_as_its_remote(remote: Remote) -> None:
    StandInRemote(remote.folder).ensure(GITHUB_URL)
    command = StandInRemote(remote.folder).clone_command()
    assert command.startswith("git clone -c url.file://") and command.endswith(f".insteadOf=https:// {GITHUB_URL}")
    clone = remote.clone("printed")
    assert git(clone, "config", "remote.origin.url", env=remote.env).strip() == GITHUB_URL  # as configured
    assert (clone / "src" / "app.py").read_bytes() == SEED["src/app.py"]


def test_a_repository_url_outside_the_folder_is_refused(remote: Remote) -> None:
    with pytest.raises(ValueError, match="not a repository URL"):
        StandInRemote(remote.folder).path_of("github.com/../../etc")
