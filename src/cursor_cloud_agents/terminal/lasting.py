"""The simulated world that lasts: one background simulator per person, reached by every `--simulated` command.

`run --simulated` starts an agent; `watch`, `diff`, `checkout`, `apply` of that agent are separate commands, so
the world must outlive each of them. The first `--simulated` command starts the world as a background
process of this person (`python -m cursor_cloud_agents.terminal.lasting`, in its own session, so Ctrl-C at
the command leaves it); the process serves a scenario on 127.0.0.1 and writes where it listens into the state
directory (`simulated-world.json`, mode 0600): its pid, base URL, a key of its own, scenario, and its clock
(speed, and the world's time at a wall time). Every later `--simulated` command reads that record and reuses the
world only after checking, in order: the record is a regular file of this user; the pid is alive, a process of
this user, and runs this module; and the world answers `GET /v1/me` with the record's key (a key minted per world, so
another program that took the port is never mistaken for it). Anything else: the record is stale, and a new
world is started. A lock file orders two commands starting a world at once (one world, not two). A command
asking another `--speed` changes the running world's pace from then on (SIGUSR1, the speed in a file beside
the record; its agents go on); one asking another `--scenario` is refused, naming `simulate --stop`, since a
world is never replaced with its agents silently.

Why a process rather than the world's state saved in the state directory and reloaded by each command: a
world is alive between commands (runs move on their clock, streams, a follow-up queued after a run), and the
simulator's state (agents, runs, timelines, its stand-in remote's pushes) is not a format of ours to keep
compatible; a process holds it as it is, and costs nothing when idle. It ends by `simulate --stop`, or by
itself after `IDLE_SECONDS` without a request.

The counts of its creations are its origin's (core/spend/origins.py): never the real API's.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import secrets
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Generator, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, cast

import anyio

from cursor_cloud_agents.guards.net import is_loopback_host
from cursor_cloud_agents.guards.regularfile import open_regular

RECORD_NAME = "simulated-world.json"
LOCK_NAME = "simulated-world.lock"
LOG_NAME = "simulated-world.log"
SPEED_NAME = "simulated-world.speed"
"""The speed a command asks the running world for (read by the world on SIGUSR1)."""
START_SECONDS = 30.0
"""The longest a command waits for a new world to listen (it usually takes well under a second)."""
ANSWER_SECONDS = 3.0
"""The longest the liveness check waits for the world's answer to `GET /v1/me`."""
STOP_SECONDS = 5.0
IDLE_SECONDS = 8 * 3600.0
"""A world that received no request for this long ends by itself: a forgotten one does not live for ever."""
IDLE_CHECK_SECONDS = 60.0
MODULE = "cursor_cloud_agents.terminal.lasting"
RECORD_MAX_BYTES = 4096


class WorldProblem(Exception):
    """The lasting world cannot be reached or started; the message says what to do."""


@dataclass(frozen=True)
class WorldRecord:
    """Where a lasting world listens, and what it was started with."""

    pid: int
    base_url: str
    key: str
    scenario: str
    speed: float
    started: float
    """The wall time its clock last took its pace (started, or its speed changed)."""
    world_at: float
    """The world's time then: its clock reads this plus the real time since `started` times `speed`."""

    def now(self) -> float:
        """The world's time now, as its own clock reads it."""
        return self.world_at + (time.time() - self.started) * self.speed

    def described(self) -> str:
        return f"pid {self.pid} at {self.base_url}, --scenario {self.scenario} --speed {self.speed:g}"


