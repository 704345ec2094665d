"""The small process between the server and a check command: it outlives nothing it started.

Run as a script (`python -I -S check_supervisor.py SECONDS OUTPUT -- ARGV...`), with the check's folder as its
working directory and the check's environment as its own; it imports only the standard library, so it starts
in tens of milliseconds and never loads the package's code (nor any `.pth` file the agent's tree could offer).

What it does, in order:
- On Linux it makes itself a child subreaper (`prctl(PR_SET_CHILD_SUBREAPER)`): a process the command started
  that leaves its parent (`setsid`, a double fork) is re-parented to this supervisor instead of init, so it can
  still be found and ended. Elsewhere (macOS) it can only end the command's session and process group.
- It starts ARGV in a new session, standard input closed, standard output and error appended to OUTPUT (a
  file: a background child that keeps it open holds no pipe anybody waits on).
- It waits for the command's own exit, for SECONDS at most, or until its own standard input closes or says
  `stop` (the server gave up or died: nothing is left running behind it).
- Whatever ended the wait, it ends every descendant still there (the session's group, then everything whose
  parent chain leads to it, again until none is left) and writes one JSON line on its standard output:
  `{"exit": CODE | null, "signal": N | null, "timed_out": bool, "stopped": bool, "reaper": "subreaper" |
  "session", "ended": N}`.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import select
import signal
import subprocess
import sys
import time

PR_SET_CHILD_SUBREAPER = 36
"""From linux/prctl.h."""
END_SECONDS = 5.0
"""How long ending the descendants may take before the supervisor reports what is left (a fork loop racing)."""


def become_subreaper() -> bool:
    """Whether this process now adopts its orphaned descendants (Linux 3.4 and later only)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def parents() -> dict[int, int]:
    """Every visible process's parent, read from /proc (empty where there is no /proc)."""
    found: dict[int, int] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return found
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as stat:
                # The name in parentheses may hold spaces or parentheses: the fields after the last ")" are fixed.
                fields = stat.read().rsplit(b")", 1)[1].split()
            found[int(name)] = int(fields[1])
        except (OSError, IndexError, ValueError):
            continue
    return found


def descendants(root: int) -> list[int]:
    """Every process whose chain of parents leads to `root`."""
    children: dict[int, list[int]] = {}
    for pid, parent in parents().items():
        children.setdefault(parent, []).append(pid)
    found: list[int] = []
    queue = list(children.get(root, []))
    while queue:
        pid = queue.pop()
        found.append(pid)
        queue.extend(children.get(pid, []))
    return found


def reap() -> int:
    """Collect every ended child; how many."""
    count = 0
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return count
        if pid == 0:
            return count
        count += 1


def has_children() -> bool:
    """Whether any child is still this process's (one that has just ended is collected on the way: `waitpid`,
    because macOS has no `waitid`)."""
    try:
        os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        return False
    return True


def end_all(group: int) -> int:
    """SIGKILL the command's process group and every descendant, until none is left; how many were signalled."""
    ended: set[int] = set()
    with contextlib.suppress(OSError):
        os.killpg(group, signal.SIGKILL)
    stop_at = time.monotonic() + END_SECONDS
    me = os.getpid()
    while time.monotonic() < stop_at:
        left = descendants(me)
        for pid in left:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
                ended.add(pid)
        reap()
        if not left and not has_children():
            break
        time.sleep(0.005)
    return len(ended)


def wait_for(pid: int, seconds: float, control: int, wake: int) -> tuple[int | None, bool, bool]:
    """Wait for `pid` to end: (its wait status or None, timed out, stopped by the server)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            return None, False, False
        if done == pid:
            return status, False, False
        reap()  # orphans adopted from the command end here, not as zombies
        left = deadline - time.monotonic()
        if left <= 0:
            return None, True, False
        ready, _, _ = select.select([control, wake], [], [], left)
        if control in ready:
            try:
                said = os.read(control, 64)
            except OSError:
                said = b""
            if not said or said.strip() == b"stop":
                return None, False, True
        if wake in ready:
            with contextlib.suppress(OSError):
                os.read(wake, 4096)


def _ignore(_signal: int, _frame: object) -> None:
    return None


def main(argv: list[str]) -> int:
    seconds, output = float(argv[1]), argv[2]
    command = argv[4:] if argv[3:4] == ["--"] else argv[3:]
    reaper = "subreaper" if become_subreaper() else "session"
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, _ignore)  # a handler, so SIGCHLD wakes the select through the fd
    signal.signal(signal.SIGTERM, _ignore)  # the server's stop arrives by the control pipe (or as SIGKILL)
    with open(output, "ab", buffering=0) as out:
        child = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=out, stderr=out, start_new_session=True, close_fds=True
        )
    status, timed_out, stopped = wait_for(child.pid, seconds, sys.stdin.fileno(), wake_read)
    ended = end_all(child.pid)
    exit_code = signal_number = None
    if status is not None:
        if os.WIFSIGNALED(status):
            signal_number = os.WTERMSIG(status)
        else:
            exit_code = os.waitstatus_to_exitcode(status)
    report = {
        "exit": exit_code,
        "signal": signal_number,
        "timed_out": timed_out,
        "stopped": stopped,
        "reaper": reaper,
        "ended": ended,
    }
    sys.stdout.write(json.dumps(report) + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
