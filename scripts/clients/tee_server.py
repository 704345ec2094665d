"""A tee on the stdio wire: start the MCP server and copy every line of both directions to a log.

    tee_server.py --log WIRE.jsonl [--env NAME=VALUE ...] [-- COMMAND ...]

The client starts this instead of the server. Without COMMAND it starts `cursor-cloud-agents` from this
checkout's .venv in simulated mode (CURSOR_MCP_FIXTURE=1). Each log line is a JSON object:
`{"t": unix time, "dir": "c2s" | "s2c" | "note", "msg": the parsed frame (or "raw": the line)}`.
Signals the client sends (SIGINT, SIGTERM) are passed to the server and logged, so a client's shutdown
sequence is on the record too. Standard library only: clients strip the environment they give a server,
so everything it needs comes in its arguments.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any

CHECKOUT = Path(__file__).resolve().parents[2]
DEFAULT_SERVER = [str(CHECKOUT / ".venv" / "bin" / "cursor-cloud-agents")]


class WireLog:
    """Appends one JSON line per frame; shared by the two copying threads."""

    def __init__(self, path: Path) -> None:
        self._file = path.open("a", encoding="utf-8")
        self._lock = threading.Lock()

    def write(self, direction: str, line: bytes | str) -> None:
        text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
        entry: dict[str, Any] = {"t": round(time.time(), 4), "dir": direction}
        try:
            entry["msg"] = json.loads(text)
        except ValueError:
            entry["raw"] = text.rstrip("\n")
        with self._lock:
            self._file.write(json.dumps(entry) + "\n")
            self._file.flush()


def _copy(source: IO[bytes], sink: IO[bytes], log: WireLog, direction: str) -> None:
    for line in iter(source.readline, b""):
        log.write(direction, line)
        try:
            sink.write(line)
            sink.flush()
        except (BrokenPipeError, ValueError):
            break
    log.write("note", f"{direction} closed")
    try:
        sink.close()
    except (BrokenPipeError, OSError):
        pass


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--log", required=True, type=Path)
    parser.add_argument("--stderr", type=Path, help="where the server's stderr goes (default: inherited)")
    parser.add_argument(
        "--delay", type=float, default=0.0, help="seconds to wait before starting the server (a slow start)"
    )
    parser.add_argument("--env", action="append", default=[], help="NAME=VALUE for the server (repeatable)")
    parser.add_argument("command", nargs="*")
    args = parser.parse_args()
    log = WireLog(args.log)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/tmp")}
    env["CURSOR_MCP_FIXTURE"] = "1"
    env.update(item.split("=", 1) for item in args.env)
    command = args.command or DEFAULT_SERVER
    log.write("note", f"start pid={os.getpid()} command={command} env={sorted(env)}")
    time.sleep(args.delay)
    errors = args.stderr.open("ab") if args.stderr else None
    server = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors, env=env)
    assert server.stdin is not None and server.stdout is not None

    def forward(signum: int, _frame: object) -> None:
        log.write("note", f"signal {signal.Signals(signum).name} from the client")
        server.send_signal(signum)

    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, forward)
    upstream = threading.Thread(target=_copy, args=(sys.stdin.buffer, server.stdin, log, "c2s"), daemon=True)
    downstream = threading.Thread(target=_copy, args=(server.stdout, sys.stdout.buffer, log, "s2c"), daemon=True)
    upstream.start()
    downstream.start()
    code = server.wait()
    downstream.join(timeout=2)
    log.write("note", f"server exited {code}")
    return code


if __name__ == "__main__":
    sys.exit(main())