def reach(state_dir: Path, scenario: str | None, speed: float | None, env: Mapping[str, str]) -> WorldRecord:
    """The person's lasting world, started if none is alive; `scenario` and `speed` (None: whatever it has) must
    match a running world's; a new one runs with `env` (the command's environment) less every `CURSOR_*` variable.

    Raises:
        WorldProblem: it cannot be started, or the running one differs from what was asked.
    """
    state_dir.mkdir(parents=True, exist_ok=True)
    with _locked(state_dir):
        world = alive(state_dir)
        if world is None:
            return _start(state_dir, scenario or "demo", speed or 1.0, env)
        if scenario is not None and scenario != world.scenario:
            raise WorldProblem(
                f"the simulated world running ({world.described()}) is not the one asked (--scenario {scenario}): "
                "`cursor-cloud-agents simulate --stop` ends it (its agents with it), and the next --simulated "
                "command starts the one asked; or leave --scenario out to use it"
            )
        if speed is not None and speed != world.speed:
            return _change_speed(state_dir, world, speed)
        return world


def _change_speed(state_dir: Path, world: WorldRecord, speed: float) -> WorldRecord:
    """Ask the running world to move `speed` times faster from now on (its agents and their times go on), and
    wait for its record to say so."""
    aside = state_dir / f".{SPEED_NAME}.{os.getpid()}.tmp"
    descriptor = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    try:
        os.write(descriptor, repr(speed).encode())
    finally:
        os.close(descriptor)
    os.replace(aside, state_dir / SPEED_NAME)
    os.kill(world.pid, signal.SIGUSR1)
    deadline = time.monotonic() + STOP_SECONDS
    while time.monotonic() < deadline:
        changed = _read(state_dir / RECORD_NAME)
        if changed is not None and changed.pid == world.pid and changed.speed == speed:
            return changed
        time.sleep(0.02)
    raise WorldProblem(f"the simulated world ({world.described()}) did not take --speed {speed:g}; try again")


def alive(state_dir: Path) -> WorldRecord | None:
    """The recorded world, if it is this person's, alive and answering with its key; else None."""
    world = _read(state_dir / RECORD_NAME)
    if world is None or not _ours(world.pid, state_dir):
        return None
    return world if _answers(world) else None


def stop(state_dir: Path) -> str | None:
    """End the person's lasting world (the one recorded, once checked to be ours, even if its record is of an
    older format); what was stopped, or None when none was running."""
    with _locked(state_dir):
        world = _read(state_dir / RECORD_NAME)
        pid = world.pid if world is not None else _recorded_pid(state_dir / RECORD_NAME)
        ended = pid is not None and _end(pid, state_dir)
        _forget(state_dir, None)
    if not ended:
        return None
    return world.described() if world is not None else f"pid {pid}"


_STARTED: dict[int, subprocess.Popen[bytes]] = {}
"""The worlds this process started, by pid: a world outlives the command by design, so its handle is kept (a
dropped handle of a running child is a ResourceWarning) and, when this process ends it, reaped (no zombie)."""


def _end(pid: int, state_dir: Path) -> bool:
    """End the lasting world `pid` of `state_dir` (TERM, then KILL after STOP_SECONDS); False when it is none."""
    if not _ours(pid, state_dir):
        return False
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + STOP_SECONDS
    while _ours(pid, state_dir) and time.monotonic() < deadline:
        time.sleep(0.05)
    if _ours(pid, state_dir):
        os.kill(pid, signal.SIGKILL)
    started = _STARTED.pop(pid, None)
    if started is not None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            started.wait(STOP_SECONDS)
    return True


def stop_command(state_dir: Path | None, write: Callable[[str], object]) -> int:
    """`simulate --stop`: end the person's lasting world and say which, or that none was running."""
    if state_dir is None:
        write("no lasting simulated world: CURSOR_MCP_STATE_DIR=memory keeps each --simulated world in its command\n")
        return 0
    stopped = stop(state_dir) if state_dir.is_dir() else None
    write(
        f"stopped the simulated world ({stopped}); the next --simulated command starts a new one\n"
        if stopped is not None
        else "no simulated world was running\n"
    )
    return 0


