"""Issue 46, a simulated world that lasts (terminal/lasting.py): `--simulated` commands share one world.

The acceptance spawns the real commands, one process each, as a person types them in a fresh clone of their own
repository (its origin `git@github.com:...`): `run` (its `--repo` the origin, the person's commits seeded into the
stand-in remote), `watch`, `diff`, `checkout --check`, `apply`, then `simulate --stop`. Each process is bounded
by `COMMAND_SECONDS`; the world runs 200 times faster than real time so that its run ends within a second.
Everything lives under the test's own folder (state directory, TMPDIR for the stand-in remote, HOME for git).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from cursor_cloud_agents.terminal import lasting

COMMAND_SECONDS = 60


def person_env(root: Path) -> dict[str, str]:
    (root / "home").mkdir(exist_ok=True)
    (root / "tmp").mkdir(exist_ok=True)
    return {
        "PATH": os.environ.get("PATH", os.defpath),
        "HOME": str(root / "home"),
        "TMPDIR": str(root / "tmp"),
        "CURSOR_MCP_STATE_DIR": str(root / "state"),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "Person",
        "GIT_AUTHOR_EMAIL": "person@example.invalid",
        "GIT_COMMITTER_NAME": "Person",
        "GIT_COMMITTER_EMAIL": "person@example.invalid",
        "COLUMNS": "200",
    }


def cca(cwd: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cursor_cloud_agents", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=COMMAND_SECONDS,
        stdin=subprocess.DEVNULL,
    )


def git(cwd: Path, env: dict[str, str], *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=60, check=True)
    return done.stdout


def own_repository(root: Path, env: dict[str, str]) -> Path:
    """A person's fresh clone: one commit, its origin an ssh GitHub URL (nothing of it is in the stand-in)."""
    repo = root / "calc"
    repo.mkdir()
    git(repo, env, "init", "--quiet", "--initial-branch=main")
    git(repo, env, "remote", "add", "origin", "git@github.com:person/calc.git")
    (repo / "calc.py").write_text("def add(a, b):\n    return a + b\n")
    git(repo, env, "add", ".")
    git(repo, env, "commit", "--quiet", "-m", "Start")
    return repo


def test_run_then_watch_diff_checkout_and_apply_work_command_after_command_k_01(tmp_path: Path) -> None:
    """K-01 (issue 46 acceptance): from a fresh clone, `run --simulated --yes`, then `watch`, `diff`,
    `checkout --check CMD` and `apply` on the printed agent, each a separate command, all exit 0; the agent's
    branch grew from the person's own commit, so `apply` fast-forwards; `simulate --stop` ends the world."""
    env = person_env(tmp_path)
    repo = own_repository(tmp_path, env)
    start = git(repo, env, "rev-parse", "HEAD").strip()
    try:
        started = cca(repo, env, "run", "Add mul", "--simulated", "--yes", "--speed", "200", "--json")
        assert started.returncode == 0, started.stderr
        agent = json.loads(started.stdout)["agent_id"]
        assert "https://github.com/person/calc" in started.stderr  # --repo defaulted to the origin
        done = {
            name: cca(repo, env, *args, "--simulated")
            for name, args in (
                ("watch", ("watch", agent)),
                ("diff", ("diff", agent)),
                ("checkout", ("checkout", agent, "--check", "test -f calc.py && test -f src/app.py")),
                ("apply", ("apply", agent, "--yes")),  # no terminal to confirm on: a script says yes
            )
        }
        for name, finished in done.items():
            assert finished.returncode == 0, (name, finished.stdout, finished.stderr)
        assert "FINISHED" in done["watch"].stdout and "src/app.py" in done["diff"].stdout
        assert "check passed" in done["checkout"].stdout and "fast-forward" in done["apply"].stdout
        assert git(repo, env, "rev-parse", "HEAD~1").strip() == start
        world = lasting.alive(tmp_path / "state")
        assert world is not None
    finally:
        stopped = cca(repo, env, "simulate", "--stop")
    assert stopped.returncode == 0 and "stopped the simulated world" in stopped.stdout
    assert lasting.alive(tmp_path / "state") is None and not running(world.pid)


def running(pid: int) -> bool:
    """Whether `pid` runs (a zombie whose parent, here not us, has not reaped it yet does not)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


def test_another_speed_changes_the_running_world_and_another_scenario_is_refused_k_02(tmp_path: Path) -> None:
    """K-02: a world running at one speed is reused by a command without --speed; a command asking another speed
    changes its pace from then on (its agents are still there); one asking another scenario is refused (exit 2)
    naming the running world and `simulate --stop`, instead of silently ending its agents."""
    env = person_env(tmp_path)
    try:
        first = cca(tmp_path, env, "agents", "--simulated", "--speed", "50", "--json")
        again = cca(tmp_path, env, "agents", "--simulated", "--json")
        faster = cca(tmp_path, env, "agents", "--simulated", "--speed", "500", "--json")
        world = lasting.alive(tmp_path / "state")
        other = cca(tmp_path, env, "agents", "--simulated", "--scenario", "fleet")
    finally:
        cca(tmp_path, env, "simulate", "--stop")
    assert (first.returncode, again.returncode, faster.returncode) == (0, 0, 0), (first.stderr, faster.stderr)
    agents = [json.loads(done.stdout)["agents"] for done in (first, faster)]
    assert [a["agent_id"] for a in agents[0]] == [a["agent_id"] for a in agents[1]]
    assert world is not None and world.speed == 500
    assert other.returncode == 2 and "--scenario fleet" in other.stderr and "simulate --stop" in other.stderr


def test_a_record_of_another_process_is_never_trusted_nor_signalled_k_03(tmp_path: Path) -> None:
    """K-03: a record naming a live process that is not a lasting world (here the test itself: a pid reused
    since) is stale: the world is not reused, and `stop` sends it no signal."""
    state = tmp_path / "state"
    state.mkdir()
    record = {
        "pid": os.getpid(),
        "base_url": "http://127.0.0.1:9",
        "key": "sim-key-x",
        "scenario": "demo",
        "speed": 1.0,
        "started": 0.0,
        "world_at": 0.0,
    }
    (state / lasting.RECORD_NAME).write_text(json.dumps(record))
    assert lasting.alive(state) is None
    assert lasting.stop(state) is None  # this test process is still here to assert it
    assert not (state / lasting.RECORD_NAME).exists()


def test_a_world_whose_record_cannot_be_read_is_still_ended_never_left_behind_k_04(tmp_path: Path) -> None:
    """K-04: a live world whose record is of another format (an older version's, a field missing) is not reused,
    but `simulate --stop` still ends it (by the pid the record names, once checked to be this folder's world),
    so no world is left running unseen for hours."""
    env = person_env(tmp_path)
    state = tmp_path / "state"
    try:
        started = cca(tmp_path, env, "agents", "--simulated", "--json")
        world = lasting.alive(state)
        assert started.returncode == 0 and world is not None, started.stderr
        record = json.loads((state / lasting.RECORD_NAME).read_text())
        del record["world_at"]
        (state / lasting.RECORD_NAME).write_text(json.dumps(record))
        assert lasting.alive(state) is None
    finally:
        stopped = cca(tmp_path, env, "simulate", "--stop")
    assert stopped.returncode == 0 and f"stopped the simulated world (pid {world.pid})" in stopped.stdout
    assert not running(world.pid)