def _start(state_dir: Path, scenario: str, speed: float, env: Mapping[str, str]) -> WorldRecord:
    recorded = _recorded_pid(state_dir / RECORD_NAME)
    if recorded is not None:
        _end(recorded, state_dir)  # one that stopped answering, or of an older record: never left behind
    _forget(state_dir, None)
    log = state_dir / LOG_NAME
    with log.open("wb") as errors:
        os.chmod(log, 0o600)
        child = subprocess.Popen(
            [sys.executable, "-m", MODULE, str(state_dir), scenario, repr(speed)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=errors,
            start_new_session=True,  # Ctrl-C at the command that started it does not reach it
            close_fds=True,
            env={name: value for name, value in env.items() if not name.startswith("CURSOR_")},  # never a key
        )
    _STARTED[child.pid] = child
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        world = _read(state_dir / RECORD_NAME)
        if world is not None and world.pid == child.pid:
            return world
        if child.poll() is not None:
            break
        time.sleep(0.02)
    if child.poll() is None:
        child.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            child.wait(STOP_SECONDS)
    _STARTED.pop(child.pid, None)
    tail = log.read_text(errors="replace")[-400:].strip()
    raise WorldProblem(f"the simulated world could not be started ({tail or 'it said nothing'}; log: {log})")


@contextlib.contextmanager
def _locked(state_dir: Path) -> Generator[None]:
    descriptor = open_regular(state_dir / LOCK_NAME, os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)


def _record_data(path: Path) -> dict[str, Any] | None:
    """What the record at `path` holds, if it is a regular file of this user holding a JSON object; else None."""
    try:
        descriptor = open_regular(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return None
    try:
        if os.fstat(descriptor).st_uid != os.getuid():
            return None
        data: object = json.loads(os.read(descriptor, RECORD_MAX_BYTES))
    except (OSError, ValueError):
        return None
    finally:
        os.close(descriptor)
    return cast(dict[str, Any], data) if isinstance(data, dict) else None


def _read(path: Path) -> WorldRecord | None:
    """The record at `path` if it is a regular file of this user holding a loopback world; else None."""
    data = _record_data(path)
    if data is None:
        return None
    try:
        world = WorldRecord(
            int(data["pid"]),
            str(data["base_url"]),
            str(data["key"]),
            str(data["scenario"]),
            float(data["speed"]),
            float(data["started"]),
            float(data["world_at"]),
        )
    except (ValueError, KeyError, TypeError):  # none, or not this version's record
        return None
    host = world.base_url.removeprefix("http://").rsplit(":", 1)[0]
    return world if world.base_url.startswith("http://") and is_loopback_host(host) and world.speed > 0 else None


def _recorded_pid(path: Path) -> int | None:
    """The pid a record of this user names, whatever else it holds (an older format, a world gone quiet)."""
    pid = (_record_data(path) or {}).get("pid")
    return pid if isinstance(pid, int) and not isinstance(pid, bool) else None


def _ours(pid: int, state_dir: Path) -> bool:
    """Whether `pid` is alive, a process of this user, and the lasting world of `state_dir` (not a pid reused
    since, nor another folder's world)."""
    if pid <= 1:
        return False
    proc = Path(f"/proc/{pid}")
    try:
        if proc.stat().st_uid != os.getuid():
            return False
        arguments = (proc / "cmdline").read_bytes().split(b"\0")
        return MODULE.encode() in arguments and os.fsencode(state_dir) in arguments
    except OSError:
        return False


def _answers(world: WorldRecord) -> bool:
    request = urllib.request.Request(f"{world.base_url}/v1/me", headers={"Authorization": f"Bearer {world.key}"})
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback: never through a proxy
    try:
        with opener.open(request, timeout=ANSWER_SECONDS) as answer:
            return answer.status == 200
    except (OSError, urllib.error.URLError, ValueError):
        return False


def _forget(state_dir: Path, pid: int | None) -> None:
    """Remove the record (only if it is `pid`'s, when given: a world ending never removes its successor's)."""
    path = state_dir / RECORD_NAME
    if pid is not None:
        world = _read(path)
        if world is None or world.pid != pid:
            return
    path.unlink(missing_ok=True)


def _write(state_dir: Path, world: WorldRecord) -> None:
    aside = state_dir / f".{RECORD_NAME}.{os.getpid()}.tmp"
    descriptor = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    try:
        os.write(descriptor, json.dumps(asdict(world)).encode())
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
    os.replace(aside, state_dir / RECORD_NAME)


class LastingClock:
    """The world's clock: real time, `speed` times faster, whose speed a command may change while it runs (time
    stays continuous; a wait under way wakes to measure again at the new pace)."""

    def __init__(self, speed: float) -> None:
        self.speed = speed
        self.started = time.time()
        self.world_at = self.started
        self._mono = time.monotonic()
        self._changed: anyio.Event | None = None

    def now(self) -> float:
        return self.world_at + (time.monotonic() - self._mono) * self.speed

    async def wait(self, deadline: float) -> None:
        remaining = (deadline - self.now()) / self.speed
        if remaining <= 0:
            return
        if self._changed is None:
            self._changed = anyio.Event()  # made here: an anyio event needs a running event loop
        with anyio.move_on_after(remaining):
            await self._changed.wait()

    def set_speed(self, speed: float) -> None:
        self.world_at, self.started, self._mono = self.now(), time.time(), time.monotonic()
        self.speed = speed
        changed, self._changed = self._changed, None
        if changed is not None:
            changed.set()


def _asked_speed(state_dir: Path) -> float | None:
    try:
        speed = float((state_dir / SPEED_NAME).read_text()[:64])
    except (OSError, ValueError):
        return None
    return speed if speed > 0 and speed < float("inf") else None


async def _serve(state_dir: Path, scenario: str, speed: float) -> None:
    """The world's process: serve `scenario` on loopback, record where, until SIGTERM or idle too long; SIGUSR1
    takes the speed a command asked for."""
    from cursor_cloud_agents.embedded import simulator_folder, stand_in_remote_folder
    from cursor_cloud_agents.simulator import StandInRemote, build_scenario, serve

    clock = LastingClock(speed)
    world = build_scenario(scenario, clock)
    world.remote = StandInRemote(stand_in_remote_folder(simulator_folder()))
    key = f"sim-key-{secrets.token_hex(16)}"
    world.add_api_key(key, "Lasting world key")
    world.push_ended()
    async with serve(world) as sim, anyio.create_task_group() as group:

        def record() -> None:
            made = WorldRecord(os.getpid(), sim.base_url, key, scenario, clock.speed, clock.started, clock.world_at)
            _write(state_dir, made)

        async def idle_watch() -> None:
            quiet_since = time.monotonic()
            while time.monotonic() - quiet_since < IDLE_SECONDS:
                await anyio.sleep(IDLE_CHECK_SECONDS)
                if sim.requests:
                    sim.requests.clear()  # only how recently one came matters here
                    quiet_since = time.monotonic()
            group.cancel_scope.cancel()

        group.start_soon(idle_watch)
        with anyio.open_signal_receiver(signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGUSR1) as signals:
            record()  # once the signals are ours: a command may send SIGUSR1 as soon as it reads the record
            async for received in signals:
                if received != signal.SIGUSR1:
                    break
                asked = _asked_speed(state_dir)
                if asked is not None:
                    clock.set_speed(asked)
                    record()
        group.cancel_scope.cancel()
    _forget(state_dir, os.getpid())


def main(argv: list[str]) -> int:
    """`python -m cursor_cloud_agents.terminal.lasting STATE_DIR SCENARIO SPEED`: the world's process."""
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    state_dir, scenario, speed = Path(argv[0]), argv[1], float(argv[2])
    try:
        anyio.run(_serve, state_dir, scenario, speed)
    finally:
        _forget(state_dir, os.getpid())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
